// What the server's messages mean for the table: a new state (with the events that made
// it), presence, errors; and what those events mean for the player (alerts, the last
// tile, a seat's draw or knock, the round summary).

import { alertPlayer, clearTitleAlert } from "../alerts.js";
import { t } from "../i18n.js";
import { socket } from "../socket.js";
import { toast } from "../ui.js";
import { describeEvents, seatName, variantName } from "../words.js";
import { notePops } from "./board.js";
import { fetchWholeLog, renderLog } from "./log.js";
import { modeMoves } from "./moves.js";

function noteEvents(ctx, events, v, before) {
  const { state } = ctx;
  for (const ev of events) {
    // A seat's "drew 2, knocked" tells its last turn: once another seat moves, it is over.
    if (["play", "draw", "knock"].includes(ev.type)) {
      for (const seat of Object.keys(state.acts)) if (Number(seat) !== ev.seat) delete state.acts[seat];
    }
    if (ev.type === "play") {
      state.lastTile = ev.tile;
      delete state.acts[ev.seat];
    } else if (ev.type === "draw") {
      state.acts[ev.seat] = t("seat.drew", { n: ev.count ?? 1 });
    } else if (ev.type === "knock") {
      // "drew 3, knocked" once: a second knock in a row says nothing new.
      const act = state.acts[ev.seat];
      const knocked = t("seat.knocked");
      state.acts[ev.seat] = !act ? knocked : act.endsWith(knocked) ? act : `${act}, ${knocked}`;
    } else if (ev.type === "round_end") {
      // A round cut short by a resignation is told as one (the timeout event says which).
      const resigned = events.some((e) => e.type === "timeout" && e.reason === "resign");
      state.summary = { ...ev, points: (ev.end || {}).points, end: { ...(ev.end || {}), resigned } };
      state.lastTile = null;
      state.acts = {};
    } else if (ev.type === "round_resume" || ev.type === "round_start") {
      if (ev.type === "round_resume" || !v.next_round_at) {
        if (state.summary && v.status === "playing" && !v.next_round_at) state.summary = null;
      }
    }
  }
  // A game begins: the table's first, or a courtyard's next (PROTOCOL §2d), new seats too.
  if (before && before.game_id !== v.game_id && v.status === "playing" && ctx.seated(v)) {
    alertPlayer("start", t("alert.game_started"), t("alert.game_started_body", { game: variantName(v.variant) }));
  }
  if (v.status === "playing" && !v.next_round_at && v.turn === v.you && ctx.seated(v)) {
    const key = `${v.round}:${v.deadline}`;
    if (state.alerted !== key) {
      state.alerted = key;
      alertPlayer("turn", t("alert.your_turn"), t("alert.your_turn_body", { game: variantName(v.variant) }));
    }
  } else clearTitleAlert();
}

/** Tell a screen reader the change: its moves in words, then whose turn it is now. */
function announce(ctx, events, v) {
  const words = describeEvents(events, v);
  if (v.status === "playing" && !v.next_round_at && v.turn !== null && v.turn !== undefined) {
    words.push(v.turn === v.you ? t("table.your_turn") : t("table.their_turn", { name: seatName(v, v.turn) }));
  }
  if (words.length) ctx.el.announce.textContent = words.join(". ");
}

export function onState(ctx, msg) {
  const { state, tableId, kept } = ctx;
  if (msg.table_id !== tableId) return;
  const seq = msg.seq;
  if (state.seq !== null && typeof seq === "number") {
    if (seq < state.seq) return; // an old message that arrived late
    if (seq > state.seq + 1) socket.send({ type: "table.subscribe", table_id: tableId }); // a gap
  }
  if (typeof msg.server_time === "number") state.skew = msg.server_time - Date.now();
  const fresh = state.seq === null || seq > state.seq;
  const before = state.view;
  state.seq = seq;
  state.gone = false;
  ctx.el.page.dataset.seq = String(seq); // lets tests (and curious players) see the table's version
  state.view = msg.view || null;
  state.sending = false;
  state.notSent = false;
  const v = state.view;
  if (state.faceDown && !(v && (v.legal || []).some((m) => m.closed === true))) state.faceDown = false;
  if (state.opening && !(v && (v.legal || []).some((m) => m.open === state.opening))) state.opening = null;
  if (state.selected && !modeMoves(ctx).some((m) => m.tile === state.selected)) state.selected = null;
  if (fresh && Array.isArray(msg.events) && msg.events.length && v) {
    kept.addChange(seq, msg.events);
    noteEvents(ctx, msg.events, v, before);
    if (before) notePops(ctx, msg.events);
    announce(ctx, msg.events, v);
    renderLog(ctx);
  } else if (v) {
    if (!before) {
      renderLog(ctx);
      if (v.status !== "waiting") fetchWholeLog(ctx);
      // A reload during the pause: the last round's summary, with its hands if this tab
      // kept the round's end, else from the history.
      const last = (v.history || [])[v.history.length - 1];
      if (v.next_round_at && last) {
        const ended = kept.changes.flatMap((c) => c.events).filter((ev) => ev.type === "round_end" && ev.round === last.round);
        state.summary = ended.length ? ended[ended.length - 1] : {
          round: last.round, end: { kind: last.end, by: last.by, points: last.points, credited: last.credited },
          scores: last.scores, remembered: last.remembered, carry: last.carry, hands: [],
        };
      }
      if (state.summary && state.summary.end && state.summary.end.kind === "timeout") {
        state.summary.end.resigned = resignedAt(v, kept, state.summary.round);
      }
    }
    noteEvents(ctx, [], v, before);
  }
  if (!v || v.status === "waiting" || !state.table || (before && before.status !== v.status)) ctx.refreshTable();
  ctx.render();
}

/** Whether the round `round` ended by a resignation: the kept events say so, else the
 * game's result when that round was its last. */
function resignedAt(v, kept, round) {
  const events = kept.changes.flatMap((c) => c.events);
  if (events.some((e) => e.type === "timeout" && e.round === round)) {
    return events.some((e) => e.type === "timeout" && e.round === round && e.reason === "resign");
  }
  return Boolean(v.result) && v.result.reason === "resign" && round === (v.history || []).length - 1;
}

export function onPresence(ctx, msg) {
  const { state } = ctx;
  if (msg.table_id !== ctx.tableId || !state.view) return;
  const connected = new Map((msg.seats || []).map((x) => [x.seat, x.connected]));
  state.view = {
    ...state.view,
    // A computer player is always there, whatever the sockets say.
    seats: (state.view.seats || []).map((x) => (connected.has(x.seat) && !x.bot ? { ...x, connected: connected.get(x.seat) } : x)),
    spectators: typeof msg.spectators === "number" ? msg.spectators : state.view.spectators,
  };
  ctx.renderPresence();
}

export function subscribe(ctx) {
  socket.send({ type: "table.subscribe", table_id: ctx.tableId, id: `sub:${ctx.tableId}` });
}

export function onError(ctx, msg) {
  const { state, tableId } = ctx;
  const mineId = typeof msg.id === "string" && (msg.id === `sub:${tableId}` || msg.id.startsWith("play:"));
  state.sending = false;
  if (msg.code === "not_found" && mineId) {
    state.gone = true;
    ctx.render();
    return;
  }
  if (msg.code === "stale") {
    // Our view was out of date: fetch the current one and let the player choose again.
    subscribe(ctx);
    toast(t("table.stale"), "info");
  } else {
    toast(msg.message || t(`error.${msg.code}`));
  }
  if (ctx.view()) ctx.render();
}
