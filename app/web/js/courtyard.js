// The courtyard table (PROTOCOL §2d): four play in two teams, the others wait in a
// queue; the losing team gives way. Shared by the lobby's cards and the table's page.

import { api, auth, post } from "./api.js";
import { h, nameTag } from "./dom.js";
import { num, t } from "./i18n.js";
import { toast } from "./ui.js";

/** Whether a game of `info` (a variant of GET /api/variants) with these seats and options
 * is played by two teams, as the variant declares it: a courtyard needs one. */
export function twoTeams(info, seats, options) {
  if (!info || !info.teams || seats !== 4) return false;
  return info.team_option === null || info.team_option === undefined || options[info.team_option] === true;
}

/** The courtyard's part of a table (its `table` object or its view's `courtyard`). */
export function yardOf(source) {
  if (!source) return null;
  if (source.courtyard && typeof source.courtyard === "object") return source.courtyard;
  return source.courtyard === true ? source : null;
}

/** What the signed-in player may do at a courtyard: "leave" (he waits, or comes in next),
 * "join" (a place is free for him), or null. `seated`: he sits at its game now. */
export function queueAction(yard, seated, freeSeat) {
  const me = auth.player;
  if (!me || !yard) return null;
  const coming = (yard.next || []).includes(me.name);
  if ((yard.queue || []).includes(me.name) || coming) return "leave";
  if (seated || freeSeat || (yard.queue || []).length >= yard.waiting_max) return null;
  return "join";
}

/** Join or leave a courtyard's queue; true when done. */
export async function changeQueue(tableId, action) {
  const path = `/api/tables/${encodeURIComponent(tableId)}/queue`;
  try {
    if (action === "join") await post(path);
    else await api("DELETE", path);
    return true;
  } catch (err) {
    toast(err.message);
    return false;
  }
}

/** The queue as a list of names, first first (or "Nobody waits"). */
export function queueList(yard) {
  const queue = yard.queue || [];
  if (!queue.length) return h("p", { class: "muted", "data-testid": "queue-empty" }, t("courtyard.queue_empty"));
  // Numbered in the language's digits (a list's own numbers are Latin ones).
  return h("ul", { class: "queue-list seat-list", "data-testid": "queue", "aria-label": t("courtyard.queue") },
    queue.map((name, i) => h("li", {}, `${num(i + 1)}. `, nameTag(name))));
}

/** One line: games played and how many wait. */
export function yardLine(yard) {
  return `${t("courtyard.games", { n: yard.games })} · ${t("courtyard.waiting", {
    n: (yard.queue || []).length, max: yard.waiting_max })}`;
}
