// A player's page: ratings per variant, the rating history as a small line chart,
// and recent games (each opens the replay).

import { api, auth, get, post } from "../api.js";
import { formatDate, h, nameTag, s, signed } from "../dom.js";
import { num, t } from "../i18n.js";
import { reportButton } from "../report.js";
import { toast } from "../ui.js";
import { loadVariants } from "../variants.js";
import { variantName } from "../words.js";

/** History points [{x: time, y: points}] → a small SVG line chart. */
function lineChart(points, { width = 320, height = 120, label = "" } = {}) {
  const pad = { l: 34, r: 8, t: 8, b: 18 };
  const ys = points.map((p) => p.y);
  const minY = Math.min(0, ...ys);
  const maxY = Math.max(1, ...ys);
  const n = points.length;
  const x = (i) => pad.l + (n <= 1 ? (width - pad.l - pad.r) / 2 : (i * (width - pad.l - pad.r)) / (n - 1));
  const y = (v) => pad.t + (height - pad.t - pad.b) * (1 - (v - minY) / (maxY - minY || 1));
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": `${label}: ${ys.map(num).join(", ")}` },
    s("line", { x1: pad.l, y1: y(minY), x2: width - pad.r, y2: y(minY), class: "axis" }),
    s("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: height - pad.b, class: "axis" }),
    s("text", { x: pad.l - 4, y: y(maxY) + 4, class: "chart-label", "text-anchor": "end" }, num(maxY)),
    s("text", { x: pad.l - 4, y: y(minY), class: "chart-label", "text-anchor": "end" }, num(minY)),
    s("text", { x: width - pad.r, y: height - 4, class: "chart-label", "text-anchor": "end" }, t("player.games", { n: Math.max(0, n - 1) })),
    s("path", { d: path, class: "chart-line" }),
    points.map((p, i) => s("circle", { cx: x(i), cy: y(p.y), r: 2.5, class: "chart-dot" }, s("title", {}, `${num(p.y)} (${signed(p.gain)})`))));
}

function historyFor(page, variant) {
  if (Array.isArray(page.history) && page.history.length) {
    const steps = page.history.filter((st) => st.variant === variant)
      .sort((a, b) => a.finished_at - b.finished_at)
      .map((st) => ({ y: st.points, gain: st.gained ?? 0 }));
    // Start the line where the player stood before his first game in it.
    if (steps.length) steps.unshift({ y: steps[0].y - steps[0].gain, gain: 0 });
    return steps;
  }
  // Without a history, walk back from the current points through the recent games.
  const games = (page.recent_games || []).filter((g) => g.variant === variant && g.rated !== false)
    .sort((a, b) => a.finished_at - b.finished_at);
  let points = ((page.ratings || {})[variant] || {}).points || 0;
  const out = [];
  for (let i = games.length - 1; i >= 0; i--) {
    out.unshift({ y: points, gain: games[i].rating || 0 });
    points -= games[i].rating || 0;
  }
  if (out.length) out.unshift({ y: points, gain: 0 });
  return out;
}

/** How the game went for the player: won, lost, the goat, resigned, ran out of time. */
function outcomeWords(g) {
  if (g.outcome === "won") return t("player.won");
  if (g.outcome === "draw") return t("player.draw");
  if (g.reason === "resign") return t("player.resigned");
  if (g.reason === "timeout") return t("player.timed_out");
  if (g.reason === "goat") return t("player.goat");
  return t("player.lost");
}

