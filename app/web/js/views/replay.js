// The replay viewer: steps through a finished game move by move. The positions
// (every hand, draw and knock) come from the server's engine, never re-derived here.

import { auth, get } from "../api.js";
import { h, replace, signed } from "../dom.js";
import { renderLayout } from "../board.js";
import { controlIcon } from "../icons.js";
import { num, t, tileName } from "../i18n.js";
import { reportButton } from "../report.js";
import { standingCell } from "../scores.js";
import { goatIcon, parseTile, tileSvg } from "../tiles.js";
import { endWords, reviewPanel } from "./review.js";
import { describeEvents, loserWord, optionWords, playerName, resultWords, variantName } from "../words.js";

const SPEEDS = [1500, 800, 400]; // ms per step

/** The seats as the table listed them: a computer player (`bots`, from the server) is
 * named by its strength in the page's words, as at the table. */
function seatsOf(record, bots) {
  return (record.players || []).map((player, seat) => ({ seat, player, bot: (bots || [])[seat] || undefined }));
}

/** Steps for the viewer from the server's positions: notes in words, round ends marked. */
function stepsOf(record, positions, bots) {
  const names = { variant: record.variant, options: record.options, seats: seatsOf(record, bots) };
  return positions.map((pos) => {
    const ended = (pos.events || []).find((ev) => ev.type === "round_end");
    return {
      ...pos,
      notes: describeEvents(pos.events || [], names),
      ...(ended ? { end: ended.end, scores: ended.scores, remembered: ended.remembered, carry: ended.carry } : {}),
    };
  });
}

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 * @param {{review?: boolean}} [options] review: ask for the game's review at once
 */
