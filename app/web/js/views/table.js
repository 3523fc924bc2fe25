// A table: the line of play, your hand, the other seats, the turn clock, the round
// summary, the score sheet, the event log and the chat. Everything shown comes from
// the server's `view` (PROTOCOL §2); the client never guesses hidden tiles.
//
// This module holds the table's state and its life (messages in, the clock, clean-up);
// each part of the page is drawn by its own module in ../table/.

import { clearTitleAlert } from "../alerts.js";
import { auth, get } from "../api.js";
import { h, noteWidth, replace } from "../dom.js";
import { t } from "../i18n.js";
import { scoreSheet } from "../scores.js";
import { socket } from "../socket.js";
import { toast, navigate } from "../ui.js";
import { seatName } from "../words.js";
import { renderBoard } from "../table/board.js";
import { chatForm, onChat, renderChat, renderChatBox } from "../table/chat.js";
import { renderCourtyard } from "../table/courtyard.js";
import { onError, onPresence, onState, subscribe } from "../table/events.js";
import { handKeys, renderHand } from "../table/hand.js";
import { renderHead } from "../table/head.js";
import { memory } from "../table/memory.js";
import { renderResult } from "../table/result.js";
import { renderSeats } from "../table/seats.js";
import { skeleton } from "../table/skeleton.js";
import { renderStatus, tick } from "../table/status.js";
import { renderSummary } from "../table/summary.js";
import { renderGone, renderWaiting } from "../table/waiting.js";

