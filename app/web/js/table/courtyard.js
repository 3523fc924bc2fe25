// A courtyard table's box on its page (PROTOCOL §2d): the games played, who waits, the
// next game's four between two games, and "Join the queue" / "Leave the queue".

import { h, nameTag, replace } from "../dom.js";
import { t } from "../i18n.js";
import { changeQueue, queueAction, queueList, yardLine, yardOf } from "../courtyard.js";

// What the box was last drawn from: a move leaves it (and its button) as it is.
const drawn = new WeakMap();

export function renderCourtyard(ctx) {
  const { state, el, tableId } = ctx;
  const v = ctx.view();
  const yard = yardOf(v) || yardOf(state.table);
  el.courtyard.hidden = !yard;
  if (!yard) return;
  const status = (v && v.status) || (state.table && state.table.status);
  const seatedNow = status !== "finished" && (ctx.seated(v) || ctx.mySeatInTable() !== null);
  const seats = (v && v.seats) || (state.table && state.table.seats) || [];
  const freeSeat = status === "waiting" && seats.some((x) => !x.player);
  const action = queueAction(yard, seatedNow, freeSeat);
  const key = JSON.stringify([yard, action, document.documentElement.lang]);
  if (drawn.get(el.courtyard) === key) return;
  drawn.set(el.courtyard, key);
  // The names stay names (isolated, untranslated) inside the sentence around them.
  const [before, after] = t("courtyard.next", { names: "\u0000" }).split("\u0000");
  const names = (yard.next || []).flatMap((name, i) => [i ? " · " : "",
    name === null ? t("courtyard.open_seat") : nameTag(name)]);
  const next = yard.next ? h("p", { "data-testid": "courtyard-next" }, before, ...names, after ?? "") : null;
  const button = action ? h("button", {
    type: "button", class: action === "join" ? "primary" : "", "data-testid": `queue-${action}`,
    onclick: async (ev) => {
      ev.currentTarget.disabled = true;
      if (await changeQueue(tableId, action)) await ctx.refreshTable();
    },
  }, t(action === "join" ? "courtyard.join" : "courtyard.leave")) : null;
  replace(el.courtyard,
    h("div", { class: "courtyard-head" },
      h("h2", {}, t("courtyard.title")),
      h("span", { class: "muted", "data-testid": "courtyard-line" }, yardLine(yard))),
    h("p", { class: "hint" }, t("courtyard.rule")),
    h("h3", {}, t("courtyard.queue")),
    queueList(yard), next, button);
}
