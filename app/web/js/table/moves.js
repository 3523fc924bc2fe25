// Choosing and sending a move: the legal moves of the way of playing chosen now, the
// ends a selected tile may go to, and the `play` message (PROTOCOL §2a).

import { clearTitleAlert } from "../alerts.js";
import { num, t, tileName } from "../i18n.js";
import { socket } from "../socket.js";
import { toast } from "../ui.js";
import { endLabel } from "../words.js";

// The legal moves of the way of playing chosen now: laid face down or not, opening
// one's closed double or not (PROTOCOL §2a extra fields; plain moves for other games).
export function modeMoves(ctx) {
  const v = ctx.view();
  const { state } = ctx;
  return ((v && v.legal) || []).filter((m) => (m.closed === true) === state.faceDown
    && (m.open ?? null) === state.opening);
}

/** A legal move's fields beyond its tile and end (PROTOCOL §2a), as `play` sends them. */
export function extraFields(m) {
  const { tile: _tile, end: _end, ...extra } = m;
  return extra;
}

export function play(ctx, tile, end, extra = {}) {
  const { state, tableId } = ctx;
  if (state.sending) return;
  const msg = { type: "play", tile, seq: state.seq, table_id: tableId, id: `play:${state.seq}` };
  if (end !== null && end !== undefined) msg.end = end;
  // A variant's extra move fields go back as the legal move listed them: those given
  // (Sea Goat's second double, "also"), else the chosen way of playing's (Donkey's
  // "closed" or "open").
  const chosen = Object.keys(extra).length ? null : modeMoves(ctx).find(
    (m) => m.tile === tile && (m.end ?? null) === (end ?? null) && !m.also);
  Object.assign(msg, chosen ? extraFields(chosen) : extra);
  state.faceDown = false;
  state.opening = null;
  if (!socket.sendNow(msg)) {
    // Never queue a move: by the time the socket is back the table has moved on.
    // Said in the prompt until the next state or move: the redraws while the socket tries
    // to come back keep it.
    state.selected = null;
    state.notSent = true;
    ctx.render();
    toast(t("table.offline_move"));
    return;
  }
  state.sending = true;
  state.notSent = false;
  state.selected = null;
  state.refocus = true; // the focus goes back to the hand, not to the page
  clearTitleAlert();
  ctx.render();
}

export function chooseTile(ctx, tile) {
  const { state, el } = ctx;
  const options = modeMoves(ctx).filter((m) => m.tile === tile);
  if (!options.length || state.sending) return;
  if (options.length === 1) {
    play(ctx, tile, options[0].end, extraFields(options[0]));
    return;
  }
  state.selected = state.selected === tile ? null : tile;
  ctx.render();
  const first = el.board.querySelector(".end-choice") || el.prompt.querySelector("button");
  if (first && state.selected) first.focus();
}

/** The choices for the selected tile: one per end it fits, and one per move that lays
 * a second tile with it (Sea Goat's two doubles: "3-3 left + 4-4 right"). `onBoard`:
 * only the plain ends, which the board draws at the ends themselves. */
export function endChoices(ctx, onBoard = false) {
  const v = ctx.view();
  const { state } = ctx;
  if (!v || !state.selected) return [];
  const ends = v.ends || {};
  const where = (end) => (ends[end] !== undefined
    ? t("table.end_showing", { end: endLabel(v, end), n: ends[end] })
    : t("table.end", { end: endLabel(v, end) }));
  return modeMoves(ctx)
    .filter((m) => m.tile === state.selected && !(onBoard && m.also))
    .map((m) => ({
      end: m.end,
      extra: extraFields(m),
      label: m.also
        ? t("table.also", { first: where(m.end), tile: m.also.map((p) => tileName(p.tile)).join(", "), second: m.also.map((p) => where(p.end)).join(", ") })
        : m.end ? where(m.end) : t("table.lead"),
      short: ends[m.end] !== undefined ? num(ends[m.end]) : "▼",
    }));
}
