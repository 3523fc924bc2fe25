// The score sheet (RULES §1.6 "Display"): per player (or per team) the previous total
// on top, the round's points above the line and the new total below it.
//
// Each view.history entry carries the standings after its round (scores, remembered,
// carry), so the sheet shows the server's numbers and never re-derives the rules; the
// last row is taken from view.seats. Standings with "remembered" points get the Goat
// colours; otherwise a round's row shows what each side scored (the round's winner is
// credited, not the loser's pips).

import { h } from "./dom.js";
import { num, signedNum, t } from "./i18n.js";
import { nameTag, seatAbbreviations } from "./names.js";
import { fishIcon } from "./tiles.js";
import { seatName } from "./words.js";

function endKind(entry) {
  return typeof entry.end === "object" && entry.end !== null ? entry.end.kind : entry.end;
}

function endBy(entry) {
  return typeof entry.end === "object" && entry.end !== null ? entry.end.by : entry.by;
}

/** Whether the view keeps Goat standings (remembered points, accounts that open). */
export function keepsRemembered(view) {
  return (view.history || []).some((e) => Array.isArray(e.remembered))
    || (view.seats || []).some((s) => s.opened === false);
}

/** A standing in the §1.6 colours: account in red, remembered "+N" in yellow. */
export function standingCell(st) {
  if (st.opened) return h("span", { class: "account" }, num(st.account));
  if (st.remembered > 0) return h("span", { class: "remembered" }, signedNum(st.remembered));
  return h("span", { class: "nothing" }, num(0));
}

/** The seat's standing as shown on its card and in the sheet's last row. */
export function seatStanding(view, seat) {
  if (keepsRemembered(view)) {
    return standingCell({ account: seat.account || 0, opened: Boolean(seat.opened), remembered: seat.remembered || 0 });
  }
  return h("span", { class: "total" }, num(seat.account ?? 0));
}

/** Columns of the sheet: one per seat, or one per team (partners share a standing);
 * `label` names them whole, `short` with names that fit a narrow column. */
export function sides(view) {
  const seats = view.seats || [];
  const short = seatAbbreviations(view);
  if (!seats.some((s) => s.team !== undefined && s.team !== null)) {
    return seats.map((s) => ({ key: String(s.seat), seats: [s.seat], label: seatName(view, s.seat), short: short.get(s.seat) }));
  }
  const teams = new Map();
  for (const s of seats) {
    if (!teams.has(s.team)) teams.set(s.team, []);
    teams.get(s.team).push(s.seat);
  }
  return [...teams.entries()].map(([team, members]) => ({
    key: `team-${team}`, seats: members,
    label: `${t("seat.team", { team: teamLetter(team) })}: ${members.map((s) => seatName(view, s)).join(" & ")}`,
    short: `${t("seat.team", { team: teamLetter(team) })}: ${members.map((s) => short.get(s)).join(" & ")}`,
  }));
}

export function teamLetter(team) {
  return "AB"[team] ?? String(team + 1);
}

/** The sheet table for a view (any variant). */
export function scoreSheet(view) {
  const history = view.history || [];
  const goat = keepsRemembered(view);
  const columns = sides(view);
  const zero = goat ? { account: 0, opened: false, remembered: 0 } : 0;
  const totals = history.map((entry) => (entry.scores || []).map((score, i) => (goat
    // An account opens above 12 points, so an opened account is never 0.
    ? { account: score, opened: score > 0, remembered: (entry.remembered || [])[i] || 0 }
    : score)));
  if (totals.length) {
    totals[totals.length - 1] = (view.seats || []).map((seat) => (goat
      ? { account: seat.account || 0, opened: Boolean(seat.opened), remembered: seat.remembered || 0 }
      : seat.account ?? 0));
  }
  const cell = (value) => (goat ? standingCell(value) : h("span", { class: "total" }, num(value)));

  const head = h("tr", {}, h("th", { scope: "col", title: t("sheet.round") }, "#"),
    columns.map((c) => h("th", { scope: "col", class: "side-name" }, nameTag(c.label, c.short, { "data-testid": "side-name" }))));
  const body = [];
  // Every row has its header, told to a screen reader where the sheet shows none.
  body.push(h("tr", { class: "score-start" }, h("th", { scope: "row" }, h("span", { class: "visually-hidden" }, t("phone.sheet_start"))),
    columns.map(() => h("td", {}, cell(zero)))));
  history.forEach((entry, r) => {
    const kind = endKind(entry);
    const label = [num((entry.round ?? r) + 1)];
    if (kind === "fish") label.push(fishIcon("in-row"));
    if (kind === "timeout") {
      const resigned = r === history.length - 1 && (view.result || {}).reason === "resign";
      label.push(h("span", { class: "muted" }, ` ${resigned ? t("sheet.resigned") : t("sheet.timeout")}`));
    }
    body.push(h("tr", { class: `score-points ${kind === "fish" ? "fish-round" : ""}` },
      h("th", { scope: "row" }, label),
      columns.map((c) => {
        const p = c.seats.reduce((sum, s) => sum + ((entry.points || [])[s] ?? 0), 0);
        const credited = (entry.credited || [])[c.seats[0]];
        const out = c.seats.includes(endBy(entry)) && kind === "out";
        if (Array.isArray(entry.play_points)) {
          // Points during play and the hand's bonus (Fives, Telephone): the round's gain.
          const play = entry.play_points[c.seats[0]] || 0;
          return h("td", { title: t("sheet.play_points", { play, bonus: credited || 0, left: p }) },
            h("span", { class: "points" }, signedNum(play + (credited || 0))),
            out ? h("span", { class: "went-out", title: t("sheet.went_out") }, " ✓") : null);
        }
        const marks = [];
        if (out) marks.push(h("span", { class: "went-out", title: t("sheet.went_out") }, " ✓"));
        if (goat) {
          if (credited > 0 && credited !== p) marks.push(h("span", { class: "credited", title: t("sheet.credited") }, ` →${num(credited)}`));
          return h("td", {}, h("span", { class: "points" }, num(p)), marks);
        }
        // A "higher wins" round: what the side scored, with its hand's pips beside it.
        return h("td", { "data-testid": `credited-${c.key}` },
          h("span", { class: "points" }, credited ? signedNum(credited) : num(0)), marks,
          h("span", { class: "pips", title: t("sheet.pips") }, ` (${num(p)})`));
      })));
    body.push(h("tr", { class: "score-total" }, h("th", { scope: "row" }, h("span", { class: "visually-hidden" }, t("phone.sheet_total"))),
      columns.map((c) => h("td", {}, cell((totals[r] || [])[c.seats[0]] ?? zero)))));
  });
  // A game of a set number of rounds (view.rounds_total: Mexican Train's 13) lists the
  // rounds still to come as empty rows, so the sheet has its whole length from the start.
  for (let r = history.length; r < (Number(view.rounds_total) || 0); r++) {
    body.push(h("tr", { class: "score-future" }, h("th", { scope: "row" }, num(r + 1)),
      columns.map(() => h("td", {}, ""))));
  }
  return h("table", { class: `score-sheet ${goat ? "goat" : ""}` }, h("thead", {}, head), h("tbody", {}, body));
}
