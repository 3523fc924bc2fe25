// The replay viewer: steps through a finished game move by move. The positions
// (every hand, draw and knock) come from the server's engine, never re-derived here.

import { get } from "../api.js";
import { h, replace, signed } from "../dom.js";
import { renderLayout } from "../board.js";
import { standingCell } from "../scores.js";
import { goatIcon, parseTile, tileSvg } from "../tiles.js";
import { describeEvents, optionWords, variantName } from "../words.js";

/** Steps for the viewer from the server's positions: notes in words, round ends marked. */
function stepsOf(record, positions) {
  const names = { variant: record.variant, seats: (record.players || []).map((player, seat) => ({ seat, player })) };
  return positions.map((pos) => {
    const ended = (pos.events || []).find((ev) => ev.type === "round_end");
    return {
      ...pos,
      notes: describeEvents(pos.events || [], names),
      ...(ended ? { end: ended.end, scores: ended.scores, remembered: ended.remembered, carry: ended.carry } : {}),
    };
  });
}

export async function renderReplay(root, gameId) {
  const section = h("section", { class: "replay-page" }, h("h1", {}, "Replay"));
  root.append(section);
  let record;
  let steps;
  try {
    const id = encodeURIComponent(gameId);
    const [found, replay] = await Promise.all([get(`/api/games/${id}`), get(`/api/games/${id}/positions`)]);
    record = found;
    steps = stepsOf(record, replay.positions);
  } catch (err) {
    section.append(h("p", { class: "form-error" }, err.status === 404 ? "No such game." : `Cannot replay this game: ${err.message}`));
    return;
  }
  const players = record.players || [];
  const name = (seat) => players[seat] ?? `Seat ${seat + 1}`;
  let index = 0;

  const board = h("div", { class: "board replay-board", "data-testid": "replay-board" });
  const handsBox = h("div", { class: "replay-hands" });
  const notes = h("ol", { class: "log replay-notes", "aria-live": "polite" });
  const counter = h("span", { class: "step-counter", "data-testid": "step-counter" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, steps.length - 1), value: "0", "aria-label": "Position in the game" });
  const standings = h("div", { class: "replay-standings" });
  const go = (i) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    draw();
  };
  const button = (label, title, fn, testid) =>
    h("button", { type: "button", title, "aria-label": title, onclick: fn, "data-testid": testid }, label);
  slider.addEventListener("input", () => go(Number(slider.value)));

  const roundStarts = steps.map((st, i) => (st.move === -1 ? i : -1)).filter((i) => i >= 0);
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
    button("|◀", "First position", () => go(0), "first"),
    button("◀◀", "Previous round", () => go([...roundStarts].reverse().find((i) => i < index) ?? 0), "prev-round"),
    button("◀", "Previous move", () => go(index - 1), "prev"),
    button("▶", "Next move", () => go(index + 1), "next"),
    button("▶▶", "Next round", () => go(roundStarts.find((i) => i > index) ?? steps.length - 1), "next-round"),
    button("▶|", "Last position", () => go(steps.length - 1), "last"),
    counter);

  const result = record.result;
  section.append(
    h("p", { class: "muted" }, [variantName(record.variant), ...optionWords(record.variant, record.options), players.join(" – ")].join(" · ")),
    controls, slider, notes, board, handsBox, standings,
    result ? h("div", { class: "card replay-result" },
      h("h2", {}, record.variant === "goat" && result.reason !== "timeout"
        ? [goatIcon("small"), ` ${(result.losers || []).map(name).join(" and ")} ${(result.losers || []).length > 1 ? "are the goats" : "is the goat"}`]
        : `${(result.winners || []).map(name).join(" and ")} won`),
      h("p", {}, (result.final || []).map((score, i) => `${name(i)}: ${score} (${signed((result.rating || [])[i] ?? 0)} rating)`).join(" · ")),
      record.seed ? h("p", { class: "muted seed" }, `Seed ${record.seed}`) : null) : null);

  function drawHands(step) {
    replace(handsBox, step.hands.map((tiles, seat) => h("div", {
      class: `replay-hand ${step.played && step.played.seat === seat ? "active" : ""}`,
    },
      h("span", { class: "name" }, name(seat)),
      h("span", { class: "tiles" }, tiles.map((tile) => {
        const t = parseTile(tile) || [0, 0];
        return h("span", { class: "mini-tile", title: tile }, tileSvg(t[0], t[1]));
      })))),
    h("p", { class: "muted" }, `Bazaar: ${step.bazaar ?? 0}`));
  }

  function drawStandings() {
    // The standings after the last round that is over at this position.
    const ended = steps.slice(0, index + 1).filter((st) => st.end);
    const last = ended[ended.length - 1];
    if (!last || !Array.isArray(last.scores)) {
      standings.replaceChildren();
      return;
    }
    const goat = record.variant === "goat";
    replace(standings, h("table", { class: "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, `After round ${last.round + 1}`), players.map((p) => h("th", {}, p)))),
      h("tbody", {},
        h("tr", {}, h("th", {}, "Points"), (last.end.points || []).map((p) => h("td", {}, String(p)))),
        h("tr", { class: "score-total" }, h("th", {}, "Total"), last.scores.map((score, i) => h("td", {},
          goat ? standingCell({ account: score, opened: score > 0, remembered: (last.remembered || [])[i] || 0 }) : String(score)))))),
    last.carry > 0 ? h("p", {}, `Carried fish: +${last.carry}`) : null);
  }

  function draw() {
    const step = steps[index];
    slider.value = String(index);
    counter.textContent = `Round ${step.round + 1} · step ${index + 1} of ${steps.length}`;
    replace(notes, step.notes.map((n) => h("li", {}, n)));
    renderLayout(board, step.chain, { ends: step.ends });
    drawHands(step);
    drawStandings();
  }

  const onKey = (ev) => {
    // Inputs (the slider too) handle their own arrow keys.
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === "ArrowRight") go(index + 1);
    else if (ev.key === "ArrowLeft") go(index - 1);
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  draw();
  return () => document.removeEventListener("keydown", onKey);
}
