// The rules of a variant in a few paragraphs, with the table options explained.

import { h } from "../dom.js";
import { has, t } from "../i18n.js";
import { variantName } from "../words.js";

// The variants with a rules page, and how many paragraphs each has in the catalogue.
const PAGES = { goat: 9, classic: 6, sea_goat: 6, sport_goat: 4, general: 5, donkey: 5 };

export function renderRules(root, variant) {
  const shown = variant in PAGES ? variant : "goat";
  const paragraphs = [];
  for (let i = 1; i <= PAGES[shown]; i++) {
    const key = `rules.${shown}.${i}`;
    if (has(key)) paragraphs.push(h("li", {}, t(key)));
  }
  root.append(h("section", { class: "rules-page", "data-testid": "rules" },
    h("nav", { class: "tabs", "aria-label": t("rules.variants") },
      Object.keys(PAGES).map((v) => h("a", { href: `#/rules/${v}`, class: v === shown ? "active" : "", "aria-current": v === shown ? "page" : null }, variantName(v)))),
    h("h1", {}, t("rules.title", { variant: variantName(shown) })),
    h("ol", { class: "rules-list card" }, paragraphs),
    shown === "goat" || shown === "donkey" ? h("section", { class: "card", "data-testid": "fish-rules" },
      h("h2", {}, t("create.fish")),
      h("dl", { class: "rules-options" },
        h("dt", {}, t("option.fish_rule.all")), h("dd", {}, t("rules.fish_all")),
        h("dt", {}, t("option.fish_rule.one")), h("dd", {}, t("rules.fish_one")))) : null,
    h("p", {}, h("a", { href: "#/lobby", class: "button" }, t("table.back_to_lobby")))));
}
