// The score sheet (RULES §1.6 "Display"): per player the previous total on top,
// the round's points above the line and the new total below it.
//
// Each view.history entry carries the standings after its round (scores,
// remembered, carry), so the sheet shows the server's numbers and never
// re-derives the rules; the last row is taken from view.seats.

import { h } from "./dom.js";
import { fishIcon } from "./tiles.js";
import { seatName } from "./words.js";

function endKind(entry) {
  return typeof entry.end === "object" && entry.end !== null ? entry.end.kind : entry.end;
}

function endBy(entry) {
  return typeof entry.end === "object" && entry.end !== null ? entry.end.by : entry.by;
}

/** Goat standings after each history entry: [[{account, opened, remembered}] by seat]. */
export function goatStandings(view) {
  const rows = (view.history || []).map((entry) =>
    (entry.scores || []).map((score, i) => ({
      // An account opens above 12 points, so an opened account is never 0.
      account: score, opened: score > 0, remembered: (entry.remembered || [])[i] || 0,
    })),
  );
  if (rows.length) {
    rows[rows.length - 1] = (view.seats || []).map((seat) => ({
      account: seat.account || 0, opened: Boolean(seat.opened), remembered: seat.remembered || 0,
    }));
  }
  return rows;
}

/** A standing in the §1.6 colours: account in red, remembered "+N" in yellow. */
export function standingCell(st) {
  if (st.opened) return h("span", { class: "account" }, String(st.account));
  if (st.remembered > 0) return h("span", { class: "remembered" }, `+${st.remembered}`);
  return h("span", { class: "nothing" }, "0");
}

function classicTotals(view) {
  const rows = (view.history || []).map((entry) => entry.scores || []);
  if (rows.length) rows[rows.length - 1] = (view.seats || []).map((x) => x.account ?? 0);
  return rows;
}

/** The score sheet table for a view (any variant; Goat gets the §1.6 colours). */
export function scoreSheet(view) {
  const seats = view.seats || [];
  const history = view.history || [];
  const goat = view.variant === "goat";
  const totals = goat ? goatStandings(view) : classicTotals(view);
  const cell = (value) => (goat ? standingCell(value) : h("span", { class: "total" }, String(value)));
  const zero = goat ? { account: 0, opened: false, remembered: 0 } : 0;

  const head = h("tr", {}, h("th", { scope: "col", title: "Round" }, "#"),
    seats.map((seat) => h("th", { scope: "col", title: seatName(view, seat.seat) }, seatName(view, seat.seat))));
  const body = [];
  body.push(h("tr", { class: "score-start" }, h("th", { scope: "row" }, ""),
    seats.map(() => h("td", {}, cell(zero)))));
  history.forEach((entry, r) => {
    const kind = endKind(entry);
    const label = [`${(entry.round ?? r) + 1}`];
    if (kind === "fish") label.push(fishIcon("in-row"));
    if (kind === "timeout") label.push(h("span", { class: "muted" }, " timeout"));
    body.push(h("tr", { class: `score-points ${kind === "fish" ? "fish-round" : ""}` },
      h("th", { scope: "row" }, label),
      seats.map((seat, i) => {
        const p = (entry.points || [])[i];
        const c = (entry.credited || [])[i];
        if (Array.isArray(entry.play_points)) {
          // Points during play and the hand's bonus (Fives, Telephone): the round's gain.
          const play = entry.play_points[i] || 0;
          return h("td", { title: `during play ${play}, bonus ${c || 0}, left in hand ${p ?? 0}` },
            h("span", { class: "points" }, `+${play + (c || 0)}`),
            endBy(entry) === i && kind === "out" ? h("span", { class: "went-out", title: "went out" }, " ✓") : null);
        }
        const marks = [];
        if (endBy(entry) === i && kind === "out") marks.push(h("span", { class: "went-out", title: "went out" }, " ✓"));
        if (c > 0 && c !== p) marks.push(h("span", { class: "credited", title: "credited" }, ` →${c}`));
        return h("td", {}, h("span", { class: "points" }, p === undefined ? "" : String(p)), marks);
      })));
    body.push(h("tr", { class: "score-total" }, h("th", { scope: "row" }, ""),
      seats.map((_, i) => h("td", {}, cell(totals[r][i] ?? zero)))));
  });
  // A game of a set number of rounds (view.rounds_total: Mexican Train's 13) lists the
  // rounds still to come as empty rows, so the sheet has its whole length from the start.
  for (let r = history.length; r < (Number(view.rounds_total) || 0); r++) {
    body.push(h("tr", { class: "score-future" }, h("th", { scope: "row" }, String(r + 1)),
      seats.map(() => h("td", {}, ""))));
  }
  return h("table", { class: `score-sheet ${goat ? "goat" : ""}` }, h("thead", {}, head), h("tbody", {}, body));
}
