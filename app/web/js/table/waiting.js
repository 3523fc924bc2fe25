// A table before its game: who sits where, joining, computer players, the invitation
// link; and a table that no longer exists.

import { clearTitleAlert } from "../alerts.js";
import { auth, post } from "../api.js";
import { h, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { toast } from "../ui.js";
import { playerName } from "../words.js";

async function join(ctx) {
  try {
    await post(`/api/tables/${encodeURIComponent(ctx.tableId)}/join`, {});
    await ctx.refreshTable();
  } catch (err) {
    toast(t("lobby.join_failed", { reason: err.message }));
  }
}

async function addBot(ctx, strength) {
  try {
    await post(`/api/tables/${encodeURIComponent(ctx.tableId)}/bots`, { strength });
    await ctx.refreshTable();
  } catch (err) {
    toast(t("bot.add_failed", { reason: err.message }));
  }
}

function botControls(ctx) {
  const { state } = ctx;
  // The waiting box is rebuilt whenever what it shows changes (a join), so the choice
  // lives in the state, not in the select that shows it.
  const strength = h("select", {
    name: "strength", "data-testid": "bot-strength",
    onchange: (ev) => { state.botStrength = ev.target.value; },
  },
    ["random", "heuristic", "strong"].map(
      (value) => h("option", { value, selected: value === state.botStrength }, t(`bot.${value}`))));
  return h("div", { class: "form-row add-bot" },
    h("label", {}, t("bot.label"), strength),
    h("button", { type: "button", "data-testid": "add-bot", onclick: () => addBot(ctx, state.botStrength) },
      t("bot.add")));
}

function inviteBox(tableId) {
  const link = `${location.origin}${location.pathname}#/table/${encodeURIComponent(tableId)}`;
  const field = h("input", { readonly: true, value: link, class: "invite-link", "aria-label": t("invite.link"), "data-testid": "invite-link" });
  const copied = h("span", { class: "muted", role: "status" });
  const copy = h("button", { type: "button", "data-testid": "copy-invite", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      field.select();
      document.execCommand("copy");
    }
    copied.textContent = t("invite.copied");
  } }, t("invite.copy"));
  return h("div", { class: "invite" }, h("p", {}, t("invite.text")), h("div", { class: "invite-row" }, field, copy), copied);
}

// What each waiting box was last drawn from: a change that alters nothing in it (a
// socket coming or going) leaves it as it is, so a click on its button that spans the
// change (pressed on one button, released on its replacement) is not lost.
const drawn = new WeakMap();

export function renderGone(ctx) {
  const { el } = ctx;
  drawn.delete(el.waiting);
  el.waiting.hidden = false;
  for (const part of [el.seatsBox, el.statusBar, el.felt, el.mine, el.result, el.courtyard]) part.hidden = true;
  replace(el.waiting,
    h("h2", {}, t("table.gone")),
    h("p", {}, t("table.gone_text")),
    h("p", {}, h("a", { href: "#/lobby", class: "button primary", "data-testid": "to-lobby" }, t("table.back_to_lobby"))));
  replace(el.headActions);
  clearTitleAlert();
}

export function renderWaiting(ctx) {
  const { state, el, tableId } = ctx;
  const v = ctx.view();
  const tb = state.table;
  const isWaiting = !v || !v.seats || v.status === "waiting";
  el.waiting.hidden = !isWaiting;
  for (const part of [el.seatsBox, el.statusBar, el.felt, el.mine]) part.hidden = isWaiting;
  if (!isWaiting) return;
  const seats = (tb && tb.seats) || (v && v.seats) || [];
  const free = seats.filter((x) => !x.player).length;
  const isSeated = ctx.mySeatInTable() !== null;
  const key = JSON.stringify([seats.map((x) => [x.seat, x.player, x.bot]), isSeated, auth.signedIn,
    Boolean(tb && tb.rated), state.botStrength, document.documentElement.lang]);
  if (drawn.get(el.waiting) === key) return;
  drawn.set(el.waiting, key);
  replace(el.waiting,
    h("h2", {}, free ? t("table.waiting_for", { n: free }) : t("table.starting")),
    h("ul", { class: "seat-list" }, seats.map((x) => h("li", { class: x.player ? "taken" : "free" },
      `${num(x.seat + 1)}. ${x.player ? playerName(x, x.seat) : t("lobby.free_seat")}`))),
    !isSeated && free && auth.signedIn
      ? h("button", { type: "button", class: "primary", onclick: () => join(ctx) }, t("table.join")) : null,
    // Computer players sit at casual tables only: ratings are earned among people.
    isSeated && free ? (tb && tb.rated
      ? h("p", { class: "muted", "data-testid": "bots-casual-only" }, t("bot.casual_only"))
      : botControls(ctx)) : null,
    // Signing in or up from here (an invite) comes back to this table.
    !auth.signedIn ? h("p", {}, h("a", {
      href: "#/signin", "data-testid": "signin-to-join",
      onclick: () => sessionStorage.setItem("domino.next", `#/table/${encodeURIComponent(tableId)}`),
    }, t("nav.sign_in")), ` ${t("table.to_take_seat")}`) : null,
    free ? inviteBox(tableId) : null,
    h("p", { class: "muted" }, t("table.starts_by_itself")));
}