export async function renderReplay(root, gameId, options = {}) {
  const section = h("section", { class: "replay-page" }, h("h1", {}, t("replay.title")));
  root.append(section);
  let record;
  let steps;
  let bots = [];
  try {
    const id = encodeURIComponent(gameId);
    const [found, replay] = await Promise.all([get(`/api/games/${id}`), get(`/api/games/${id}/positions`)]);
    record = found;
    bots = replay.bots || [];
    steps = stepsOf(record, replay.positions, bots);
  } catch (err) {
    section.append(h("p", { class: "form-error" }, err.status === 404 ? t("replay.none") : t("replay.cannot", { reason: err.message })));
    return;
  }
  const seats = seatsOf(record, bots);
  const players = seats.map((entry) => playerName(entry, entry.seat));
  const name = (seat) => players[seat] ?? t("seat.n", { n: seat + 1 });
  const names = { variant: record.variant, options: record.options, seats };
  let index = 0;

  const board = h("div", { class: "board replay-board", "data-testid": "replay-board" });
  const handsBox = h("div", { class: "replay-hands" });
  const notes = h("ol", { class: "log replay-notes", "aria-live": "polite" });
  const counter = h("span", { class: "step-counter", "data-testid": "step-counter" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, steps.length - 1), value: "0", "aria-label": t("replay.position") });
  const standings = h("div", { class: "replay-standings" });
  const go = (i) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    draw();
  };
  const button = (label, title, fn, testid) =>
    h("button", { type: "button", title, "aria-label": title, onclick: fn, "data-testid": testid }, label);
  slider.addEventListener("input", () => go(Number(slider.value)));

  const roundStarts = steps.map((st, i) => (st.move === -1 ? i : -1)).filter((i) => i >= 0);
  // Autoplay: a step every SPEEDS[speed] ms until the end (or a key/button stops it).
  let timer = null;
  let speed = 0;
  const playButton = button(controlIcon("play"), t("replay.play"), () => (timer ? stop() : start()), "autoplay");
  const speedButton = button("1×", t("replay.speed"), () => {
    speed = (speed + 1) % SPEEDS.length;
    speedButton.textContent = `${num(speed + 1)}×`;
    if (timer) start();
  }, "speed");
  function start() {
    clearInterval(timer);
    if (index >= steps.length - 1) go(0);
    timer = setInterval(() => {
      if (index >= steps.length - 1) stop();
      else go(index + 1);
    }, SPEEDS[speed]);
    playButton.replaceChildren(controlIcon("pause"));
    playButton.setAttribute("aria-label", t("replay.pause"));
    playButton.title = t("replay.pause");
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    playButton.replaceChildren(controlIcon("play"));
    playButton.setAttribute("aria-label", t("replay.play"));
    playButton.title = t("replay.play");
  }
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
    button(controlIcon("first"), t("replay.first"), () => go(0), "first"),
    button(controlIcon("prev_round"), t("replay.prev_round"), () => go([...roundStarts].reverse().find((i) => i < index) ?? 0), "prev-round"),
    button(controlIcon("prev"), t("replay.prev"), () => go(index - 1), "prev"),
    playButton,
    button(controlIcon("next"), t("replay.next"), () => go(index + 1), "next"),
    button(controlIcon("next_round"), t("replay.next_round"), () => go(roundStarts.find((i) => i > index) ?? steps.length - 1), "next-round"),
    button(controlIcon("last"), t("replay.last"), () => go(steps.length - 1), "last"),
    speedButton,
    counter);

  const result = record.result;
  // The result is told at the end of the replay, not from its first step.
  const resultCard = result ? h("div", { class: "card replay-result", hidden: true, "data-testid": "replay-result" },
    h("h2", {}, result.reason === "goat" && loserWord(record.variant) === "goat" ? [goatIcon("small"), ` ${resultWords(names, result)}`] : resultWords(names, result)),
    h("p", {}, (result.final || []).map((score, i) => `${name(i)}: ${num(score)} (${t("replay.rating", { gain: signed((result.rating || [])[i] ?? 0) })})`).join(" · ")),
    record.seed ? h("p", { class: "muted seed" }, `${t("result.seed")} ${record.seed}`) : null) : null;
  section.append(
    h("p", { class: "muted" }, [variantName(record.variant), ...optionWords(record.variant, record.options), players.join(" – ")].join(" · ")),
    controls, slider, notes, board, handsBox, standings, resultCard);
  const review = reviewPanel(gameId, steps, players, (i) => go(i), Boolean(options.review));
  section.append(review.panel);
  // A finished game's players may be reported from its replay (PROTOCOL §2h): people only.
  const others = record.players.filter((p, seat) => !bots[seat] && auth.signedIn && p !== auth.player.name);
  if (result && others.length) section.append(reportButton(others, gameId));

  function drawHands(step) {
    replace(handsBox, step.hands.map((tiles, seat) => h("div", {
      class: `replay-hand ${step.played && step.played.seat === seat ? "active" : ""}`,
    },
      h("span", { class: "name" }, name(seat)),
      h("span", { class: "tiles" }, tiles.map((tile) => {
        const t = parseTile(tile) || [0, 0];
        return h("span", { class: "mini-tile", title: tileName(tile) }, tileSvg(t[0], t[1]));
      })))),
    h("p", { class: "muted" }, t("table.bazaar", { n: step.bazaar ?? 0 })));
  }

  function drawStandings() {
    // The standings after the last round that is over at this position.
    const ended = steps.slice(0, index + 1).filter((st) => st.end);
    const last = ended[ended.length - 1];
    if (!last || !Array.isArray(last.scores)) {
      standings.replaceChildren();
      return;
    }
    const goat = Array.isArray(last.remembered);
    replace(standings, h("table", { class: "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, t("replay.after_round", { n: last.round + 1 })), players.map((p) => h("th", { class: "side-name", title: p }, p)))),
      h("tbody", {},
        h("tr", {}, h("th", {}, t("summary.points")), (last.end.points || []).map((p) => h("td", {}, num(p)))),
        h("tr", { class: "score-total" }, h("th", {}, t("replay.total")), last.scores.map((score, i) => h("td", {},
          goat ? standingCell({ account: score, opened: score > 0, remembered: (last.remembered || [])[i] || 0 }) : num(score)))))),
    last.carry > 0 ? h("p", {}, t("summary.carry", { n: last.carry })) : null);
  }

  function draw() {
    const step = steps[index];
    slider.value = String(index);
    counter.textContent = t("replay.counter", { round: step.round + 1, step: index + 1, total: steps.length });
    if (resultCard) resultCard.hidden = index < steps.length - 1;
    replace(notes, step.notes.map((n) => h("li", {}, n)));
    const weighed = review.show(index);
    renderLayout(board, step.layout, step.chain, { ends: step.ends, last: weighed ? weighed.played.tile : null });
    if (weighed && weighed.best) {
      // The best move beside the move played: its tile and the end it goes to, on the board.
      const faces = parseTile(weighed.best.tile) || [0, 0];
      board.append(h("div", { class: "board-best", "data-testid": "board-best" },
        h("span", {}, t("review.best")),
        h("span", { class: "mini-tile", title: weighed.best.tile }, tileSvg(faces[0], faces[1])),
        weighed.best.end ? h("span", {}, endWords(weighed.best.end)) : null));
    }
    drawHands(step);
    drawStandings();
  }

  const onKey = (ev) => {
    // Inputs (the slider too) handle their own arrow keys.
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    const rtl = document.documentElement.dir === "rtl";
    if (ev.key === (rtl ? "ArrowLeft" : "ArrowRight")) go(index + 1);
    else if (ev.key === (rtl ? "ArrowRight" : "ArrowLeft")) go(index - 1);
    else if (ev.key === " " && !(ev.target instanceof HTMLButtonElement)) (timer ? stop() : start());
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  draw();
  return () => {
    review.close();
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
  };
}
