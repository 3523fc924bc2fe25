// A player's page: ratings per variant, the rating history as a small line chart,
// and recent games (each opens the replay).

import { get } from "../api.js";
import { formatDate, h, s, signed } from "../dom.js";
import { variantName } from "../words.js";

/** History points [{x: time, y: points}] → a small SVG line chart. */
function lineChart(points, { width = 320, height = 120, label = "Rating" } = {}) {
  const pad = { l: 34, r: 8, t: 8, b: 18 };
  const ys = points.map((p) => p.y);
  const minY = Math.min(0, ...ys);
  const maxY = Math.max(1, ...ys);
  const n = points.length;
  const x = (i) => pad.l + (n <= 1 ? (width - pad.l - pad.r) / 2 : (i * (width - pad.l - pad.r)) / (n - 1));
  const y = (v) => pad.t + (height - pad.t - pad.b) * (1 - (v - minY) / (maxY - minY || 1));
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": `${label}: ${ys.join(", ")}` },
    s("line", { x1: pad.l, y1: y(minY), x2: width - pad.r, y2: y(minY), class: "axis" }),
    s("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: height - pad.b, class: "axis" }),
    s("text", { x: pad.l - 4, y: y(maxY) + 4, class: "chart-label", "text-anchor": "end" }, String(maxY)),
    s("text", { x: pad.l - 4, y: y(minY), class: "chart-label", "text-anchor": "end" }, String(minY)),
    s("text", { x: width - pad.r, y: height - 4, class: "chart-label", "text-anchor": "end" }, `${Math.max(0, n - 1)} game${n === 2 ? "" : "s"}`),
    s("path", { d: path, class: "chart-line" }),
    points.map((p, i) => s("circle", { cx: x(i), cy: y(p.y), r: 2.5, class: "chart-dot" }, s("title", {}, `${p.y} (${signed(p.gain)})`))));
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

export async function renderPlayer(root, name) {
  const section = h("section", { class: "player-page" }, h("h1", {}, name));
  root.append(section);
  let page;
  try {
    page = await get(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    section.append(h("p", { class: "form-error" }, err.status === 404 ? "No such player." : err.message));
    return;
  }
  const ratings = page.ratings || {};
  const variants = Object.keys(ratings);
  if (!variants.length) section.append(h("p", { class: "muted" }, "No rated games yet."));
  section.append(h("div", { class: "rating-cards" }, variants.map((v) => {
    const r = ratings[v];
    const hist = historyFor(page, v);
    return h("div", { class: "card rating-card", dataset: { variant: v } },
      h("h2", {}, variantName(v)),
      h("dl", { class: "stats" },
        h("dt", {}, "Rating points"), h("dd", {}, String(r.points ?? 0)),
        h("dt", {}, "Skill"), h("dd", {}, r.skill === undefined ? "—" : `${Math.round(r.skill)} ±${Math.round(r.deviation ?? 0)}`),
        h("dt", {}, "Games"), h("dd", {}, String(r.games ?? 0)),
        h("dt", {}, "Won / lost"), h("dd", {}, `${r.wins ?? 0} / ${r.losses ?? 0}`),
        r.goats !== undefined && r.goats !== null ? [h("dt", {}, "Times the goat"), h("dd", {}, String(r.goats))] : null),
      hist.length ? lineChart(hist, { label: `${variantName(v)} rating history` }) : h("p", { class: "muted" }, "No history yet."));
  })));

  const games = page.recent_games || [];
  section.append(h("h2", {}, "Recent games"));
  if (!games.length) {
    section.append(h("p", { class: "muted" }, "No finished games yet."));
    return;
  }
  section.append(h("div", { class: "table-scroll" }, h("table", { class: "data recent-games" },
    h("thead", {}, h("tr", {}, ["When", "Game", "Result", "Score", "Rating", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, games.map((g) => h("tr", { class: g.outcome },
      h("td", {}, formatDate(g.finished_at)),
      h("td", {}, variantName(g.variant), g.rated === false ? h("span", { class: "muted" }, " (casual)") : null),
      h("td", {}, g.outcome === "won" ? "Won" : g.outcome === "lost" ? (g.variant === "goat" ? "Goat" : "Lost") : String(g.outcome ?? "")),
      h("td", { class: "num" }, String(g.final ?? "")),
      h("td", { class: "num" }, signed(g.rating ?? 0)),
      h("td", {}, h("a", { href: `#/replay/${encodeURIComponent(g.game_id)}` }, "Replay"))))))));
}
