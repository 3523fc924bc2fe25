// A spinner (Fives) or house (Telephone): the line of play across, the spinner
// standing crosswise in it, and its two short sides as arms going up and down.
// Chain items (PROTOCOL view.chain for a spinner layout): line tiles
// {tile, left, right, spinner?} from left to right, then arm tiles
// {tile, arm: "up"|"down", inner, outer} outward from the spinner. A double laid face
// down (Donkey) comes as {tile: null, closed: true, owner, end} and is drawn as a back.
//
// Tiles shrink with the board so the cross fits a phone; a very long line scrolls.

import { renderChain } from "./chain.js";
import { h, widthOf } from "./dom.js";
import { t } from "./i18n.js";
import { parseTile, tileBack, tileSvg } from "./tiles.js";
import { seatName } from "./words.js";

const MIN_UNIT = 12;
const MAX_UNIT = 26;

const isDouble = (item) => {
  if (item.closed) return true; // only a double is laid face down
  const t = parseTile(item.tile);
  return t !== null && t[0] === t[1];
};

/**
 * Render the cross into `container`.
 * choices: ends the selected tile may go to, each {end, label, short}; onChoose(end).
 *
 * Every tile gets a place along the line (`along`) and across it (`across`: the up arm
 * negative, the down arm positive). A wide board draws the line across; a narrow one
 * (a phone) turns the whole cross a quarter clockwise, so the long line runs down the
 * page: the left end at the top, the up arm to the right.
 */
export function renderSpinner(container, chain, { choices = [], onChoose = null, ends = null, last = null, view = null } = {}) {
  // Until the spinner is down the table is a plain line.
  if (!chain.some((item) => item && (item.spinner || item.arm))) {
    renderChain(container, chain, { choices, onChoose, ends, last });
    return;
  }
  const line = chain.filter((item) => !item.arm);
  const up = chain.filter((item) => item.arm === "up");
  const down = chain.filter((item) => item.arm === "down");
  const centre = Math.max(0, line.findIndex((item) => item.spinner));

  // Size in tile units along the line: a tile lying along it is 2, a crosswise double 1,
  // the end buttons about 2; across it, the arms.
  const alongUnits = line.reduce((n, item) => n + (isDouble(item) ? 1 : 2), 0) + 2 * 1.8;
  const acrossUnits = 2 * (up.length + down.length) + 2 + 2 * 1.8;
  const width = widthOf(container) || 320;
  const wideUnit = Math.floor((width - 20) / alongUnits);
  const tall = wideUnit < 18 && acrossUnits < alongUnits;
  const u = Math.max(MIN_UNIT, Math.min(MAX_UNIT, Math.floor((width - 20) / (tall ? acrossUnits : alongUnits))));
  container.style.setProperty("--u", `${u}px`);

  const upRows = up.length + 1;
  const downCols = down.length + 1;
  const at = (along, across) => (tall
    ? `grid-row: ${along}; grid-column: ${downCols + 1 - across}`
    : `grid-row: ${upRows + 1 + across}; grid-column: ${along}`);

  // A tile as the wide board shows it: `a` left (or on top), lying along the line or not.
  const cell = (item, a, b, horizontal, along, across) => {
    const [first, second, flat] = tall && !horizontal ? [b, a, true] : [a, b, tall ? false : horizontal];
    if (item.closed) {
      const words = t("board.closed_tile", { name: view ? seatName(view, item.owner) : t("seat.n", { n: item.owner + 1 }) });
      return h("span", {
        class: `chain-tile double closed ${item.spinner ? "spinner" : ""}`, title: words, "aria-label": words,
        role: "img", dataset: { closed: "true", owner: String(item.owner), end: item.end, arm: item.arm || "line" },
        style: at(along, across),
      }, tileBack({ horizontal: flat }));
    }
    return h("span", {
      class: `chain-tile ${isDouble(item) ? "double" : ""} ${item.spinner ? "spinner" : ""} ${last && item.tile === last ? "last" : ""}`,
      title: item.tile, "aria-label": item.spinner ? t("board.spinner_tile", { tile: item.tile }) : item.tile, role: "img",
      dataset: { tile: item.tile, arm: item.arm || "line" }, style: at(along, across),
    }, tileSvg(first, second, { horizontal: flat }));
  };
  const choice = (end, along, across) => {
    const c = choices.find((x) => x.end === end);
    if (!c) return null;
    return h("button", {
      type: "button", class: "end-choice", dataset: { end }, style: at(along, across),
      "aria-label": t("board.play_on", { end: c.label }), title: t("board.play_on", { end: c.label }),
      onclick: () => onChoose && onChoose(end),
    }, c.short ?? "▼");
  };

  const along = (i) => i + 2; // 1 and the last place along hold the left and right buttons
  const spinnerAt = along(centre);
  const cells = [choice("left", 1, 0)];
  line.forEach((item, i) => {
    // Along the line a tile lies flat; a double (the spinner too) stands crosswise.
    cells.push(cell(item, item.left, item.right, !isDouble(item), along(i), 0));
  });
  cells.push(choice("right", along(line.length), 0));
  // Outward from the spinner: the up arm upward (outer number on top), the down arm down.
  up.forEach((item, i) => cells.push(cell(item, item.outer, item.inner, isDouble(item), spinnerAt, -1 - i)));
  cells.push(choice("up", spinnerAt, -1 - up.length));
  down.forEach((item, i) => cells.push(cell(item, item.inner, item.outer, isDouble(item), spinnerAt, 1 + i)));
  cells.push(choice("down", spinnerAt, 1 + down.length));

  const grid = h("div", { class: `spinner-grid ${tall ? "tall" : "wide"}`, "data-testid": "spinner" },
    cells.filter(Boolean));
  container.replaceChildren(grid);
  container.dataset.ends = JSON.stringify(ends || {});
  const words = (items) => items.map((x) => x.tile ?? t("board.face_down")).join(", ") || t("board.arm_empty");
  container.setAttribute("aria-label", t("board.spinner", {
    tile: line[centre] ? line[centre].tile : "", line: words(line), up: words(up), down: words(down),
  }));
}
