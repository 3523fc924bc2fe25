// A finished game's review beside its replay (PROTOCOL §2f): asked for once, followed while
// the worker computes it, then each decision's mark, the played and the best move, every
// seat's curve over the game (SVG, the current move marked) and each player's accuracy.

import { api, auth, get } from "../api.js";
import { h, replace, s } from "../dom.js";
import { num, t } from "../i18n.js";
import { parseTile, tileSvg } from "../tiles.js";

const POLL_MS = 1500;
const SEAT_COLOURS = ["#2f6fdf", "#d9480f", "#2b8a3e", "#ae3ec9", "#e8590c", "#1098ad", "#5c940d", "#c2255c"];
const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** An end in words: the line's two by name, any other (a spinner's arm, a train) as the
 * server names it. */
export function endWords(end) {
  return end === "left" || end === "right" ? t(`review.end.${end}`) : String(end);
}

/** A decision's tile and end in words and a small tile. */
function choiceView(choice) {
  if (!choice) return null;
  const faces = parseTile(choice.tile) || [0, 0];
  const also = (choice.also || []).map((p) => ` + ${p.tile}`).join("");
  return h("span", { class: "review-choice" },
    h("span", { class: "mini-tile", title: choice.tile }, tileSvg(faces[0], faces[1])),
    ` ${choice.tile}${also}${choice.end ? ` · ${endWords(choice.end)}` : ""}`);
}

function markBadge(mark) {
  return mark ? h("span", { class: `review-mark ${mark}`, title: t(`review.mark.${mark}`) }, MARK_SIGNS[mark]) : null;
}

/** The SVG curve: one line per seat over the decisions, the current one marked. */
function curveSvg(curve, names, current, onPick) {
  const width = 320;
  const height = 120;
  const values = curve.flatMap((p) => p.values);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (i) => (curve.length > 1 ? (i / (curve.length - 1)) * width : width / 2);
  const y = (v) => height - ((v - low) / span) * height;
  const seats = names.map((_, seat) => s("polyline", {
    points: curve.map((p, i) => `${x(i).toFixed(1)},${y(p.values[seat]).toFixed(1)}`).join(" "),
    fill: "none", stroke: SEAT_COLOURS[seat % SEAT_COLOURS.length], "stroke-width": 1.5,
    "vector-effect": "non-scaling-stroke",
  }));
  const svg = s("svg", {
    class: "review-curve", viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none",
    role: "img", "aria-label": t("review.curve"), "data-testid": "review-curve",
  },
  s("line", { x1: 0, x2: width, y1: y(0), y2: y(0), class: "review-zero", "vector-effect": "non-scaling-stroke" }),
  ...seats,
  current === null ? null : s("line", {
    x1: x(current), x2: x(current), y1: 0, y2: height, class: "review-now", "data-testid": "review-now",
    "vector-effect": "non-scaling-stroke",
  }));
  svg.addEventListener("click", (ev) => {
    const box = svg.getBoundingClientRect();
    const share = (ev.clientX - box.left) / (box.width || 1);
    // The chart is drawn left to right in every language (time runs that way on it).
    onPick(Math.round(Math.max(0, Math.min(1, share)) * (curve.length - 1)));
  });
  return svg;
}

