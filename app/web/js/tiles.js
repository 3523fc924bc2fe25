// Domino tiles drawn as SVG. A tile is "a-b"; drawn vertically (a on top) or
// horizontally (a on the left).

import { s } from "./dom.js";
import { t } from "./i18n.js";

const A = 0.24, B = 0.5, C = 0.76;
// Pip positions in a unit square, for a half drawn in a vertical tile.
const PIPS = {
  0: [],
  1: [[B, B]],
  2: [[A, A], [C, C]],
  3: [[A, A], [B, B], [C, C]],
  4: [[A, A], [C, A], [A, C], [C, C]],
  5: [[A, A], [C, A], [B, B], [A, C], [C, C]],
  6: [[A, A], [A, B], [A, C], [C, A], [C, B], [C, C]],
  7: [[A, A], [A, B], [A, C], [B, B], [C, A], [C, B], [C, C]],
  8: [[A, A], [A, B], [A, C], [B, A], [B, C], [C, A], [C, B], [C, C]],
  9: [[A, A], [A, B], [A, C], [B, A], [B, B], [B, C], [C, A], [C, B], [C, C]],
};

export function parseTile(tile) {
  const m = /^(\d+)-(\d+)$/.exec(String(tile));
  if (!m) return null;
  return [Number(m[1]), Number(m[2])];
}

export function isDouble(tile) {
  const t = parseTile(tile);
  return t !== null && t[0] === t[1];
}

function half(value, x0, y0, size, horizontal) {
  const out = [];
  const pips = PIPS[value];
  if (pips === undefined) {
    // Double-twelve numbers above 9 are written, not dotted.
    out.push(s("text", {
      x: x0 + size / 2, y: y0 + size / 2, class: "pip-text",
      "text-anchor": "middle", "dominant-baseline": "central", "font-size": size * 0.5,
    }, String(value)));
    return out;
  }
  for (const [px, py] of pips) {
    // A horizontal tile shows the same pattern transposed (rows of three for 6).
    const [x, y] = horizontal ? [py, px] : [px, py];
    out.push(s("circle", { cx: x0 + x * size, cy: y0 + y * size, r: size * 0.09, class: "pip" }));
  }
  return out;
}

/**
 * An <svg> of the tile. `a` is drawn first (top or left). Options: horizontal, cls.
 */
export function tileSvg(a, b, { horizontal = false, cls = "" } = {}) {
  const size = 50;
  const w = horizontal ? size * 2 : size;
  const ht = horizontal ? size : size * 2;
  const children = [
    s("rect", { x: 1, y: 1, width: w - 2, height: ht - 2, rx: 6, ry: 6, class: "tile-face" }),
    horizontal
      ? s("line", { x1: size, y1: 7, x2: size, y2: size - 7, class: "tile-divider" })
      : s("line", { x1: 7, y1: size, x2: size - 7, y2: size, class: "tile-divider" }),
    ...half(a, 0, 0, size, horizontal),
    ...half(b, horizontal ? size : 0, horizontal ? 0 : size, size, horizontal),
  ];
  return s("svg", {
    viewBox: `0 0 ${w} ${ht}`, class: `tile ${horizontal ? "tile-h" : "tile-v"} ${cls}`.trim(),
    "aria-hidden": "true", focusable: "false",
  }, children);
}

/** A face-down tile (opponents' hands, the bazaar, a double laid closed on the board). */
export function tileBack({ cls = "", horizontal = false } = {}) {
  const [w, ht] = horizontal ? [100, 50] : [50, 100];
  return s("svg", { viewBox: `0 0 ${w} ${ht}`, class: `tile-back ${horizontal ? "tile-h" : "tile-v"} ${cls}`.trim(), "aria-hidden": "true" },
    s("rect", { x: 1, y: 1, width: w - 2, height: ht - 2, rx: 6, ry: 6, class: "tile-back-face" }),
    s("circle", { cx: w / 2, cy: ht / 2, r: 6, class: "tile-back-dot" }));
}

export function fishIcon(cls = "") {
  return s("svg", { viewBox: "0 0 40 24", class: `icon fish ${cls}`.trim(), role: "img", "aria-label": t("icon.fish") },
    s("title", {}, t("icon.fish")),
    s("path", { d: "M4 12 C10 2, 24 2, 30 12 C24 22, 10 22, 4 12 Z", class: "fish-body" }),
    s("path", { d: "M29 12 L38 4 L38 20 Z", class: "fish-body" }),
    s("circle", { cx: 11, cy: 10, r: 1.8, class: "fish-eye" }));
}

export function goatIcon(cls = "") {
  return s("svg", { viewBox: "0 0 40 40", class: `icon goat ${cls}`.trim(), role: "img", "aria-label": t("icon.goat") },
    s("title", {}, t("icon.goat")),
    s("path", { d: "M12 10 C6 2, 2 8, 6 14 M28 10 C34 2, 38 8, 34 14", class: "goat-horn" }),
    s("path", { d: "M10 12 C10 6, 30 6, 30 12 L28 26 C26 32, 14 32, 12 26 Z", class: "goat-head" }),
    s("path", { d: "M16 30 L20 38 L24 30", class: "goat-beard" }),
    s("circle", { cx: 15, cy: 16, r: 1.8, class: "goat-eye" }),
    s("circle", { cx: 25, cy: 16, r: 1.8, class: "goat-eye" }));
}
