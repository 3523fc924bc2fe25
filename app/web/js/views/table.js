// A table: the line of play, your hand, the other seats, the turn clock, the round
// summary, the score sheet, the event log and the chat. Everything shown comes from
// the server's `view` (PROTOCOL §2); the client never guesses hidden tiles.

import { alertPlayer, clearTitleAlert, setTitle, sound } from "../alerts.js";
import { askNotifications, canAskNotifications } from "../alerts.js";
import { auth, get, post } from "../api.js";
import { h, replace } from "../dom.js";
import { renderLayout } from "../board.js";
import { clockTime, duration, list, num, signedNum, t } from "../i18n.js";
import { keepsRemembered, scoreSheet, seatStanding, sides, standingCell, teamLetter } from "../scores.js";
import { socket } from "../socket.js";
import { fishIcon, goatIcon, parseTile, tileBack, tileSvg } from "../tiles.js";
import { navigate, pill, toast } from "../ui.js";
import { describeEvents, endLabel, endWord, optionWords, resultWords, roundEndWords, seatName, variantName } from "../words.js";

const WARN_MS = 10_000;
const KEPT_CHANGES = 150; // changes' events kept per table for the log after a reload
const KEPT_CHAT = 200;

/** The table's log and chat, kept in this tab's session storage so a reload keeps them. */
function memory(tableId) {
  const key = (what) => `domino.table.${tableId}.${what}`;
  const read = (what) => {
    try {
      return JSON.parse(sessionStorage.getItem(key(what)) || "[]");
    } catch {
      return [];
    }
  };
  const write = (what, items, keep) => {
    try {
      sessionStorage.setItem(key(what), JSON.stringify(items.slice(-keep)));
    } catch {
      // A full storage only costs the memory of the log.
    }
  };
  return {
    changes: read("log"),
    chat: read("chat"),
    addChange(seq, events) {
      if (this.changes.some((c) => c.seq === seq)) return false;
      this.changes.push({ seq, events });
      write("log", this.changes, KEPT_CHANGES);
      return true;
    },
    addChat(msg) {
      this.chat.push(msg);
      write("chat", this.chat, KEPT_CHAT);
    },
  };
}

