// The game log: every change's events in words, with the hands shown at a round's end.
// Whoever arrives after the game began (a spectator, a player in a new tab) gets its
// events from the start from the server.

import { get } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { describeEvents } from "../words.js";

const LINES = 2000;

/** Fetch the game's events from its start when this tab did not see it begin. */
export async function fetchWholeLog(ctx) {
  const { kept, tableId } = ctx;
  const begun = (ev) => ev.type === "start" || (ev.type === "round_start" && ev.round === 0);
  if (kept.changes.some((c) => c.events.some(begun))) return;
  let found;
  try {
    found = await get(`/api/tables/${encodeURIComponent(tableId)}/log`);
  } catch {
    return; // the log shows what this tab sees from now on
  }
  if (!found || !Array.isArray(found.events) || !found.events.length) return;
  kept.replaceUpTo(found.version, found.events);
  renderLog(ctx);
}

export function renderLog(ctx) {
  const v = ctx.view();
  if (!v) return;
  const lines = [];
  for (const change of ctx.kept.changes) {
    lines.push(...describeEvents(change.events, v).map((text) => h("li", {}, text)));
    for (const ev of change.events) {
      if (ev.type === "round_end" && Array.isArray(ev.hands)) {
        lines.push(h("li", { class: "muted" }, t("log.hands", {
          list: ev.hands.map((tiles, s) => `${ctx.name(s)} ${tiles.length ? tiles.join(" ") : "—"}`).join("; "),
        })));
      }
    }
  }
  const log = ctx.el.log;
  replace(log, lines.slice(-LINES));
  log.scrollTop = log.scrollHeight;
}
