// Mexican Train's table (RULES §5): the engine double, then one row per train going
// out from it, the shared Mexican train first, then yours, then the others clockwise.
// Chain items (PROTOCOL view.chain for a trains layout): the engine
// {tile, arm: null, left, right}, then train tiles {tile, arm: "mexican"|"train:<seat>",
// inner, outer} outward from the engine. From the view: `markers` (seats whose train
// anyone may play on), `open_double` (the train whose double must be covered first) and
// `legal` (which trains you can play on now).
//
// A row shows as many of its newest tiles as fit the board's width ("+N" counts the
// older ones), so eight trains fit a phone. When the chosen tile fits several trains,
// each of those rows gets a button at its open end: the row says whose train it is.

import { h, widthOf } from "./dom.js";
import { dir, t, tileName } from "./i18n.js";
import { parseTile, tileSvg } from "./tiles.js";
import { endLabel, seatName } from "./words.js";

const MEXICAN = "mexican";

const seatOf = (end) => (String(end).startsWith("train:") ? Number(String(end).slice(6)) : null);

function unitFor(width) {
  if (width < 420) return 15;
  if (width < 800) return 18;
  return 22;
}

function trainOrder(chain, ends, view) {
  const names = new Set(Object.keys(ends || {}));
  for (const item of chain) if (item && item.arm) names.add(item.arm);
  const seats = [...names].map(seatOf).filter((s) => s !== null).sort((a, b) => a - b);
  const first = view && typeof view.you === "number" ? view.you : 0;
  const mine = seats.filter((s) => s >= first).concat(seats.filter((s) => s < first));
  return [MEXICAN, ...mine.map((s) => `train:${s}`)];
}

/**
 * Render the trains into `container`.
 * choices: ends the selected tile may go to, each {end, label, short}; onChoose(end).
 */
export function renderTrains(container, chain, { choices = [], onChoose = null, ends = null, view = null } = {}) {
  const width = widthOf(container) || 320;
  const u = unitFor(width);
  container.style.setProperty("--u", `${u}px`);
  const engine = chain.find((item) => item && item.arm === null) || null;
  const markers = new Set((view && view.markers) || []);
  const openDouble = view ? view.open_double : null;
  const playable = new Set(((view && view.legal) || []).map((m) => m.end));
  const engineNumber = engine ? Number(engine.left) : null;
  // On a right-to-left page the trains run right to left from their names: each tile
  // then shows its inner number (toward the engine) on its right.
  const rtl = dir() === "rtl";

  const label = width < 420 ? 76 : 130;
  const room = width - label - u * 1.6 - 24; // the row's label, its end button, padding
  const rows = trainOrder(chain, ends, view).map((end) => {
    const tiles = chain.filter((item) => item && item.arm === end);
    const seat = seatOf(end);
    const marked = seat !== null && markers.has(seat);
    const choice = choices.find((c) => c.end === end);
    // The newest tiles that fit, from the engine outward.
    const shown = [];
    let used = 0;
    for (let i = tiles.length - 1; i >= 0; i--) {
      const tl = parseTile(tiles[i].tile) || [0, 0];
      const w = (tl[0] === tl[1] ? u : 2 * u) + 2;
      if (used + w > room && shown.length) break;
      shown.unshift(tiles[i]);
      used += w;
    }
    const hidden = tiles.length - shown.length;
    const cells = shown.map((item, i) => {
      const tl = parseTile(item.tile) || [0, 0];
      const double = tl[0] === tl[1];
      const last = i === shown.length - 1;
      const open = last && double && openDouble === end;
      return h("span", {
        class: `chain-tile ${double ? "double" : ""} ${open ? "open-double" : ""}`,
        title: open ? t("trains.open_double_title", { tile: item.tile }) : item.tile,
        "aria-label": open ? t("trains.open_double_label", { tile: tileName(item.tile) }) : tileName(item.tile), role: "img",
        dataset: { tile: item.tile, arm: end },
      }, rtl ? tileSvg(item.outer, item.inner, { horizontal: !double }) : tileSvg(item.inner, item.outer, { horizontal: !double }));
    });
    const open = (ends && ends[end] !== undefined) ? ends[end]
      : (tiles.length ? tiles[tiles.length - 1].outer : engineNumber);
    const tail = choice
      ? h("button", {
        type: "button", class: "end-choice", dataset: { end },
        "aria-label": t("trains.play_on", { train: endLabel(view, end) }), title: t("trains.play_on", { train: endLabel(view, end) }),
        onclick: () => onChoose && onChoose(end),
      }, choice.short ?? String(open))
      : h("span", { class: "train-end", title: t("trains.open_end", { n: open ?? "" }) }, open === null ? "" : String(open));
    const classes = ["train-row"];
    if (end === MEXICAN) classes.push("mexican");
    if (view && seat === view.you) classes.push("mine");
    if (marked) classes.push("marked");
    if (openDouble === end) classes.push("has-open-double");
    if (choice) classes.push("choosable");
    else if (!choices.length && playable.has(end)) classes.push("playable");
    const name = endLabel(view, end);
    const shortName = end === MEXICAN ? t("trains.mexican")
      : view && seat === view.you ? t("trains.you") : (view ? seatName(view, seat) : t("seat.n", { n: seat + 1 }));
    return h("div", {
      class: classes.join(" "), dataset: { train: end }, "data-testid": `train-${end}`,
      role: "group", "aria-label": t("trains.row", {
        name: marked ? t("trains.marked", { name }) : name, tiles: tiles.map((x) => x.tile).join(", ") || t("board.arm_empty"),
      }),
    },
      h("div", { class: "train-label", style: `flex-basis: ${label}px`, title: shortName },
        h("span", { class: "train-name" }, shortName),
        marked ? h("span", { class: "train-marker", title: t("trains.marker"), "aria-label": t("trains.marker"), role: "img", "data-testid": "marker" }) : null),
      h("div", { class: "train-tiles" },
        hidden > 0 ? h("span", { class: "train-more", title: t("trains.earlier", { n: hidden }) }, `+${hidden}`) : null,
        cells, tail));
  });

  const head = engine
    ? h("div", { class: "train-engine", "data-testid": "engine" },
      h("span", { class: "chain-tile double engine", title: t("trains.engine_tile", { tile: tileName(engine.tile) }), role: "img", "aria-label": t("trains.engine_tile", { tile: tileName(engine.tile) }) },
        tileSvg(engine.left, engine.right, { horizontal: false })),
      h("span", { class: "engine-word" }, t("trains.engine", { tile: engine.tile })),
      openDouble ? h("span", { class: "pill open-double-note", "data-testid": "open-double" },
        t("trains.cover_first", { end: endLabel(view, openDouble) })) : null)
    : h("div", { class: "chain-empty" }, t("trains.no_engine"));
  const grid = h("div", { class: "trains", "data-testid": "trains" }, head, rows);
  container.replaceChildren(grid);
  container.dataset.ends = JSON.stringify(ends || {});
  container.setAttribute("aria-label", engine ? t("trains.all", { tile: tileName(engine.tile) }) : t("trains.none"));
}
