// Your part of the table: your seat, the prompt, the move's extra toggles and your
// tiles; and the keys that choose them.

import { arrange, h, replace } from "../dom.js";
import { num, t, tileName } from "../i18n.js";
import { socket } from "../socket.js";
import { parseTile, tileSvg } from "../tiles.js";
import { endLabel } from "../words.js";
import { chooseTile, endChoices, modeMoves, play } from "./moves.js";
import { seatCard } from "./seats.js";

/** A touch screen (a phone, a tablet) gets no keyboard hints. */
function touchScreen() {
  return navigator.maxTouchPoints > 0 || window.matchMedia("(pointer: coarse)").matches;
}

// Toggles for the extra fields the legal moves carry: lay a double face down; open
// one of one's own closed doubles (Donkey, RULES §8).
function extraControls(ctx, v) {
  const { state } = ctx;
  const legal = v.legal || [];
  const toggles = [];
  const toggle = (on, words, testid, flip) => h("button", {
    type: "button", class: `toggle-button ${on ? "on" : ""}`, "aria-pressed": on ? "true" : "false",
    "data-testid": testid, onclick: () => {
      flip();
      state.selected = null;
      ctx.render();
    },
  }, words);
  if (legal.some((m) => m.closed === true)) {
    toggles.push(toggle(state.faceDown, t("table.lay_closed"), "lay-closed", () => { state.faceDown = !state.faceDown; }));
  }
  for (const end of [...new Set(legal.filter((m) => m.open).map((m) => m.open))]) {
    toggles.push(toggle(state.opening === end, t("table.open_double", { end: endLabel(v, end) }), `open-${end}`,
      () => { state.opening = state.opening === end ? null : end; }));
  }
  return toggles.length ? h("div", { class: "move-extras", "data-testid": "move-extras" }, toggles) : null;
}

// What each hand element was last drawn from: a hand that has not changed (another
// player's move) keeps its buttons, and the one that holds the focus keeps it.
const drawn = new WeakMap();

export function renderHand(ctx) {
  const { state, el } = ctx;
  const { hand, prompt, mine } = el;
  const v = ctx.view();
  const focusedTile = hand.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).dataset.tile : null;
  if (!ctx.seated(v)) {
    replace(mine, h("p", { class: "muted spectator-note" }, t("table.you_watch")));
    return;
  }
  const mySeat = (v.seats || []).find((x) => x.seat === v.you);
  const myTurn = v.status === "playing" && v.turn === v.you && !v.next_round_at;
  const moves = modeMoves(ctx);
  const legalTiles = new Set(moves.map((m) => m.tile));
  // Tiles that may go down with a second double this turn (Sea Goat, RULES §7).
  const pairTiles = new Set(moves.filter((m) => m.also).map((m) => m.tile));
  const moveExtras = myTurn ? extraControls(ctx, v) : null;
  const tiles = (v.hand || []).map((tile, i) => {
    const legal = myTurn && legalTiles.has(tile) && !state.sending;
    const pair = legal && pairTiles.has(tile);
    return {
      tile, legal, pair, selected: state.selected === tile,
      label: `${i < 9 ? `${num(i + 1)}: ` : ""}${tileName(tile)}${legal ? `, ${t("table.playable")}` : ""}${pair ? `, ${t("table.with_double")}` : ""}`,
    };
  });
  const empty = v.status === "playing" ? t("table.no_tiles") : "";
  const key = JSON.stringify([tiles, empty]);
  if (drawn.get(hand) !== key) {
    drawn.set(hand, key);
    const buttons = tiles.map(({ tile, legal, pair, selected, label }, i) => {
      const tl = parseTile(tile) || [0, 0];
      // Not `disabled`: a disabled button cannot hold the focus, and after a move the
      // focus stays in the hand.
      return h("button", {
        type: "button",
        class: `hand-tile ${legal ? "legal" : ""} ${pair ? "with-double" : ""} ${selected ? "selected" : ""}`,
        dataset: { tile }, "aria-disabled": legal ? "false" : "true", "aria-pressed": selected ? "true" : "false",
        "aria-label": label, "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
        onclick: () => chooseTile(ctx, tile),
      }, tileSvg(tl[0], tl[1]));
    });
    replace(hand, buttons.length ? buttons : h("p", { class: "muted" }, empty));
    // A big hand (Mexican Train's) gets smaller tiles on a phone, so it stays on screen.
    hand.classList.toggle("many", buttons.length > 14);
    hand.classList.toggle("lots", buttons.length > 36); // the engine drawn late from the pot
  }

  const choices = endChoices(ctx);
  if (state.notSent) replace(prompt, h("strong", { class: "refused", role: "alert" }, t("table.offline_move")));
  else if (choices.length) {
    replace(prompt, t("table.play_on", { tile: state.selected }),
      choices.map((c) => h("button", { type: "button", class: `end-button ${c.extra.also ? "also-button" : ""}`, dataset: { end: c.end ?? "" },
        onclick: () => play(ctx, state.selected, c.end, c.extra) }, c.label)),
      h("button", { type: "button", class: "link-button", onclick: () => {
        state.selected = null;
        ctx.render();
      } }, t("table.cancel")));
  } else if (myTurn && !legalTiles.size && (v.legal || []).some((m) => m.open)) {
    // Every tile that fits needs one's own closed double opened first (Donkey): the
    // server will not move for him, so say which button to press.
    prompt.textContent = t("table.open_to_play");
  } else if (myTurn && !legalTiles.size) prompt.textContent = t("table.no_move");
  else if (myTurn) prompt.textContent = (v.chain || []).length ? t("table.choose_tile") : t("table.choose_lead");
  else if (!socket.connected && v.status === "playing") prompt.textContent = t("table.offline");
  else prompt.textContent = "";

  const card = mySeat ? seatCard(ctx, mySeat, v) : null;
  arrange(mine, card, prompt, moveExtras, hand, touchScreen() ? null : h("p", { class: "muted keys-hint" }, t("table.keys_hint")));
  if ((focusedTile !== null && focusedTile !== undefined) || state.refocus) {
    const again = focusedTile ? hand.querySelector(`[data-tile="${CSS.escape(focusedTile)}"]`) : null;
    const target = again || hand.querySelector(".hand-tile.legal") || hand.querySelector(".hand-tile");
    if (target) {
      // The hand is where it was: no scrolling to it.
      if (document.activeElement !== target) target.focus({ preventScroll: true });
      state.refocus = false;
    }
  }
}

/** The table's keys: 1-9 choose a tile, the arrows move between tiles, Esc cancels. */
export function handKeys(ctx) {
  const { state } = ctx;
  const hand = ctx.el.hand;
  return (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.target instanceof HTMLTextAreaElement) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tiles = [...hand.querySelectorAll(".hand-tile")];
    if (ev.key === "Escape") {
      if (state.selected) {
        state.selected = null;
        ctx.render();
      } else if (state.summary) {
        state.summary = null;
        ctx.render();
      } else return;
    } else if (/^[1-9]$/.test(ev.key) && tiles[Number(ev.key) - 1]) {
      // 1-9: choose the n-th tile of the hand.
      tiles[Number(ev.key) - 1].focus();
      chooseTile(ctx, tiles[Number(ev.key) - 1].dataset.tile);
    } else if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && hand.contains(document.activeElement)) {
      // The hand is laid out left to right in every language, so the arrows follow it.
      const forward = ev.key === "ArrowRight";
      const at = tiles.indexOf(document.activeElement);
      const next = tiles[(at + (forward ? 1 : -1) + tiles.length) % tiles.length];
      if (next) next.focus();
    } else return;
    ev.preventDefault();
  };
}
