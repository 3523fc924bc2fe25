// The line of play, laid out as a snake: rows alternate direction so the line
// bends to fit any width. Items are {tile, left, right} in layout order (left to
// right); other shapes are normalised as well as possible.

import { h, widthOf } from "./dom.js";
import { t, tileName } from "./i18n.js";
import { parseTile, tileSvg } from "./tiles.js";

/** Normalise the engine's chain into [{tile, left, right, double}]. */
export function normaliseChain(chain) {
  const out = [];
  if (!Array.isArray(chain)) return out;
  for (const item of chain) {
    let tile = null, left = null, right = null;
    if (typeof item === "string") tile = item;
    else if (Array.isArray(item) && item.length === 2) [left, right] = item.map(Number);
    else if (item && typeof item === "object") {
      tile = item.tile ?? null;
      left = item.left ?? item.a ?? null;
      right = item.right ?? item.b ?? null;
    }
    const parsed = tile ? parseTile(tile) : null;
    if ((left === null || right === null) && parsed) [left, right] = parsed;
    if (left === null || right === null) continue;
    left = Number(left);
    right = Number(right);
    out.push({ tile: tile || `${Math.min(left, right)}-${Math.max(left, right)}`, left, right, double: left === right });
  }
  return out;
}

function unitFor(width) {
  // Tile height in px, sized to the felt: about 14 tile widths to a row, from 24 px on a
  // phone to 44 px on a desktop.
  return Math.max(24, Math.min(44, Math.floor(width / 15)));
}

/**
 * Render the line of play into `container`.
 * choices: ends the selected tile may go to, each {end, label}; onChoose(end).
 */
export function renderChain(container, rawChain, { choices = [], onChoose = null, ends = null, last = null } = {}) {
  const chain = normaliseChain(rawChain);
  const width = widthOf(container) || 320;
  const u = unitFor(width);
  container.style.setProperty("--u", `${u}px`);
  const gap = 2;
  const marker = choices.length ? u * 1.6 + gap : 0;
  const capacity = Math.max(3 * u, width - 2 * marker - 16);
  const tileWidth = (item) => (item.double ? u : 2 * u) + gap;

  const rows = [];
  let row = [];
  let used = 0;
  for (const item of chain) {
    const w = tileWidth(item);
    if (row.length && used + w > capacity) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push(item);
    used += w;
  }
  if (row.length) rows.push(row);

  const choiceButton = (end) => {
    const c = choices.find((x) => x.end === end);
    if (!c) return null;
    return h("button", {
      type: "button", class: "end-choice", dataset: { end },
      "aria-label": t("board.play_on", { end: c.label }), title: t("board.play_on", { end: c.label }),
      onclick: () => onChoose && onChoose(end),
    }, c.short ?? "▼");
  };

  const board = [];
  if (chain.length === 0) {
    const lead = choices.find((c) => c.end === null || c.end === "lead");
    board.push(h("div", { class: "chain-empty" }, lead ? "" : t("board.empty")));
  }
  rows.forEach((items, r) => {
    const reverse = r % 2 === 1;
    const cells = items.map((item) => {
      // A reversed row is read right to left, so each tile turns round too.
      const [a, b] = reverse ? [item.right, item.left] : [item.left, item.right];
      return h("span", {
        // The last placement is marked (and, without reduced motion, slides in).
        class: `chain-tile ${item.double ? "double" : ""} ${last && item.tile === last ? "last" : ""}`,
        title: tileName(item.tile), "aria-label": tileName(item.tile), role: "img", dataset: { tile: item.tile },
      }, tileSvg(a, b, { horizontal: !item.double }));
    });
    const children = [];
    if (r === 0) children.push(choiceButton("left"));
    children.push(...cells);
    if (r === rows.length - 1) children.push(choiceButton("right"));
    // A line that fits one row stands in the middle of the board.
    board.push(h("div", { class: `chain-row ${reverse ? "reverse" : ""} ${rows.length === 1 ? "single" : ""}` }, children));
  });
  // Variants with more ends (spinners, trains) get plain buttons below the line.
  const extra = choices.filter((c) => c.end && c.end !== "left" && c.end !== "right");
  if (extra.length) board.push(h("div", { class: "chain-extra" }, extra.map((c) => choiceButton(c.end))));
  container.replaceChildren(...board);
  container.dataset.ends = JSON.stringify(ends || {});
  container.setAttribute("aria-label",
    chain.length ? t("board.line", { tiles: chain.map((x) => `${x.left}-${x.right}`).join(", ") }) : t("board.line_empty"));
}
