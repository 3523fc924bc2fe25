// The round summary over the board: why the round ended, every hand, the points and the
// standings, with notes on what the numbers mean.

import { h, replace } from "../dom.js";
import { num, t, tileName } from "../i18n.js";
import { keepsRemembered, sides, standingCell, teamLetter } from "../scores.js";
import { fishIcon, parseTile, tileSvg } from "../tiles.js";
import { roundEndWords } from "../words.js";

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
          return h("span", { class: "mini-tile", title: tileName(tile) }, tileSvg(tl[0], tl[1]));
        })))),
      h("td", { class: "num" }, num(points)),
      h("td", { class: "num" }, credited === undefined ? "" : num(credited)),
      h("td", { class: "num" }, standing));
  });
}

/** Hands the round counted otherwise than by their pips, told in words. The numbers are
 * the server's (`end.points`); the client only sets them beside the pips it sees, so it
 * needs no variant's rules: a hand that counts nothing while a partner went out burned,
 * any other difference is the variant's special hand. */
function specialHandNotes(ctx, v, s) {
  const end = s.end || {};
  const team = (seat) => ((v.seats || []).find((x) => x.seat === seat) || {}).team;
  const notes = [];
  (s.hands || []).forEach((tiles, seat) => {
    const points = (end.points || [])[seat];
    if (points === undefined || !tiles.length) return;
    const pips = tiles.reduce((sum, tile) => sum + (parseTile(tile) || [0, 0]).reduce((a, b) => a + b, 0), 0);
    if (points === pips) return;
    const burned = points === 0 && end.kind === "out" && end.by !== seat
      && team(seat) !== undefined && team(seat) !== null && team(seat) === team(end.by);
    const key = burned ? "summary.burned" : "summary.special_other";
    notes.push(h("p", { class: "special-note", "data-testid": "special-hand" }, t(key, { name: ctx.name(seat), n: points, tiles: tiles.map(tileName).join(" ") })));
  });
  return notes;
}

/** General (RULES §12): whether the round made a General, and the tally. */
function generalNotes(ctx, v, s) {
  if (!Array.isArray(v.generals)) return [];
  const end = s.end || {};
  const credited = end.credited || [];
  const team = credited.findIndex((c) => c > 0);
  const line = team >= 0
    ? t("summary.general", { name: ctx.name(end.by), team: teamLetter(team % 2) })
    : end.kind === "fish" ? t("summary.general_fish") : t("summary.no_general");
  return [h("p", { class: "general-note", "data-testid": "general-note" }, line)];
}

export function renderSummary(ctx) {
  const { state, el } = ctx;
  const v = ctx.view();
  const s = state.summary;
  const box = el.summaryBox;
  if (!s || !v) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const end = s.end || {};
  const fishRule = end.kind === "fish" ? (v.options || {}).fish_rule : null;
  const notes = [];
  if (s.carry > 0) notes.push(h("p", { class: "carry-note" }, fishIcon(), ` ${t("summary.carry", { n: s.carry })}`));
  notes.push(...specialHandNotes(ctx, v, s), ...generalNotes(ctx, v, s));
  if (keepsRemembered(v)) notes.push(h("p", { class: "muted" }, t("summary.remember_rule")));
  replace(box,
    h("h2", { id: "summary-title" }, t("summary.title", { n: (s.round ?? 0) + 1 })),
    h("p", { class: "summary-why" }, roundEndWords(v, end, fishRule)),
    h("div", { class: "summary-scroll" }, h("table", { class: "summary-table" },
      h("thead", {}, h("tr", {}, [t("summary.player"), t("summary.hand"), t("summary.points"), t("summary.credited"), t("summary.standing")]
        .map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, summaryRows(v, s)))),
    notes,
    h("div", { class: "summary-foot" },
      v.next_round_at ? h("strong", { "data-testid": "next-round" }, t("table.next_round_in", { n: Math.ceil(ctx.pausedFor() / 1000) })) : null,
      h("button", { type: "button", "data-testid": "close-summary", onclick: () => {
        state.summary = null;
        ctx.render();
        (el.hand.querySelector(".hand-tile") || document.getElementById("main")).focus();
      } }, v.status === "finished" ? t("summary.see_result") : t("summary.close"))));
}
