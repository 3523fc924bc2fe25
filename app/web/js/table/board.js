// The felt: the layout the server names (`view.layout`) with the end buttons of the
// selected tile, and the points scored during play popping up where they were made.

import { renderLayout } from "../board.js";
import { h } from "../dom.js";
import { signedNum } from "../i18n.js";
import { endChoices, play } from "./moves.js";

export function renderBoard(ctx) {
  const { state } = ctx;
  const v = ctx.view();
  const choices = endChoices(ctx, true);
  renderLayout(ctx.el.board, v.layout, v.chain, {
    choices, onChoose: (end) => play(ctx, state.selected, end), ends: v.ends, view: v, last: state.lastTile,
  });
  renderPops(ctx);
}

// "+15" where it happened: over the tile whose placement scored.
function renderPops(ctx) {
  const { state } = ctx;
  const board = ctx.el.board;
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