export function renderTable(root, tableId) {
  socket.follow(tableId); // before anything subscribes: the socket may reconnect
  const kept = memory(tableId);
  const state = {
    skew: 0, // server clock minus this browser's clock, in ms
    seq: null,
    view: null,
    table: null,
    selected: null, // tile waiting for the choice of an end
    faceDown: false, // the next double is laid closed (a move field the variant offers)
    opening: null, // the end of one's own closed double to open with the next move
    sending: false,
    notSent: false, // a move was refused offline: said in the prompt until the next state
    confirmResign: false,
    gone: false, // the table no longer exists
    summary: null, // the round_end event shown over the board
    lastTile: null,
    acts: {}, // seat -> words of its last draw or knock
    warned: null, // the deadline already warned about
    alerted: null, // the turn already alerted about ("round:seq")
    refocus: false, // put the focus back in the hand after a move
    pops: [], // points scored during play, shown on the board for a moment: {tile, text, until}
    botStrength: "heuristic", // the strength chosen for the next bot, kept across re-renders
  };
  const el = skeleton(tableId);
  root.append(el.page);

  // What every part of the page is drawn from: the state, its elements, and a few
  // answers about the table.
  const ctx = {
    tableId,
    state,
    kept,
    el,
    view: () => state.view,
    name: (seat) => (state.view ? seatName(state.view, seat) : t("seat.n", { n: seat + 1 })),
    seated: (v) => Boolean(v) && v.you !== null && v.you !== undefined,
    serverNow: () => Date.now() + state.skew,
    pausedFor: () => {
      const v = state.view;
      return v && v.next_round_at ? Math.max(0, v.next_round_at - ctx.serverNow()) : 0;
    },
    mySeatInTable: () => {
      const me = auth.player;
      const tb = state.table;
      if (!me || !tb) return null;
      const seat = (tb.seats || []).find((x) => x.player === me.name);
      return seat ? seat.seat : null;
    },
    send: (msg) => socket.send({ ...msg, table_id: tableId }),
    render,
    renderPresence,
    refreshTable,
  };

  // The last placement of the round, remembered across a reload.
  for (const change of kept.changes) {
    for (const ev of change.events) {
      if (ev.type === "play") state.lastTile = ev.tile;
      else if (ev.type === "round_end") state.lastTile = null;
    }
  }

  let sheetDrawn = null; // what the score sheet was last drawn from

  /** Whether the page knows what to draw: the game (its first state), a table that
   * waits for players, or one that is gone. */
  function showLayout() {
    const known = state.gone || Boolean(state.view) || state.table?.status === "waiting";
    el.layout.hidden = !known;
    return known;
  }

  function render() {
    if (!showLayout()) {
      renderHead(ctx);
      return;
    }
    if (state.gone) {
      renderGone(ctx);
      return;
    }
    renderHead(ctx);
    renderWaiting(ctx);
    renderCourtyard(ctx);
    renderChatBox(ctx);
    const v = state.view;
    if (!v || !v.seats || v.status === "waiting") {
      sheetDrawn = null;
      replace(el.sheet, h("p", { class: "muted" }, t("table.no_rounds")));
      return;
    }
    renderSeats(ctx);
    renderStatus(ctx);
    renderBoard(ctx);
    renderSummary(ctx);
    renderHand(ctx);
    renderResult(ctx);
    // The sheet changes at the end of a round, not at every move: drawn again only then.
    const sheetKey = JSON.stringify([v.history, v.rounds_total, v.result, v.you,
      (v.seats || []).map((x) => [x.seat, x.player, x.bot, x.team, x.account, x.opened, x.remembered]),
      document.documentElement.lang]);
    if (sheetKey !== sheetDrawn) {
      sheetDrawn = sheetKey;
      const sheetReady = (v.history || []).length || v.rounds_total;
      replace(el.sheet, sheetReady ? scoreSheet(v) : h("p", { class: "muted" }, t("table.no_rounds_finished")));
    }
  }

  // A presence (who is connected, how many watch) changes the seats and the watchers'
  // count, nothing else: the rest of the page is left as it is, its buttons included, so
  // a click pressed while a socket comes or goes is not lost on a button drawn anew.
  function renderPresence() {
    if (state.gone || !showLayout()) return;
    renderWaiting(ctx);
    const v = state.view;
    if (!v || !v.seats || v.status === "waiting") return;
    renderSeats(ctx);
    renderStatus(ctx);
  }

  async function refreshTable() {
    try {
      state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
    } catch (err) {
      if (err.status === 404) {
        state.gone = true;
      }
    }
    render();
  }

  chatForm(ctx);
  const onKey = handKeys(ctx);
  document.addEventListener("keydown", onKey);

  const onRematch = (msg) => {
    if (msg.table_id === tableId && msg.new_table_id) {
      toast(t("rematch.started"), "info");
      navigate(`#/table/${encodeURIComponent(msg.new_table_id)}`);
    }
  };
  const onRemoved = (msg) => {
    if (msg.table_id === tableId) {
      state.gone = true;
      render();
    }
  };
  const onConnection = () => {
    if (state.view) render();
  };

  const offs = [
    socket.on("table.state", (msg) => onState(ctx, msg)),
    socket.on("table.presence", (msg) => onPresence(ctx, msg)),
    socket.on("table.rematch", onRematch),
    socket.on("table.removed", onRemoved),
    socket.on("chat", (msg) => onChat(ctx, msg)),
    socket.on("error", (msg) => onError(ctx, msg)),
    socket.on("connection", onConnection),
    socket.onOpen(() => subscribe(ctx)),
  ];
  const clock = setInterval(() => tick(ctx), 250);
  let lastWidth = 0;
  const resize = new ResizeObserver(() => {
    const w = el.board.clientWidth;
    noteWidth(el.board, w);
    if (w !== lastWidth && state.view && state.view.seats) {
      lastWidth = w;
      renderBoard(ctx);
    }
  });
  resize.observe(el.board);
  renderChat(ctx);
  refreshTable();
  render();

  return () => {
    socket.sendIfOpen({ type: "table.unsubscribe", table_id: tableId });
    offs.forEach((off) => off());
    clearInterval(clock);
    resize.disconnect();
    document.removeEventListener("keydown", onKey);
    clearTitleAlert();
  };
}