function legend(names) {
  return h("ul", { class: "review-legend" }, names.map((name, seat) =>
    h("li", {}, h("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}` }), name)));
}

function playersTable(players, names) {
  return h("table", { class: "score-sheet review-players", "data-testid": "review-players" },
    h("thead", {}, h("tr", {}, h("th", {}, t("review.player")), h("th", {}, t("review.accuracy")),
      h("th", { title: t("review.mark.inaccuracy") }, MARK_SIGNS.inaccuracy),
      h("th", { title: t("review.mark.mistake") }, MARK_SIGNS.mistake),
      h("th", { title: t("review.mark.blunder") }, MARK_SIGNS.blunder))),
    h("tbody", {}, players.map((p) => h("tr", {},
      h("th", { class: "side-name" }, names[p.seat] ?? p.name),
      h("td", { "data-testid": "review-accuracy" }, num(Math.round(p.accuracy))),
      h("td", {}, num(p.inaccuracies)), h("td", {}, num(p.mistakes)), h("td", {}, num(p.blunders))))));
}

/**
 * The review panel of a replay. `steps` are the replay's positions ({round, move}); `go(i)`
 * moves the replay to step i. Returns the panel and `show(i)`, called at every step.
 * @param {string} gameId
 * @param {Array<{round: number, move: number}>} steps
 * @param {string[]} names
 * @param {(i: number) => void} go
 * @param {boolean} wanted ask for the review at once if nobody has (else a button asks)
 */
export function reviewPanel(gameId, steps, names, go, wanted) {
  const panel = h("section", { class: "card review", "data-testid": "review", "aria-label": t("review.title") });
  const id = encodeURIComponent(gameId);
  let review = null;
  let index = 0;
  let timer = null;
  let closed = false;
  // The step of each decision, and the decision of each step (by round and move).
  const stepOf = [];
  const decisionAt = new Map();

  function link() {
    const counts = new Map();
    review.moves.forEach((move, d) => {
      const m = counts.get(move.round) || 0;
      counts.set(move.round, m + 1);
      decisionAt.set(`${move.round}:${m}`, d);
    });
    steps.forEach((step, i) => {
      const d = decisionAt.get(`${step.round}:${step.move}`);
      if (d !== undefined) stepOf[d] = i;
    });
  }

  function decisionOf(i) {
    const step = steps[i];
    return step ? decisionAt.get(`${step.round}:${step.move}`) : undefined;
  }

  async function load(ask) {
    try {
      review = ask ? await api("POST", `/api/games/${id}/review`) : await get(`/api/games/${id}/review`);
    } catch (err) {
      review = null;
      if (err.status === 404 && !ask && auth.signedIn && wanted) return load(true);
      if (err.status === 404 && !ask && auth.signedIn) {
        replace(panel, h("button", { type: "button", class: "button", "data-testid": "ask-review", onclick: () => load(true) }, t("review.ask")));
        return;
      }
      replace(panel, h("h2", {}, t("review.title")), err.status === 404 || err.status === 401
        ? h("p", { class: "muted" }, auth.signedIn ? t("replay.none") : t("review.sign_in"))
        : h("p", { class: "form-error" }, err.message));
      return;
    }
    if (review.status === "done") {
      link();
      draw();
      return;
    }
    replace(panel, h("h2", {}, t("review.title")),
      h("p", { "data-testid": "review-progress" }, t(`review.status.${review.status}`, { percent: num(Math.round(review.progress * 100)) })),
      h("progress", { max: 1, value: review.progress }));
    if (!closed) timer = setTimeout(() => load(false), POLL_MS);
  }

  function movesList(d) {
    // The decisions of the current round, each with its mark; a click goes to it.
    const round = d === undefined ? steps[index].round : review.moves[d].round;
    const items = review.moves.map((move, k) => ({ move, k })).filter(({ move }) => move.round === round);
    return h("ol", { class: "review-moves", "data-testid": "review-moves" }, items.map(({ move, k }) =>
      h("li", { class: k === d ? "current" : "" },
        h("button", { type: "button", class: "link", onclick: () => go(stepOf[k] ?? index) },
          `${names[move.seat] ?? move.seat}: ${move.played.tile}`, markBadge(move.mark)))));
  }

  function draw() {
    if (!review || review.status !== "done") return;
    const d = decisionOf(index);
    const move = d === undefined ? null : review.moves[d];
    const better = move && move.loss > 0 && JSON.stringify(move.best) !== JSON.stringify(move.played);
    replace(panel,
      h("h2", {}, t("review.title")),
      h("p", { class: "muted" }, t("review.engine", { budget: num(review.engine.budget) })),
      playersTable(review.players, names),
      curveSvg(review.curve, names, d ?? null, (k) => go(stepOf[k] ?? index)),
      legend(names),
      move ? h("div", { class: "review-move", "data-testid": "review-move" },
        h("p", {}, h("strong", {}, t("review.played", { name: names[move.seat] ?? "" })), " ", choiceView(move.played), " ", markBadge(move.mark),
          move.mark ? h("span", { class: `review-mark-word ${move.mark}`, "data-testid": "review-mark" }, ` ${t(`review.mark.${move.mark}`)}`) : null),
        better ? h("p", { "data-testid": "review-best" }, h("strong", {}, t("review.best")), " ", choiceView(move.best)) : null,
        h("p", { class: "muted" }, move.choices > 1
          ? t("review.values", { played: num(move.value_played), best: num(move.value_best), loss: num(move.loss) })
          : t("review.forced"))) : h("p", { class: "muted" }, t("review.no_decision")),
      movesList(d));
  }

  // Asking is idempotent: a review already asked for (or done) is answered as it stands.
  // Asked for here, or offered with a button: a review nobody asked for is a 404, which a
  // page that only shows the replay does not provoke (POST is idempotent: it answers with
  // the review as it stands, done already or not).
  if (wanted && auth.signedIn) load(true);
  else if (auth.signedIn) replace(panel, h("button", { type: "button", class: "button", "data-testid": "ask-review", onclick: () => load(true) }, t("review.ask")));
  else replace(panel, h("h2", {}, t("review.title")), h("p", { class: "muted" }, t("review.sign_in")));
  return {
    panel,
    /** The replay is at step i: the best move to draw on the board, if another. */
    show(i) {
      index = i;
      draw();
      const d = review && review.status === "done" ? decisionOf(i) : undefined;
      if (d === undefined) return null;
      const move = review.moves[d];
      return { played: move.played, best: move.loss > 0 ? move.best : null, mark: move.mark };
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
