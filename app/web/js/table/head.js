// The table's heading: the game's name, its options and clock, and the actions a player
// has there (resign with a confirmation, leave a waiting table, notifications).

import { askNotifications, canAskNotifications, setTitle } from "../alerts.js";
import { auth, post } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { navigate, pill, toast } from "../ui.js";
import { variantInfo } from "../variants.js";
import { optionWords, variantName } from "../words.js";

async function leave(ctx) {
  try {
    await post(`/api/tables/${encodeURIComponent(ctx.tableId)}/leave`);
    navigate("#/lobby");
  } catch (err) {
    toast(err.message);
  }
}

export function renderHead(ctx) {
  const { state, el } = ctx;
  const v = ctx.view();
  const tb = state.table;
  const variant = (v && v.variant) || (tb && tb.variant);
  const options = (v && v.options) || (tb && tb.options) || {};
  el.title.textContent = variant ? variantName(variant) : t("table.title");
  setTitle(`${variant ? variantName(variant) : t("table.title")} — ${t("site.brand")}`);
  // The game's length in every case, defaults included: its target, rounds or minutes
  // as the server's view says them.
  const length = [["target", "table.target"], ["rounds_total", "option.rounds"], ["minutes", "option.minutes"]]
    .filter(([key]) => v && typeof v[key] === "number")
    .map(([key, words]) => t(words, { n: v[key], value: v[key] }));
  // A target no option sets (Goat's 101) is the variant's own, as GET /api/variants says.
  const fixed = variant && variantInfo(variant);
  if (!length.length && fixed && typeof fixed.target === "number") length.push(t("table.target", { n: fixed.target }));
  const shown = length.length ? Object.fromEntries(Object.entries(options)
    .filter(([key]) => !["target", "rounds", "minutes"].includes(key))) : options;
  const bits = [...length, ...optionWords(variant, shown)];
  if (variant) {
    el.rulesLink.hidden = false;
    el.rulesLink.href = `#/rules/${encodeURIComponent(variant)}`;
    el.rulesLink.textContent = t("rules.table_link", { variant: variantName(variant) });
  }
  if (tb) {
    // Rated or casual first: a phone's one line cuts the subtitle's end.
    bits.unshift(tb.rated ? t("table.rated") : t("table.casual"));
    bits.push(t("table.seconds_per_move", { n: tb.turn_seconds ?? 30 }));
    if (tb.reserve_seconds) bits.push(t("clock.table_reserve", { n: tb.reserve_seconds }));
    if (tb.round_pause_seconds) bits.push(t("table.pause", { n: tb.round_pause_seconds }));
  }
  el.subtitle.textContent = bits.join(" · ");
  el.subtitle.title = el.subtitle.textContent;

  const actions = [];
  const playing = v && v.status === "playing";
  if (playing && ctx.seated(v)) {
    if (state.confirmResign) {
      actions.push(h("span", { class: "confirm", role: "group", "aria-label": t("table.confirm_resign") },
        `${t("table.resign_question")} `,
        h("button", { type: "button", class: "danger", "data-testid": "resign-yes", onclick: () => {
          state.confirmResign = false;
          ctx.send({ type: "resign" });
          ctx.render();
        } }, t("table.resign_yes")),
        h("button", { type: "button", onclick: () => {
          state.confirmResign = false;
          ctx.render();
        } }, t("table.keep_playing"))));
    } else {
      actions.push(h("button", { type: "button", class: "danger-outline", "data-testid": "resign", onclick: () => {
        state.confirmResign = true;
        ctx.render();
        const yes = el.headActions.querySelector("[data-testid=resign-yes]");
        if (yes) yes.focus();
      } }, t("table.resign")));
    }
  } else if (!playing && !(v && v.status === "finished") && tb && ctx.mySeatInTable() !== null) {
    actions.push(h("button", { type: "button", onclick: () => leave(ctx) }, t("table.leave")));
  }
  if (canAskNotifications() && (ctx.seated(v) || ctx.mySeatInTable() !== null)) {
    actions.push(h("button", { type: "button", class: "link-button", "data-testid": "notify", onclick: async () => {
      await askNotifications();
      ctx.render();
    } }, t("table.enable_notifications")));
  }
  // A seat a computer player holds for me since I timed out (PROTOCOL §2g): mine again at
  // my next turn, once asked for.
  const me = auth.player;
  const held = playing && !ctx.seated(v) && me ? (v.seats || []).find((x) => x.stand_in_for === me.name) : null;
  if (held && held.reclaiming) actions.push(pill(t("clock.reclaim_waiting"), "watching"));
  else if (held) {
    actions.push(h("button", { type: "button", class: "primary", "data-testid": "reclaim", onclick: () => {
      ctx.send({ type: "seat.reclaim" });
    } }, t("clock.reclaim")));
  } else if (v && !ctx.seated(v) && v.status !== "waiting") actions.push(pill(t("table.watching"), "watching"));
  if (tb && tb.private) actions.push(pill(t("people.private"), "private"));
  replace(el.headActions, actions);
}
