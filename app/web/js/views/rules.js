// The rules of a variant in a few paragraphs, with the table options explained. Every
// variant the server plays (GET /api/variants) has a page; its paragraphs are the
// catalogue's `rules.<variant>.1`, `.2`, ... in the page's language.

import { h } from "../dom.js";
import { has, t } from "../i18n.js";
import { loadVariants } from "../variants.js";
import { variantName } from "../words.js";

function paragraphs(variant) {
  const out = [];
  for (let i = 1; has(`rules.${variant}.${i}`); i++) out.push(h("li", {}, t(`rules.${variant}.${i}`)));
  return out;
}

export async function renderRules(root, variant) {
  let names = [];
  try {
    names = (await loadVariants()).map((v) => v.name);
  } catch {
    names = [variant];
  }
  const shown = names.includes(variant) ? variant : names[0] || variant;
  const options = (((await loadVariants().catch(() => [])).find((v) => v.name === shown)) || {}).options || {};
  root.append(h("section", { class: "rules-page", "data-testid": "rules" },
    h("nav", { class: "tabs", "aria-label": t("rules.variants") },
      names.map((v) => h("a", { href: `#/rules/${encodeURIComponent(v)}`, class: v === shown ? "active" : "", "aria-current": v === shown ? "page" : null }, variantName(v)))),
    h("h1", {}, t("rules.title", { variant: variantName(shown) })),
    h("ol", { class: "rules-list card" }, paragraphs(shown)),
    "fish_rule" in options ? h("section", { class: "card", "data-testid": "fish-rules" },
      h("h2", {}, t("create.fish")),
      h("dl", { class: "rules-options" },
        h("dt", {}, t("option.fish_rule.all")), h("dd", {}, t("rules.fish_all")),
        h("dt", {}, t("option.fish_rule.one")), h("dd", {}, t("rules.fish_one")))) : null,
    h("p", {}, h("a", { href: "#/lobby", class: "button" }, t("table.back_to_lobby")))));
}
