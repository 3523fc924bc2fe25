// The game log: every change's events in words, with the hands shown at a round's end.
// Whoever arrives after the game began (a spectator, a player in a new tab) gets its
// events from the start from the server.

import { get } from "../api.js";
import { h, replace } from "../dom.js";
import { t, tileName } from "../i18n.js";
import { describeEvents } from "../words.js";

const LINES = 2000;
const shownIn = new WeakMap(); // log element -> the kept changes it shows: {count, rewrites}

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

/** The log's lines for some changes' events. */
function linesOf(ctx, changes, v) {
  const lines = [];
  for (const change of changes) {
    lines.push(...describeEvents(change.events, v).map((text) => h("li", {}, text)));
    for (const ev of change.events) {
      if (ev.type === "round_end" && Array.isArray(ev.hands)) {
        lines.push(h("li", { class: "muted" }, t("log.hands", {
          list: ev.hands.map((tiles, s) => `${ctx.name(s)} ${tiles.length ? tiles.map(tileName).join(" ") : "—"}`).join("; "),
        })));
      }
    }
  }
  return lines;
}

/** Bring the log up to the kept changes. A change that only adds to them adds its own
 * lines (a game's log grows by a few lines a move; redrawing it all each time would make
 * a long game cost a phone more with every move); a rewrite of them (the whole game's
 * log fetched, `kept.rewrites`) redraws the whole. */
export function renderLog(ctx) {
  const v = ctx.view();
  if (!v) return;
  const log = ctx.el.log;
  const changes = ctx.kept.changes;
  const shown = shownIn.get(log);
  const grows = Boolean(shown) && shown.rewrites === ctx.kept.rewrites && shown.count <= changes.length;
  if (grows) {
    log.append(...linesOf(ctx, changes.slice(shown.count), v));
    while (log.childElementCount > LINES) log.firstElementChild.remove();
  } else {
    replace(log, linesOf(ctx, changes, v).slice(-LINES));
  }
  shownIn.set(log, { count: changes.length, rewrites: ctx.kept.rewrites });
  log.scrollTop = log.scrollHeight;
}
