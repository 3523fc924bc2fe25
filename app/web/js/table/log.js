// The game log: every change's events in words, with the hands shown at a round's end.

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { describeEvents } from "../words.js";

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
  replace(log, lines.slice(-200));
  log.scrollTop = log.scrollHeight;
}
