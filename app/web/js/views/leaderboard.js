// Leaderboard per variant, sorted by cumulative points or by Glicko-2 skill.

import { get } from "../api.js";
import { h, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { toast } from "../ui.js";
import { loadVariants } from "../variants.js";
import { variantName } from "../words.js";

const PAGE = 50;

export function renderLeaderboard(root, variant) {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  let sort = params.get("sort") === "skill" ? "skill" : "points";
  let offset = 0;
  const body = h("tbody");
  const info = h("p", { class: "muted" });
  const pager = h("div", { class: "pager" });

  // One tab per variant the server plays (GET /api/variants).
  const variantTabs = h("nav", { class: "tabs", "aria-label": t("leaderboard.variant"), "data-testid": "variant-tabs" });
  loadVariants().then((variants) => replace(variantTabs, variants.map(({ name }) =>
    h("a", { href: `#/leaderboard/${name}`, class: name === variant ? "active" : "", "aria-current": name === variant ? "page" : null }, variantName(name)))))
    .catch((err) => toast(err.message));
  const sortButtons = h("div", { class: "segmented", role: "group", "aria-label": t("leaderboard.sort_by") });

  async function load() {
    replace(sortButtons, ["points", "skill"].map((key) => h("button", {
      type: "button", class: sort === key ? "active" : "", "aria-pressed": sort === key ? "true" : "false",
      onclick: () => {
        sort = key;
        offset = 0;
        load();
      },
    }, key === "points" ? t("leaderboard.points") : t("leaderboard.skill"))));
    try {
      const data = await get(`/api/leaderboard?variant=${encodeURIComponent(variant)}&sort=${sort}&limit=${PAGE}&offset=${offset}`);
      const entries = data.entries || [];
      replace(body, entries.map((e) => h("tr", {},
        h("td", { class: "num" }, num(e.rank)),
        h("td", { class: "player-cell" }, h("a", { href: `#/player/${encodeURIComponent(e.player)}`, translate: "no" }, e.player)),
        h("td", { class: "num" }, num(e.points ?? "")),
        h("td", { class: "num" }, e.skill === undefined ? "" : num(Math.round(e.skill)),
          e.deviation ? h("span", { class: "deviation wide-only" }, ` ±${num(Math.round(e.deviation))}`) : null),
        h("td", { class: "num" }, num(e.games ?? "")),
        h("td", { class: "num wide-only" }, e.wins === undefined ? "" : `${num(e.wins)}/${num(e.losses ?? 0)}`))),
      // An empty board says so in its body, not only above it.
      entries.length ? null : h("tr", { "data-testid": "leaderboard-empty" }, h("td", { colspan: 6, class: "muted" }, t("leaderboard.nobody"))));
      info.textContent = data.total ? t("leaderboard.total", { n: data.total }) : t("leaderboard.nobody");
      replace(pager,
        offset > 0 ? h("button", { type: "button", onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, t("leaderboard.previous")) : null,
        offset + PAGE < (data.total || 0) ? h("button", { type: "button", onclick: () => { offset += PAGE; load(); } }, t("leaderboard.next")) : null);
    } catch (err) {
      toast(err.message);
    }
  }

  root.append(h("section", { class: "leaderboard" },
    h("h1", {}, t("leaderboard.title", { variant: variantName(variant) })),
    variantTabs, sortButtons, info,
    h("div", { class: "table-scroll" }, h("table", { class: "data leaderboard-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("leaderboard.player")), h("th", { scope: "col" }, t("leaderboard.points_short")),
        h("th", { scope: "col" }, t("leaderboard.skill")), h("th", { scope: "col" }, t("leaderboard.games")), h("th", { scope: "col", class: "wide-only" }, t("leaderboard.won_lost")))),
      body)),
    pager));
  load();
}