/** "Add friend", "Challenge" (a game of two, Goat unless chosen) and "Block". */
function peopleActions(name) {
  const path = encodeURIComponent(name);
  const said = (text) => toast(text, "info");
  const act = (fn) => async () => {
    try {
      await fn();
    } catch (err) {
      toast(err.message);
    }
  };
  const variant = h("select", { "aria-label": t("create.game"), "data-testid": "challenge-variant" });
  loadVariants().then((all) => {
    variant.replaceChildren(...all.filter((v) => v.players[0] <= 2 && v.players[1] >= 2)
      .map((v) => h("option", { value: v.name }, variantName(v.name))));
  }).catch(() => {});
  return h("div", { class: "actions people-actions" },
    h("button", { type: "button", "data-testid": "add-friend", onclick: act(async () => {
      const done = await post(`/api/friends/${path}`);
      said(done.status === "friends" ? t("people.now_friends") : t("people.request_sent"));
    }) }, t("people.add_friend")),
    variant,
    h("button", { type: "button", class: "primary", "data-testid": "challenge", onclick: act(async () => {
      await post("/api/challenges", { to: name, variant: variant.value || "goat", seats: 2 });
      said(t("people.challenge_sent"));
    }) }, t("people.challenge")),
    h("button", { type: "button", class: "danger-outline", "data-testid": "block", onclick: act(async () => {
      await api("POST", `/api/blocks/${path}`);
      said(t("people.blocked"));
    }) }, t("people.block")));
}

export async function renderPlayer(root, name) {
  const section = h("section", { class: "player-page" }, h("h1", {}, nameTag(name)));
  root.append(section);
  if (auth.signedIn && auth.player.name.toLowerCase() !== name.toLowerCase()) section.append(peopleActions(name), reportButton([name]));
  let page;
  try {
    page = await get(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    section.append(h("p", { class: "form-error" }, err.status === 404 ? t("player.none") : err.message));
    return;
  }
  const ratings = page.ratings || {};
  const variants = Object.keys(ratings);
  if (!variants.length) section.append(h("p", { class: "muted" }, t("player.no_rated")));
  section.append(h("div", { class: "rating-cards" }, variants.map((v) => {
    const r = ratings[v];
    const hist = historyFor(page, v);
    return h("div", { class: "card rating-card", dataset: { variant: v } },
      h("h2", {}, variantName(v)),
      h("dl", { class: "stats" },
        h("dt", {}, t("leaderboard.points")), h("dd", {}, num(r.points ?? 0)),
        h("dt", {}, t("leaderboard.skill")), h("dd", {}, r.skill === undefined ? "—" : `${num(Math.round(r.skill))} ±${num(Math.round(r.deviation ?? 0))}`),
        h("dt", {}, t("leaderboard.games")), h("dd", {}, num(r.games ?? 0)),
        h("dt", {}, t("player.won_lost")), h("dd", {}, `${num(r.wins ?? 0)} / ${num(r.losses ?? 0)}`),
        r.goats !== undefined && r.goats !== null ? [h("dt", {}, t("player.goats")), h("dd", {}, num(r.goats))] : null),
      hist.length ? lineChart(hist, { label: t("player.history", { variant: variantName(v) }) }) : h("p", { class: "muted" }, t("player.no_history")));
  })));

  const games = page.recent_games || [];
  section.append(h("h2", {}, t("player.recent")));
  if (!games.length) {
    section.append(h("p", { class: "muted" }, t("player.no_games")));
    return;
  }
  const heads = [t("player.when"), t("player.game"), t("player.result"), t("player.score"), t("player.rating"), ""];
  // On a phone each row becomes a small card; data-label names its cells there.
  const cell = (i, attrs, ...children) => h("td", { ...attrs, "data-label": heads[i] }, ...children);
  section.append(h("div", { class: "table-scroll" }, h("table", { class: "data recent-games" },
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, games.map((g) => h("tr", { class: g.outcome },
      cell(0, {}, formatDate(g.finished_at)),
      cell(1, {}, variantName(g.variant), g.rated === false ? h("span", { class: "muted" }, ` ${t("player.casual")}`) : null),
      cell(2, { "data-testid": "outcome" }, outcomeWords(g)),
      cell(3, { class: "num" }, num(g.final ?? "")),
      cell(4, { class: "num" }, signed(g.rating ?? 0)),
      cell(5, {}, h("a", { href: `#/replay/${encodeURIComponent(g.game_id)}` }, t("result.replay")), " · ",
        h("a", { href: `#/review/${encodeURIComponent(g.game_id)}`, "data-testid": "review-game" }, t("review.ask")))))))));
}
