// The felt: the layout the server names (`view.layout`) with the end buttons of the
// selected tile, and the points scored during play popping up where they were made.

import { renderLayout } from "../board.js";
import { h, widthOf } from "../dom.js";
import { signedNum } from "../i18n.js";
import { endChoices, play } from "./moves.js";

// What each board element was last drawn from. A board is drawn again only when what it
// shows changes: a presence (a socket coming to the table) or a chat line leaves it as it
// is, so an end button pressed on it is still the same button when it is released (drawn
// anew in between, the click was lost and the move never sent).
const drawn = new WeakMap();

export function renderBoard(ctx) {
  const { state } = ctx;
  const v = ctx.view();
  const board = ctx.el.board;
  const choices = endChoices(ctx, true);
  const now = Date.now();
  state.pops = state.pops.filter((p) => p.until > now);
  const key = JSON.stringify([v.layout, v.chain, v.ends, v.you, v.markers, v.open_double, v.legal,
    (v.seats || []).map(({ connected, ...seat }) => seat), choices, state.lastTile,
    state.pops.map((p) => [p.tile, p.text]), widthOf(board), document.documentElement.lang]);
  if (drawn.get(board) === key) return;
  drawn.set(board, key);
  renderLayout(board, v.layout, v.chain, {
    choices, onChoose: (end) => play(ctx, state.selected, end), ends: v.ends, view: v, last: state.lastTile,
  });
  renderPops(ctx);
}

// "+15" where it happened: over the tile whose placement scored.
function renderPops(ctx) {
  const { state } = ctx;
  const board = ctx.el.board;
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

export function notePops(ctx, events) {
  let tile = null;
  for (const ev of events) {
    if (ev.type === "play") tile = ev.tile;
    if (ev.type === "score" && tile) {
      ctx.state.pops.push({ tile, text: signedNum(ev.points), until: Date.now() + 2500 });
      setTimeout(() => ctx.view() && renderBoard(ctx), 2600);
    }
  }
}
