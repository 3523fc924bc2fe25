// Small control icons drawn as SVG: the glyphs of common fonts (⏵, ⏸) are missing on many
// systems. Icons that point along the line of reading carry the class `flip`, which a
// right-to-left page mirrors (css: [dir="rtl"] .icon.flip).

import { s } from "./dom.js";

const TRIANGLE = "M4 3 L13 8 L4 13 Z"; // pointing forward (right on a left-to-right page)

const SHAPES = {
  play: [TRIANGLE],
  pause: ["M4 3 H7 V13 H4 Z", "M9 3 H12 V13 H9 Z"],
  next: [TRIANGLE],
  prev: ["M12 3 L3 8 L12 13 Z"],
  next_round: ["M1 3 L8 8 L1 13 Z", "M8 3 L15 8 L8 13 Z"],
  prev_round: ["M15 3 L8 8 L15 13 Z", "M8 3 L1 8 L8 13 Z"],
  first: ["M2 3 H4 V13 H2 Z", "M14 3 L5 8 L14 13 Z"],
  last: ["M12 3 H14 V13 H12 Z", "M2 3 L11 8 L2 13 Z"],
};

/** An icon for a replay control: play, pause, next, prev, next_round, prev_round, first, last. */
export function controlIcon(kind) {
  return s("svg", { viewBox: "0 0 16 16", width: 16, height: 16, class: `icon control flip ${kind}`, "aria-hidden": "true", focusable: "false" },
    (SHAPES[kind] || []).map((d) => s("path", { d, fill: "currentColor" })));
}
