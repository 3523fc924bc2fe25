// The status line: whose turn, the move clock, a carried fish, the round, the bazaar
// (or General's tally) and the watchers.

import { sound } from "../alerts.js";
import { h, replace } from "../dom.js";
import { duration, num, signedNum, t } from "../i18n.js";
import { fishIcon, tileBack } from "../tiles.js";
import { toast } from "../ui.js";

const WARN_MS = 10_000;

/** The Generals per team, for the table's status line (RULES §12). */
function generalsTally(v) {
  if (!Array.isArray(v.generals)) return null;
  return h("span", { class: "generals-tally", "data-testid": "generals-tally" },
    t("table.generals", { a: num(v.generals[0] ?? 0), b: num(v.generals[1] ?? 0) }));
}

export function renderStatus(ctx) {
  const { el } = ctx;
  const v = ctx.view();
  if (v.status === "finished") el.turnText.textContent = t("table.game_over");
  else if (v.next_round_at) el.turnText.textContent = t("table.next_round_in", { n: Math.ceil(ctx.pausedFor() / 1000) });
  else if (v.turn === null || v.turn === undefined) el.turnText.textContent = "";
  else if (v.turn === v.you) el.turnText.replaceChildren(h("strong", { class: "your-turn" }, t("table.your_turn")));
  else el.turnText.textContent = t("table.their_turn", { name: ctx.name(v.turn) });
  tick(ctx);
  if (v.carry > 0) replace(el.carry, fishIcon(), h("span", {}, signedNum(v.carry)));
  else el.carry.replaceChildren();
  el.carry.title = v.carry > 0 ? t("table.carry", { n: v.carry }) : "";
  roundLine(ctx, v);
  const tally = generalsTally(v);
  if (tally) replace(el.bazaarInfo, tally);
  else replace(el.bazaarInfo, tileBack({ cls: "mini" }), ` ${t("table.bazaar", { n: v.bazaar ?? 0 })}`);
  el.watchers.textContent = v.spectators > 0 ? t("table.spectators", { n: v.spectators }) : "";
}

/** The round, with the count of the open ends (variants that score during play) or the
 * time left of a game of set minutes (General, whose view says when it started). */
function roundLine(ctx, v) {
  const round = typeof v.count === "number"
    ? t("table.round_count", { n: (v.round ?? 0) + 1, count: v.count })
    : t("table.round", { n: (v.round ?? 0) + 1 });
  const timed = typeof v.minutes === "number" && typeof v.started_ms === "number" && v.status === "playing";
  const left = timed ? v.started_ms + v.minutes * 60_000 - ctx.serverNow() : 0;
  ctx.el.roundInfo.textContent = timed ? `${round} · ${t("table.time_left", { time: duration(left) })}` : round;
}

/** The clocks, four times a second: the move's, and the pause's between rounds. */
export function tick(ctx) {
  const { state, el } = ctx;
  const v = ctx.view();
  if (v && v.seats && typeof v.minutes === "number") roundLine(ctx, v);
  if (v && v.next_round_at) {
    const left = ctx.pausedFor();
    el.turnText.textContent = t("table.next_round_in", { n: Math.ceil(left / 1000) });
    const countdown = el.summaryBox.querySelector("[data-testid=next-round]");
    if (countdown) countdown.textContent = t("table.next_round_in", { n: Math.ceil(left / 1000) });
  }
  if (!v || v.status !== "playing" || !v.deadline) {
    el.timer.textContent = "";
    el.timer.classList.remove("low");
    return;
  }
  // The deadline is on the server's clock; state.skew corrects for this machine's. It
  // counts the player's reserve too (PROTOCOL §2g): the turn time runs first, then that.
  const left = v.deadline - ctx.serverNow();
  const reserve = (v.clock && v.clock.reserve_ms && v.clock.reserve_ms[v.turn]) || 0;
  const turnLeft = left - reserve;
  const inReserve = reserve > 0 && turnLeft <= 0;
  el.timer.textContent = inReserve ? t("clock.in_reserve", { time: duration(left) })
    : reserve > 0 ? t("clock.turn_and_reserve", { time: duration(turnLeft), reserve: duration(reserve) })
      : duration(left);
  el.timer.classList.toggle("reserve", inReserve);
  const low = left < WARN_MS;
  el.timer.classList.toggle("low", low);
  if (low && left > 0 && v.turn === v.you && state.warned !== v.deadline) {
    state.warned = v.deadline;
    sound("warning");
    toast(t("alert.time_low", { n: Math.ceil(left / 1000) }), "warning");
  }
}