export function renderTable(root, tableId) {
  const kept = memory(tableId);
  const state = {
    skew: 0, // server clock minus this browser's clock, in ms
    seq: null,
    view: null,
    table: null,
    selected: null, // tile waiting for the choice of an end
    faceDown: false, // the next double is laid closed (a move field the variant offers)
    opening: null, // the end of one's own closed double to open with the next move
    sending: false,
    confirmResign: false,
    gone: false, // the table no longer exists
    summary: null, // the round_end event shown over the board
    lastTile: null,
    acts: {}, // seat -> words of its last draw or knock
    warned: null, // the deadline already warned about
    alerted: null, // the turn already alerted about ("round:seq")
    refocus: false, // put the focus back in the hand after a move
    pops: [], // points scored during play, shown on the board for a moment: {tile, text, until}
    botStrength: "heuristic", // the strength chosen for the next bot, kept across re-renders
  };

  // ---- the skeleton (built once; parts are refreshed on every state) ----
  const title = h("h1", { class: "table-title" }, t("table.title"));
  const subtitle = h("p", { class: "table-subtitle muted" });
  const headActions = h("div", { class: "table-actions" });
  const seatsBox = h("div", { class: "seats", "aria-label": t("table.players") });
  const turnText = h("div", { class: "turn-text", "aria-live": "polite", "data-testid": "turn" });
  const timer = h("div", { class: "timer", "data-testid": "timer" });
  const carry = h("div", { class: "carry", "data-testid": "carry" });
  const roundInfo = h("div", { class: "round-info" });
  const bazaarInfo = h("div", { class: "bazaar-info", "data-testid": "bazaar" });
  const watchers = h("div", { class: "watchers", "data-testid": "spectators" });
  const statusBar = h("div", { class: "status-bar" },
    h("div", { class: "clock" }, turnText, timer, carry),
    h("div", { class: "counts" }, roundInfo, bazaarInfo, watchers));
  const board = h("div", { class: "board", role: "group", "data-testid": "board" });
  const summaryBox = h("div", { class: "round-summary", role: "dialog", "aria-modal": "false", hidden: true, "data-testid": "round-summary" });
  const felt = h("div", { class: "felt" }, board, summaryBox);
  const prompt = h("div", { class: "prompt", "aria-live": "polite", "data-testid": "prompt" });
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("table.your_tiles"), "data-testid": "hand" });
  const mine = h("div", { class: "my-area" });
  const waiting = h("div", { class: "waiting card", hidden: true, "data-testid": "waiting" });
  const result = h("div", { class: "result card", hidden: true, "data-testid": "result" });
  const sheet = h("div", { class: "sheet-box", "data-testid": "score-sheet" });
  const log = h("ol", { class: "log", "aria-live": "polite", "data-testid": "log" });
  const chatList = h("ol", { class: "chat-list", "data-testid": "chat" });
  const chatInput = h("input", { name: "chat", maxlength: 300, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.label") });
  const chatForm = h("form", { class: "chat-form" }, chatInput, h("button", { type: "submit" }, t("chat.send")));
  const chatNote = h("p", { class: "muted chat-note", hidden: true, "data-testid": "chat-note" });

  const page = h("section", { class: "table-page", dataset: { tableId } },
    h("div", { class: "table-head" }, h("div", {}, title, subtitle), headActions),
    h("div", { class: "table-layout" },
      h("div", { class: "table-main" }, waiting, seatsBox, statusBar, felt, mine, result),
      h("div", { class: "table-side" },
        h("section", { class: "card" }, h("h2", {}, t("table.score")), sheet),
        h("section", { class: "card" }, h("h2", {}, t("table.log")), log),
        h("section", { class: "card chat" }, h("h2", {}, t("table.chat")), chatList, chatForm, chatNote))));
  root.append(page);

  const view = () => state.view;
  const name = (seat) => (state.view ? seatName(state.view, seat) : t("seat.n", { n: seat + 1 }));
  const seated = (v) => v && v.you !== null && v.you !== undefined;
  const serverNow = () => Date.now() + state.skew;
  const pausedFor = () => {
    const v = view();
    return v && v.next_round_at ? Math.max(0, v.next_round_at - serverNow()) : 0;
  };

  // The last placement of the round, remembered across a reload.
  for (const change of kept.changes) {
    for (const ev of change.events) {
      if (ev.type === "play") state.lastTile = ev.tile;
      else if (ev.type === "round_end") state.lastTile = null;
    }
  }

  // ---- log and chat ----
  function renderLog() {
    const v = view();
    if (!v) return;
    const lines = [];
    for (const change of kept.changes) {
      lines.push(...describeEvents(change.events, v).map((text) => h("li", {}, text)));
      for (const ev of change.events) {
        if (ev.type === "round_end" && Array.isArray(ev.hands)) {
          lines.push(h("li", { class: "muted" }, t("log.hands", {
            list: ev.hands.map((tiles, s) => `${name(s)} ${tiles.length ? tiles.join(" ") : "—"}`).join("; "),
          })));
        }
      }
    }
    replace(log, lines.slice(-200));
    log.scrollTop = log.scrollHeight;
  }

  function chatLine(msg) {
    return h("li", {},
      h("span", { class: "chat-time" }, clockTime(msg.at || Date.now())),
      " ", h("strong", { class: "chat-from" }, String(msg.from ?? "")), " ", h("span", { class: "chat-text" }, String(msg.text ?? "")));
  }

  function renderChat() {
    replace(chatList, kept.chat.map(chatLine));
    chatList.scrollTop = chatList.scrollHeight;
  }

  // ---- commands ----
  function send(msg) {
    socket.send({ ...msg, table_id: tableId });
  }

  // The legal moves of the way of playing chosen now: laid face down or not, opening
  // one's closed double or not (PROTOCOL §2a extra fields; plain moves for other games).
  function modeMoves() {
    const v = view();
    return ((v && v.legal) || []).filter((m) => (m.closed === true) === state.faceDown
      && (m.open ?? null) === state.opening);
  }

  function play(tile, end, extra = {}) {
    if (state.sending) return;
    const msg = { type: "play", tile, seq: state.seq, table_id: tableId, id: `play:${state.seq}` };
    if (end !== null && end !== undefined) msg.end = end;
    // A variant's extra move fields go back as the legal move listed them: those given
    // (Sea Goat's second double, "also"), else the chosen way of playing's (Donkey's
    // "closed" or "open").
    const chosen = Object.keys(extra).length ? null : modeMoves().find(
      (m) => m.tile === tile && (m.end ?? null) === (end ?? null) && !m.also);
    Object.assign(msg, chosen ? extraFields(chosen) : extra);
    state.faceDown = false;
    state.opening = null;
    if (!socket.sendNow(msg)) {
      // Never queue a move: by the time the socket is back the table has moved on.
      state.selected = null;
      render();
      prompt.replaceChildren(h("strong", { class: "refused", role: "alert" }, t("table.offline_move")));
      toast(t("table.offline_move"));
      return;
    }
    state.sending = true;
    state.selected = null;
    state.refocus = true; // the focus goes back to the hand, not to the page
    clearTitleAlert();
    render();
  }

  function chooseTile(tile) {
    const v = view();
    const options = modeMoves().filter((m) => m.tile === tile);
    if (!options.length || state.sending) return;
    if (options.length === 1) {
      play(tile, options[0].end, extraFields(options[0]));
      return;
    }
    state.selected = state.selected === tile ? null : tile;
    render();
    const first = board.querySelector(".end-choice") || prompt.querySelector("button");
    if (first && state.selected) first.focus();
  }

  /** A legal move's fields beyond its tile and end (PROTOCOL §2a), as `play` sends them. */
  function extraFields(m) {
    const { tile: _tile, end: _end, ...extra } = m;
    return extra;
  }

  /** The choices for the selected tile: one per end it fits, and one per move that lays
   * a second tile with it (Sea Goat's two doubles: "3-3 left + 4-4 right"). `onBoard`:
   * only the plain ends, which the board draws at the ends themselves. */
  function endChoices(onBoard = false) {
    const v = view();
    if (!v || !state.selected) return [];
    const ends = v.ends || {};
    const where = (end) => (ends[end] !== undefined
      ? t("table.end_showing", { end: endLabel(v, end), n: ends[end] })
      : t("table.end", { end: endLabel(v, end) }));
    return modeMoves()
      .filter((m) => m.tile === state.selected && !(onBoard && m.also))
      .map((m) => ({
        end: m.end,
        extra: extraFields(m),
        label: m.also
          ? t("table.also", { first: where(m.end), tile: m.also.map((p) => p.tile).join(", "), second: m.also.map((p) => where(p.end)).join(", ") })
          : m.end ? where(m.end) : t("table.lead"),
        short: ends[m.end] !== undefined ? num(ends[m.end]) : "▼",
      }));
  }

  async function rematch() {
    try {
      const offer = await post(`/api/tables/${encodeURIComponent(tableId)}/rematch`);
      if (offer.new_table_id) navigate(`#/table/${encodeURIComponent(offer.new_table_id)}`);
      else render();
    } catch (err) {
      toast(err.message);
    }
  }

  // ---- rendering ----
  function renderHead() {
    const v = view();
    const tb = state.table;
    const variant = (v && v.variant) || (tb && tb.variant);
    const options = (v && v.options) || (tb && tb.options) || {};
    title.textContent = variant ? variantName(variant) : t("table.title");
    setTitle(`${variant ? variantName(variant) : t("table.title")} — ${t("site.brand")}`);
    const bits = [...optionWords(variant, options)];
    if (tb) {
      bits.push(t("table.seconds_per_move", { n: tb.turn_seconds ?? 30 }), tb.rated ? t("table.rated") : t("table.casual"));
      if (tb.round_pause_seconds) bits.push(t("table.pause", { n: tb.round_pause_seconds }));
    }
    subtitle.textContent = bits.join(" · ");

    const actions = [];
    const playing = v && v.status === "playing";
    if (playing && seated(v)) {
      if (state.confirmResign) {
        actions.push(h("span", { class: "confirm", role: "group", "aria-label": t("table.confirm_resign") },
          `${t("table.resign_question")} `,
          h("button", { type: "button", class: "danger", "data-testid": "resign-yes", onclick: () => {
            state.confirmResign = false;
            send({ type: "resign" });
            render();
          } }, t("table.resign_yes")),
          h("button", { type: "button", onclick: () => {
            state.confirmResign = false;
            render();
          } }, t("table.keep_playing"))));
      } else {
        actions.push(h("button", { type: "button", class: "danger-outline", "data-testid": "resign", onclick: () => {
          state.confirmResign = true;
          render();
          const yes = headActions.querySelector("[data-testid=resign-yes]");
          if (yes) yes.focus();
        } }, t("table.resign")));
      }
    } else if (!playing && !(v && v.status === "finished") && tb && mySeatInTable() !== null) {
      actions.push(h("button", { type: "button", onclick: leave }, t("table.leave")));
    }
    if (canAskNotifications() && (seated(v) || mySeatInTable() !== null)) {
      actions.push(h("button", { type: "button", class: "link-button", "data-testid": "notify", onclick: async () => {
        await askNotifications();
        render();
      } }, t("table.enable_notifications")));
    }
    if (v && !seated(v) && v.status !== "waiting") actions.push(pill(t("table.watching"), "watching"));
    replace(headActions, actions);
  }

  function mySeatInTable() {
    const me = auth.player;
    const tb = state.table;
    if (!me || !tb) return null;
    const seat = (tb.seats || []).find((x) => x.player === me.name);
    return seat ? seat.seat : null;
  }

  async function leave() {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/leave`);
      navigate("#/lobby");
    } catch (err) {
      toast(err.message);
    }
  }

  async function join() {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/join`, {});
      await refreshTable();
    } catch (err) {
      toast(t("lobby.join_failed", { reason: err.message }));
    }
  }

  async function addBot(strength) {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/bots`, { strength });
      await refreshTable();
    } catch (err) {
      toast(t("bot.add_failed", { reason: err.message }));
    }
  }

  function botControls() {
    // The waiting box is rebuilt whenever the table changes (a join, a presence), so the
    // choice lives in the state, not in the select that shows it.
    const strength = h("select", {
      name: "strength", "data-testid": "bot-strength",
      onchange: (ev) => { state.botStrength = ev.target.value; },
    },
      ["random", "heuristic", "strong"].map(
        (value) => h("option", { value, selected: value === state.botStrength }, t(`bot.${value}`))));
    return h("div", { class: "form-row add-bot" },
      h("label", {}, t("bot.label"), strength),
      h("button", { type: "button", "data-testid": "add-bot", onclick: () => addBot(state.botStrength) },
        t("bot.add")));
  }

  function inviteBox() {
    const link = `${location.origin}${location.pathname}#/table/${encodeURIComponent(tableId)}`;
    const field = h("input", { readonly: true, value: link, class: "invite-link", "aria-label": t("invite.link"), "data-testid": "invite-link" });
    const copied = h("span", { class: "muted", role: "status" });
    const copy = h("button", { type: "button", "data-testid": "copy-invite", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        field.select();
        document.execCommand("copy");
      }
      copied.textContent = t("invite.copied");
    } }, t("invite.copy"));
    return h("div", { class: "invite" }, h("p", {}, t("invite.text")), h("div", { class: "invite-row" }, field, copy), copied);
  }

  function renderGone() {
    waiting.hidden = false;
    for (const el of [seatsBox, statusBar, felt, mine, result]) el.hidden = true;
    replace(waiting,
      h("h2", {}, t("table.gone")),
      h("p", {}, t("table.gone_text")),
      h("p", {}, h("a", { href: "#/lobby", class: "button primary", "data-testid": "to-lobby" }, t("table.back_to_lobby"))));
    replace(headActions);
    clearTitleAlert();
  }

  function renderWaiting() {
    const v = view();
    const tb = state.table;
    const isWaiting = !v || !v.seats || v.status === "waiting";
    waiting.hidden = !isWaiting;
    for (const el of [seatsBox, statusBar, felt, mine]) el.hidden = isWaiting;
    if (!isWaiting) return;
    const seats = (tb && tb.seats) || (v && v.seats) || [];
    const free = seats.filter((x) => !x.player).length;
    const isSeated = mySeatInTable() !== null;
    replace(waiting,
      h("h2", {}, free ? t("table.waiting_for", { n: free }) : t("table.starting")),
      h("ul", { class: "seat-list" }, seats.map((x) => h("li", { class: x.player ? "taken" : "free" },
        `${num(x.seat + 1)}. ${x.player || t("lobby.free_seat")}`))),
      !isSeated && free && auth.signedIn
        ? h("button", { type: "button", class: "primary", onclick: join }, t("table.join")) : null,
      isSeated && free ? (tb && tb.rated
        ? h("p", { class: "muted", "data-testid": "bots-casual-only" }, t("bot.casual_only"))
        : botControls()) : null,
      // Signing in or up from here (an invite) comes back to this table.
      !auth.signedIn ? h("p", {}, h("a", {
        href: "#/signin", "data-testid": "signin-to-join",
        onclick: () => sessionStorage.setItem("domino.next", `#/table/${encodeURIComponent(tableId)}`),
      }, t("nav.sign_in")), ` ${t("table.to_take_seat")}`) : null,
      free ? inviteBox() : null,
      h("p", { class: "muted" }, t("table.starts_by_itself")));
  }

  function seatCard(seat, v) {
    const isTurn = v.status === "playing" && v.turn === seat.seat && !v.next_round_at;
    const isYou = v.you === seat.seat;
    const count = seat.tiles ?? 0;
    const backs = [];
    for (let i = 0; i < Math.min(count, 7); i++) backs.push(tileBack());
    const connected = seat.connected !== false;
    const act = state.acts[seat.seat];
    return h("div", {
      class: `seat-card ${isTurn ? "turn" : ""} ${isYou ? "you" : ""} ${connected ? "" : "offline"}`,
      dataset: { seat: String(seat.seat), connected: connected ? "true" : "false" }, "data-testid": `seat-${seat.seat}`,
    },
      h("div", { class: "seat-name" },
        h("span", { class: `dot ${connected ? "online" : "offline"}`, title: connected ? t("seat.connected") : t("seat.disconnected"),
          "aria-label": connected ? t("seat.connected") : t("seat.disconnected"), role: "img" }),
        h("span", { class: "name", title: seat.player || "" }, seat.player || t("seat.n", { n: seat.seat + 1 })),
        isYou ? h("span", { class: "you-tag" }, ` ${t("seat.you")}`) : null,
        seat.team !== undefined && seat.team !== null ? h("span", { class: "pill team" }, t("seat.team", { team: teamLetter(seat.team) })) : null),
      h("div", { class: "seat-tiles", title: t("seat.tiles", { n: count }) }, h("span", { class: "backs" }, backs),
        h("span", { class: "tile-count", "data-testid": "tile-count" }, t("seat.tiles", { n: count })),
        act ? h("span", { class: "seat-act", "data-testid": "seat-act" }, act) : null),
      h("div", { class: "seat-score" }, seatStanding(v, seat)));
  }

  function renderSeats() {
    const v = view();
    const seats = v.seats || [];
    // Clockwise from the seat after yours, so you sit at the bottom.
    const start = seated(v) ? v.you + 1 : 0;
    const ordered = [];
    for (let i = 0; i < seats.length; i++) ordered.push(seats[(start + i) % seats.length]);
    const others = seated(v) ? ordered.filter((x) => x.seat !== v.you) : ordered;
    replace(seatsBox, others.map((x) => seatCard(x, v)));
  }

  function renderStatus() {
    const v = view();
    if (v.status === "finished") turnText.textContent = t("table.game_over");
    else if (v.next_round_at) turnText.textContent = t("table.next_round_in", { n: Math.ceil(pausedFor() / 1000) });
    else if (v.turn === null || v.turn === undefined) turnText.textContent = "";
    else if (v.turn === v.you) turnText.replaceChildren(h("strong", { class: "your-turn" }, t("table.your_turn")));
    else turnText.textContent = t("table.their_turn", { name: name(v.turn) });
    tick();
    if (v.carry > 0) replace(carry, fishIcon(), h("span", {}, signedNum(v.carry)));
    else carry.replaceChildren();
    carry.title = v.carry > 0 ? t("table.carry", { n: v.carry }) : "";
    // Variants that score during play show the count of the open ends.
    roundInfo.textContent = typeof v.count === "number"
      ? t("table.round_count", { n: (v.round ?? 0) + 1, count: v.count })
      : t("table.round", { n: (v.round ?? 0) + 1 });
    const tally = generalsTally(v);
    if (tally) replace(bazaarInfo, tally);
    else replace(bazaarInfo, tileBack({ cls: "mini" }), ` ${t("table.bazaar", { n: v.bazaar ?? 0 })}`);
    watchers.textContent = v.spectators > 0 ? t("table.spectators", { n: v.spectators }) : "";
  }

  function tick() {
    const v = view();
    if (v && v.next_round_at) {
      const left = pausedFor();
      turnText.textContent = t("table.next_round_in", { n: Math.ceil(left / 1000) });
      const countdown = summaryBox.querySelector("[data-testid=next-round]");
      if (countdown) countdown.textContent = t("table.next_round_in", { n: Math.ceil(left / 1000) });
    }
    if (!v || v.status !== "playing" || !v.deadline) {
      timer.textContent = "";
      timer.classList.remove("low");
      return;
    }
    // The deadline is on the server's clock; state.skew corrects for this machine's.
    const left = v.deadline - serverNow();
    timer.textContent = duration(left);
    const low = left < WARN_MS;
    timer.classList.toggle("low", low);
    if (low && left > 0 && v.turn === v.you && state.warned !== v.deadline) {
      state.warned = v.deadline;
      sound("warning");
      toast(t("alert.time_low", { n: Math.ceil(left / 1000) }), "warning");
    }
  }

  function renderBoard() {
    const v = view();
    const choices = endChoices(true);
    renderLayout(board, v.chain, { choices, onChoose: (end) => play(state.selected, end), ends: v.ends, view: v, last: state.lastTile });
    renderPops();
  }

  // "+15" where it happened: over the tile whose placement scored.
  function renderPops() {
    const now = Date.now();
    state.pops = state.pops.filter((p) => p.until > now);
    for (const p of state.pops) {
      const tile = board.querySelector(`.chain-tile[data-tile="${CSS.escape(p.tile)}"]`);
      if (!tile) continue;
      const box = board.getBoundingClientRect();
      const at = tile.getBoundingClientRect();
      // Kept inside the board, whose edges clip.
      const x = Math.min(Math.max(at.left - box.left + at.width / 2, 28), box.width - 28);
      const y = Math.max(at.top - box.top, 30);
      board.append(h("span", {
        class: "score-pop", "data-testid": "score-pop", role: "status", style: `left: ${x}px; top: ${y}px`,
      }, p.text));
    }
  }

  function notePops(events) {
    let tile = null;
    for (const ev of events) {
      if (ev.type === "play") tile = ev.tile;
      if (ev.type === "score" && tile) {
        state.pops.push({ tile, text: signedNum(ev.points), until: Date.now() + 2500 });
        setTimeout(() => view() && renderBoard(), 2600);
      }
    }
  }

  function renderHand() {
    const v = view();
    const focusedTile = hand.contains(document.activeElement) ? document.activeElement.dataset.tile : null;
    if (!seated(v)) {
      replace(mine, h("p", { class: "muted spectator-note" }, t("table.you_watch")));
      return;
    }
    const mySeat = (v.seats || []).find((x) => x.seat === v.you);
    const myTurn = v.status === "playing" && v.turn === v.you && !v.next_round_at;
    const legalTiles = new Set(modeMoves().map((m) => m.tile));
    // Tiles that may go down with a second double this turn (Sea Goat, RULES §7).
    const pairTiles = new Set(modeMoves().filter((m) => m.also).map((m) => m.tile));
    const moveExtras = myTurn ? extraControls(v) : null;
    const buttons = (v.hand || []).map((tile, i) => {
      const tl = parseTile(tile) || [0, 0];
      const legal = myTurn && legalTiles.has(tile) && !state.sending;
      // Not `disabled`: a disabled button cannot hold the focus, and after a move the
      // focus stays in the hand.
      return h("button", {
        type: "button",
        class: `hand-tile ${legal ? "legal" : ""} ${legal && pairTiles.has(tile) ? "with-double" : ""} ${state.selected === tile ? "selected" : ""}`,
        dataset: { tile }, "aria-disabled": legal ? "false" : "true", "aria-pressed": state.selected === tile ? "true" : "false",
        "aria-label": `${i < 9 ? `${num(i + 1)}: ` : ""}${tile}${legal ? `, ${t("table.playable")}` : ""}${legal && pairTiles.has(tile) ? `, ${t("table.with_double")}` : ""}`,
        "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
        onclick: () => chooseTile(tile),
      }, tileSvg(tl[0], tl[1]));
    });
    replace(hand, buttons.length ? buttons : h("p", { class: "muted" }, v.status === "playing" ? t("table.no_tiles") : ""));

    const choices = endChoices();
    if (choices.length) {
      replace(prompt, t("table.play_on", { tile: state.selected }),
        choices.map((c) => h("button", { type: "button", class: `end-button ${c.extra.also ? "also-button" : ""}`, dataset: { end: c.end ?? "" },
          onclick: () => play(state.selected, c.end, c.extra) }, c.label)),
        h("button", { type: "button", class: "link-button", onclick: () => {
          state.selected = null;
          render();
        } }, t("table.cancel")));
    } else if (myTurn && !legalTiles.size && (v.legal || []).some((m) => m.open)) {
      // Every tile that fits needs one's own closed double opened first (Donkey): the
      // server will not move for him, so say which button to press.
      prompt.textContent = t("table.open_to_play");
    } else if (myTurn && !legalTiles.size) prompt.textContent = t("table.no_move");
    else if (myTurn) prompt.textContent = (v.chain || []).length ? t("table.choose_tile") : t("table.choose_lead");
    else if (!socket.connected && v.status === "playing") prompt.textContent = t("table.offline");
    else prompt.textContent = "";

    const card = mySeat ? seatCard(mySeat, v) : null;
    replace(mine, card, prompt, moveExtras, hand, h("p", { class: "muted keys-hint" }, t("table.keys_hint")));
    if ((focusedTile !== null && focusedTile !== undefined) || state.refocus) {
      const again = focusedTile ? hand.querySelector(`[data-tile="${CSS.escape(focusedTile)}"]`) : null;
      const target = again || hand.querySelector(".hand-tile.legal") || hand.querySelector(".hand-tile");
      if (target) {
        target.focus();
        state.refocus = false;
      }
    }
  }

  // Toggles for the extra fields the legal moves carry: lay a double face down; open
  // one of one's own closed doubles (Donkey, RULES §8).
  function extraControls(v) {
    const legal = v.legal || [];
    const toggles = [];
    const toggle = (on, words, testid, flip) => h("button", {
      type: "button", class: `toggle-button ${on ? "on" : ""}`, "aria-pressed": on ? "true" : "false",
      "data-testid": testid, onclick: () => {
        flip();
        state.selected = null;
        render();
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

  function summaryRows(v, s) {
    const end = s.end || {};
    const goat = keepsRemembered(v);
    return sides(v).map((c) => {
      const first = c.seats[0];
      const points = c.seats.reduce((sum, seat) => sum + ((end.points || [])[seat] ?? 0), 0);
      const credited = (end.credited || [])[first];
      const score = (s.scores || [])[first];
      const standing = goat
        ? standingCell({ account: score || 0, opened: (score || 0) > 0, remembered: (s.remembered || [])[first] || 0 })
        : h("span", { class: "total" }, num(score ?? 0));
      return h("tr", { class: c.seats.includes(end.by) ? "by" : "" },
        h("th", { scope: "row" }, c.label),
        h("td", { class: "summary-hand" }, c.seats.map((seat) => h("span", { class: "seat-hand", dataset: { seat: String(seat) } },
          ((s.hands || [])[seat] || []).map((tile) => {
            const tl = parseTile(tile) || [0, 0];
            return h("span", { class: "mini-tile", title: tile }, tileSvg(tl[0], tl[1]));
          })))),
        h("td", { class: "num" }, num(points)),
        h("td", { class: "num" }, credited === undefined ? "" : num(credited)),
        h("td", { class: "num" }, standing));
    });
  }

  /** Hands the round counted otherwise than by their pips (RULES §7's special hands: only
   * 0-0 = 25, only 6-6 = 50, both = 75; Goat's lone 0-0 = 10), told in words. The
   * numbers are the server's (`end.points`); only the explanation is the client's. */
  function specialHandNotes(v, s) {
    const end = s.end || {};
    const notes = [];
    (s.hands || []).forEach((tiles, seat) => {
      const points = (end.points || [])[seat];
      if (points === undefined || !tiles.length) return;
      const pips = tiles.reduce((sum, tile) => sum + (parseTile(tile) || [0, 0]).reduce((a, b) => a + b, 0), 0);
      if (points === pips) return;
      const key = points === 0 ? "summary.burned" // Team Goat: the partner went out
        : tiles.length === 1 && tiles[0] === "0-0" ? "summary.special_zero"
        : tiles.length === 1 && tiles[0] === "6-6" ? "summary.special_six"
          : tiles.length === 2 && tiles.includes("0-0") && tiles.includes("6-6") ? "summary.special_both"
            : "summary.special_other";
      notes.push(h("p", { class: "special-note", "data-testid": "special-hand" }, t(key, { name: name(seat), n: points, tiles: tiles.join(" ") })));
    });
    return notes;
  }

  /** General (RULES §12): whether the round made a General, and the tally. */
  function generalNotes(v, s) {
    if (!Array.isArray(v.generals)) return [];
    const end = s.end || {};
    const credited = end.credited || [];
    const team = credited.findIndex((c) => c > 0);
    const line = team >= 0
      ? t("summary.general", { name: name(end.by), team: teamLetter(team % 2) })
      : end.kind === "fish" ? t("summary.general_fish") : t("summary.no_general");
    return [h("p", { class: "general-note", "data-testid": "general-note" }, line)];
  }

  /** The Generals per team, for the table's status line (RULES §12). */
  function generalsTally(v) {
    if (!Array.isArray(v.generals)) return null;
    return h("span", { class: "generals-tally", "data-testid": "generals-tally" },
      t("table.generals", { a: num(v.generals[0] ?? 0), b: num(v.generals[1] ?? 0) }));
  }

  function renderSummary() {
    const v = view();
    const s = state.summary;
    if (!s || !v) {
      summaryBox.hidden = true;
      return;
    }
    summaryBox.hidden = false;
    const end = s.end || {};
    const fishRule = end.kind === "fish" ? (v.options || {}).fish_rule : null;
    const notes = [];
    if (s.carry > 0) notes.push(h("p", { class: "carry-note" }, fishIcon(), ` ${t("summary.carry", { n: s.carry })}`));
    notes.push(...specialHandNotes(v, s), ...generalNotes(v, s));
    if (keepsRemembered(v)) notes.push(h("p", { class: "muted" }, t("summary.remember_rule")));
    replace(summaryBox,
      h("h2", {}, t("summary.title", { n: (s.round ?? 0) + 1 })),
      h("p", { class: "summary-why" }, roundEndWords(v, end, fishRule)),
      h("div", { class: "summary-scroll" }, h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, [t("summary.player"), t("summary.hand"), t("summary.points"), t("summary.credited"), t("summary.standing")]
          .map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, summaryRows(v, s)))),
      notes,
      h("div", { class: "summary-foot" },
        v.next_round_at ? h("strong", { "data-testid": "next-round" }, t("table.next_round_in", { n: Math.ceil(pausedFor() / 1000) })) : null,
        h("button", { type: "button", "data-testid": "close-summary", onclick: () => {
          state.summary = null;
          render();
          (hand.querySelector(".hand-tile") || main()).focus();
        } }, v.status === "finished" ? t("summary.see_result") : t("summary.close"))));
  }

  function main() {
    return document.getElementById("main");
  }

  function renderResult() {
    const v = view();
    const r = v.result;
    if (!r) {
      result.hidden = true;
      return;
    }
    result.hidden = false;
    const losers = r.losers || [];
    const headline = r.reason === "goat"
      ? h("h2", { class: "goat-line" }, goatIcon("big"), resultWords(v, r))
      : h("h2", { "data-testid": "result-headline" }, resultWords(v, r));
    const rated = (state.table ? state.table.rated : true) && !r.unrated_reason;
    const rows = (v.seats || []).map((seat) => {
      const i = seat.seat;
      const gain = (r.rating || [])[i];
      const final = (r.final || [])[i];
      const lost = losers.includes(i);
      return h("tr", { class: lost ? "loser" : "winner" },
        h("th", { scope: "row" }, name(i), lost && r.reason === "goat" ? goatIcon("small") : null),
        h("td", {}, final === undefined ? "" : num(final)),
        rated ? h("td", { class: "gain", "data-testid": `gain-${i}` }, gain === undefined ? "" : signedNum(gain)) : null);
    });
    const offer = v.rematch || { offers: [], new_table_id: null };
    const offered = seated(v) && (offer.offers || []).includes(v.you);
    const rematchPart = [];
    if (offer.new_table_id) {
      rematchPart.push(h("a", { href: `#/table/${encodeURIComponent(offer.new_table_id)}`, class: "button primary", "data-testid": "rematch-go" }, t("rematch.go")));
    } else if (seated(v)) {
      rematchPart.push(h("button", { type: "button", class: "primary", "data-testid": "rematch", disabled: offered, onclick: rematch },
        offered ? t("rematch.offered") : (offer.offers || []).length ? t("rematch.accept") : t("rematch.offer")));
    }
    if (!offer.new_table_id && (offer.offers || []).length) {
      const waitingFor = (v.seats || []).map((x) => x.seat).filter((x) => !(offer.offers || []).includes(x));
      rematchPart.push(h("span", { class: "muted", "data-testid": "rematch-status" },
        t("rematch.waiting", { names: list(waitingFor.map(name)) })));
    }
    replace(result, headline,
      h("table", { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.player")), h("th", { scope: "col" }, t("result.score")),
          rated ? h("th", { scope: "col" }, t("result.rating_gain")) : null)),
        h("tbody", {}, rows)),
      rated ? null : h("p", { class: "muted", "data-testid": "unrated" },
        t(r.unrated_reason ? `result.unrated_${r.unrated_reason}` : "result.casual")),
      h("p", { class: "result-links" }, rematchPart,
        h("a", { href: "#/lobby", class: "button" }, t("table.back_to_lobby")),
        v.game_id ? h("a", { href: `#/replay/${encodeURIComponent(v.game_id)}`, class: "button" }, t("result.replay")) : null,
        v.seed ? h("span", { class: "muted seed", title: t("result.seed_title") }, ` ${t("result.seed")} ${String(v.seed).slice(0, 12)}…`) : null));
  }

  function renderChatBox() {
    const v = view();
    // Only the players seated at the table may chat; watchers read along.
    const canChat = seated(v) || mySeatInTable() !== null;
    chatForm.hidden = !canChat;
    chatNote.hidden = canChat;
    chatNote.textContent = auth.signedIn ? t("chat.players_only") : t("chat.sign_in");
  }

  function render() {
    if (state.gone) {
      renderGone();
      return;
    }
    renderHead();
    renderWaiting();
    renderChatBox();
    const v = view();
    if (!v || !v.seats || v.status === "waiting") {
      replace(sheet, h("p", { class: "muted" }, t("table.no_rounds")));
      return;
    }
    renderSeats();
    renderStatus();
    renderBoard();
    renderSummary();
    renderHand();
    renderResult();
    const sheetReady = (v.history || []).length || v.rounds_total;
    replace(sheet, sheetReady ? scoreSheet(v) : h("p", { class: "muted" }, t("table.no_rounds_finished")));
  }

  async function refreshTable() {
    try {
      state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
    } catch (err) {
      if (err.status === 404) {
        state.gone = true;
      }
    }
    render();
  }

  // ---- what the events mean for the player ----
  function noteEvents(events, v, before) {
    for (const ev of events) {
      if (ev.type === "play") {
        state.lastTile = ev.tile;
        delete state.acts[ev.seat];
      } else if (ev.type === "draw") {
        state.acts[ev.seat] = t("seat.drew", { n: ev.count ?? 1 });
      } else if (ev.type === "knock") {
        state.acts[ev.seat] = state.acts[ev.seat] ? `${state.acts[ev.seat]}, ${t("seat.knocked")}` : t("seat.knocked");
      } else if (ev.type === "round_end") {
        state.summary = { ...ev, points: (ev.end || {}).points };
        state.lastTile = null;
        state.acts = {};
      } else if (ev.type === "round_resume" || ev.type === "round_start") {
        if (ev.type === "round_resume" || !v.next_round_at) {
          if (state.summary && v.status === "playing" && !v.next_round_at) state.summary = null;
        }
      }
    }
    if (before && before.status === "waiting" && v.status === "playing" && seated(v)) {
      alertPlayer("start", t("alert.game_started"), t("alert.game_started_body", { game: variantName(v.variant) }));
    }
    if (v.status === "playing" && !v.next_round_at && v.turn === v.you && seated(v)) {
      const key = `${v.round}:${v.deadline}`;
      if (state.alerted !== key) {
        state.alerted = key;
        alertPlayer("turn", t("alert.your_turn"), t("alert.your_turn_body", { game: variantName(v.variant) }));
      }
    } else clearTitleAlert();
  }

  // ---- messages ----
  function onState(msg) {
    if (msg.table_id !== tableId) return;
    const seq = msg.seq;
    if (state.seq !== null && typeof seq === "number") {
      if (seq < state.seq) return; // an old message that arrived late
      if (seq > state.seq + 1) socket.send({ type: "table.subscribe", table_id: tableId }); // a gap
    }
    if (typeof msg.server_time === "number") state.skew = msg.server_time - Date.now();
    const fresh = state.seq === null || seq > state.seq;
    const before = state.view;
    state.seq = seq;
    state.gone = false;
    page.dataset.seq = String(seq); // lets tests (and curious players) see the table's version
    state.view = msg.view || null;
    state.sending = false;
    const v = state.view;
    if (state.faceDown && !(v && (v.legal || []).some((m) => m.closed === true))) state.faceDown = false;
    if (state.opening && !(v && (v.legal || []).some((m) => m.open === state.opening))) state.opening = null;
    if (state.selected && !modeMoves().some((m) => m.tile === state.selected)) state.selected = null;
    if (fresh && Array.isArray(msg.events) && msg.events.length && v) {
      kept.addChange(seq, msg.events);
      noteEvents(msg.events, v, before);
      if (before) notePops(msg.events);
      renderLog();
    } else if (v) {
      if (!before) {
        renderLog();
        // A reload during the pause: the last round's summary, with its hands if this tab
        // kept the round's end, else from the history.
        const last = (v.history || [])[v.history.length - 1];
        if (v.next_round_at && last) {
          const ended = kept.changes.flatMap((c) => c.events).filter((ev) => ev.type === "round_end" && ev.round === last.round);
          state.summary = ended.length ? ended[ended.length - 1] : {
            round: last.round, end: { kind: last.end, by: last.by, points: last.points, credited: last.credited },
            scores: last.scores, remembered: last.remembered, carry: last.carry, hands: [],
          };
        }
      }
      noteEvents([], v, before);
    }
    if (!v || v.status === "waiting" || !state.table || (before && before.status !== v.status)) refreshTable();
    render();
  }

  function onPresence(msg) {
    if (msg.table_id !== tableId || !state.view) return;
    const connected = new Map((msg.seats || []).map((x) => [x.seat, x.connected]));
    state.view = {
      ...state.view,
      seats: (state.view.seats || []).map((x) => (connected.has(x.seat) ? { ...x, connected: connected.get(x.seat) } : x)),
      spectators: typeof msg.spectators === "number" ? msg.spectators : state.view.spectators,
    };
    render();
  }

  function onChat(msg) {
    if (msg.table_id !== tableId) return;
    kept.addChat(msg);
    chatList.append(chatLine(msg));
    while (chatList.children.length > KEPT_CHAT) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  function onError(msg) {
    const mineId = typeof msg.id === "string" && (msg.id === `sub:${tableId}` || msg.id.startsWith("play:"));
    state.sending = false;
    if (msg.code === "not_found" && mineId) {
      state.gone = true;
      render();
      return;
    }
    if (msg.code === "stale") {
      // Our view was out of date: fetch the current one and let the player choose again.
      subscribe();
      toast(t("table.stale"), "info");
    } else {
      toast(msg.message || t(`error.${msg.code}`));
    }
    if (view()) render();
  }

  function subscribe() {
    socket.send({ type: "table.subscribe", table_id: tableId, id: `sub:${tableId}` });
  }

  chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    send({ type: "chat", text: text.slice(0, 300) });
    chatInput.value = "";
  });

  const onKey = (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.target instanceof HTMLTextAreaElement) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tiles = [...hand.querySelectorAll(".hand-tile")];
    if (ev.key === "Escape") {
      if (state.selected) {
        state.selected = null;
        render();
      } else if (state.summary) {
        state.summary = null;
        render();
      } else return;
    } else if (/^[1-9]$/.test(ev.key) && tiles[Number(ev.key) - 1]) {
      // 1-9: choose the n-th tile of the hand.
      tiles[Number(ev.key) - 1].focus();
      chooseTile(tiles[Number(ev.key) - 1].dataset.tile);
    } else if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && hand.contains(document.activeElement)) {
      // The hand is laid out left to right in every language, so the arrows follow it.
      const forward = ev.key === "ArrowRight";
      const at = tiles.indexOf(document.activeElement);
      const next = tiles[(at + (forward ? 1 : -1) + tiles.length) % tiles.length];
      if (next) next.focus();
    } else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  const onRematch = (msg) => {
    if (msg.table_id === tableId && msg.new_table_id) {
      toast(t("rematch.started"), "info");
      navigate(`#/table/${encodeURIComponent(msg.new_table_id)}`);
    }
  };
  const onRemoved = (msg) => {
    if (msg.table_id === tableId) {
      state.gone = true;
      render();
    }
  };
  const onConnection = () => {
    if (view()) render();
  };

  const offs = [
    socket.on("table.state", onState),
    socket.on("table.presence", onPresence),
    socket.on("table.rematch", onRematch),
    socket.on("table.removed", onRemoved),
    socket.on("chat", onChat),
    socket.on("error", onError),
    socket.on("connection", onConnection),
    socket.onOpen(subscribe),
  ];
  const clock = setInterval(tick, 250);
  let lastWidth = 0;
  const resize = new ResizeObserver(() => {
    const w = board.clientWidth;
    if (w !== lastWidth && view() && view().seats) {
      lastWidth = w;
      renderBoard();
    }
  });
  resize.observe(board);
  renderChat();
  refreshTable();
  render();

  return () => {
    socket.sendIfOpen({ type: "table.unsubscribe", table_id: tableId });
    offs.forEach((off) => off());
    clearInterval(clock);
    resize.disconnect();
    document.removeEventListener("keydown", onKey);
    clearTitleAlert();
  };
}
