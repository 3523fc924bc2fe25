// One WebSocket per tab (PROTOCOL §2): reconnects with backoff, is signed in by the
// session cookie its handshake carries (no token ever passes through a script), says
// hello, tries again whatever the server could not do for now (`unavailable`), and lets
// views register handlers and "on open" re-subscriptions.

import { auth } from "./api.js";
import { lang } from "./i18n.js";

// Commands answered by a reply carrying their id: tried again after `unavailable`.
const RETRIED = new Set(["hello", "lobby.subscribe", "table.subscribe", "play", "resign", "chat", "rematch"]);
const MAX_TRIES = 8;
const MAX_TRACKED = 200;
// How long after a `not_found` a table is asked for again before it is shown as gone.
const NOT_FOUND_RECHECK_MS = 1000;

class Socket {
  constructor() {
    this.ws = null;
    this.handlers = new Map(); // type -> Set(fn)
    this.openHooks = new Set(); // called on every (re)connect
    this.queue = [];
    this.retry = 0;
    this.me = null; // {id, name} after welcome
    this.pingTimer = null;
    this.wanted = false;
    this.seqs = new Map(); // table_id -> the newest seq this tab has been shown
    this.pending = new Map(); // id -> {msg, tries, ws}: commands not answered yet
    this.rechecks = new Map(); // id of a table.subscribe -> the table.removed it checks
    this.ids = 0;
    this.tableId = null; // the table this tab is at, named in the socket's address
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const table = this.tableId === null ? "" : `?table=${encodeURIComponent(this.tableId)}`;
    return `${scheme}://${location.host}/ws${table}`;
  }

  /**
   * The tab is at table `tableId`: its socket names it in its address (`/ws?table=…`), so
   * a proxy hashing on it puts every socket of that table on one server process and a
   * move's work is done there once (deploy/nginx/domino.conf). Any process serves any
   * table; the name only saves work. Coming to another table reconnects once (before the
   * view subscribes); leaving one for the lobby keeps the socket as it is.
   */
  follow(tableId) {
    if (this.tableId === tableId) return;
    this.tableId = tableId;
    if (this.wanted) this.restart();
  }

  connect() {
    this.wanted = true;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) {
      return;
    }
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.retry = 0;
      this.pending.clear();
      // hello names the language of error messages; the cookie has named the player, and
      // hello is answered by `welcome` (or `unavailable` while he cannot be checked).
      this.transmit(ws, { type: "hello", lang: lang() });
      for (const hook of [...this.openHooks]) hook();
      const queued = this.queue;
      this.queue = [];
      for (const msg of queued) this.transmit(ws, msg);
      this.emit("connection", { type: "connection", connected: true });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.id !== undefined && this.pending.has(msg.id)) {
        if (msg.type === "error" && msg.code === "unavailable" && this.tryAgain(msg)) return;
        if (msg.type === "error" && msg.code === "not_found" && this.askAgain(msg)) return;
        const entry = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.type === "error" && msg.code === "not_known" && entry.msg.table_id) {
          // The command may have been carried out: the table, read again, says whether.
          this.transmit(this.ws, { type: "table.subscribe", table_id: entry.msg.table_id, id: `sub:${entry.msg.table_id}` });
          return;
        }
      }
      if (msg.type === "table.removed" && this.recheck(msg)) return;
      if (msg.id !== undefined && this.rechecks.has(msg.id)) {
        const removed = this.rechecks.get(msg.id);
        this.rechecks.delete(msg.id);
        // Not there after all: now the table is shown as gone. There: its state goes on.
        if (msg.type === "error") msg = removed;
      }
      if (msg.type === "welcome") this.me = msg.player;
      if (msg.type === "table.state") this.seqs.set(msg.table_id, msg.seq);
      if (msg.type === "table.heartbeat") this.catchUp(msg.tables || {});
      this.emit(msg.type, msg);
    });
    ws.addEventListener("close", (ev) => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      this.me = null;
      this.pending.clear();
      this.rechecks.clear();
      this.emit("connection", { type: "connection", connected: false });
      if (ev.code === 4401) {
        // The session was signed out (here or elsewhere): carry on as a spectator.
        auth.clear();
        this.emit("unauthorized", { type: "unauthorized" });
      }
      if (!this.wanted) return;
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.wanted && ws === this.ws && this.reopen(), delay);
    });
    // Errors are followed by "close", which schedules the reconnect.
    ws.addEventListener("error", () => {});
  }

  /** A heartbeat names a newer seq than we were shown: a change was missed, read again. */
  catchUp(tables) {
    for (const [tableId, seq] of Object.entries(tables)) {
      if ((this.seqs.get(tableId) ?? -1) < seq) this.send({ type: "table.subscribe", table_id: tableId });
    }
  }

  /**
   * A table announced as gone is asked for once more before anyone is told: a game the
   * server has just put back from its copy is shown instead. Returns true while it is
   * being asked (the answer decides); a reply to this tab's own command is believed.
   */
  recheck(removed) {
    if (removed.id !== undefined || !this.connected) return false;
    const id = `r${++this.ids}`;
    this.rechecks.set(id, removed);
    this.transmit(this.ws, { type: "table.subscribe", table_id: removed.table_id, id });
    return true;
  }

  /**
   * A table not found is asked for once more, a moment later, before anyone is told: one
   * the server was putting back from its copy is there by then. True while it is asked.
   */
  askAgain(error) {
    const entry = this.pending.get(error.id);
    if (!entry || entry.msg.type !== "table.subscribe" || entry.askedAgain) return false;
    entry.askedAgain = true;
    setTimeout(() => {
      if (this.pending.get(error.id) !== entry) return;
      if (entry.ws === this.ws && this.connected) entry.ws.send(JSON.stringify(entry.msg));
      else this.pending.delete(error.id);
    }, NOT_FOUND_RECHECK_MS);
    return true;
  }

  /** Send `msg` on `ws`, with an id if it is a command the server answers. */
  transmit(ws, msg) {
    if (RETRIED.has(msg.type)) {
      if (msg.id === undefined) msg = { ...msg, id: `c${++this.ids}` };
      this.pending.set(msg.id, { msg, tries: 0, ws });
      if (this.pending.size > MAX_TRACKED) this.pending.delete(this.pending.keys().next().value);
    }
    ws.send(JSON.stringify(msg));
  }

  /** `unavailable`: send the command again after the wait it names, doubling. */
  tryAgain(error) {
    const entry = this.pending.get(error.id);
    if (!entry || entry.tries >= MAX_TRIES) return false;
    const delay = Math.min(8000, (error.retry_ms || 500) * 2 ** entry.tries++);
    setTimeout(() => {
      if (this.pending.get(error.id) !== entry) return;
      if (entry.ws === this.ws && this.connected) entry.ws.send(JSON.stringify(entry.msg));
      else this.pending.delete(error.id); // a new socket says hello and subscribes anew
    }, delay);
    return true;
  }

  reopen() {
    this.ws = null;
    this.connect();
  }

  /** Reconnect now, e.g. after signing in or out, so the socket carries the new identity. */
  restart() {
    this.hangUp();
    this.connect();
  }

  /** Close the socket without reconnecting (until `connect`). */
  hangUp() {
    const old = this.ws;
    this.ws = null;
    this.me = null;
    this.pending.clear();
    this.rechecks.clear();
    if (old) old.close(1000);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.transmit(this.ws, msg);
    else if (msg.type !== "ping") this.queue.push(msg);
  }

  /** Tell the server the language error messages should be in. */
  sayLanguage() {
    this.sendIfOpen({ type: "hello", lang: lang() });
  }

  /**
   * Send a command now or not at all: returns false while disconnected. Moves use it,
   * so a move made offline is refused visibly instead of arriving late for a stale seq.
   */
  sendNow(msg) {
    if (!this.connected) return false;
    this.transmit(this.ws, msg);
    return true;
  }

  /** Send only on an open socket (a reconnect forgets subscriptions by itself). */
  sendIfOpen(msg) {
    if (this.connected) this.transmit(this.ws, msg);
  }

  get connected() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  /** `fn` runs now if connected and again after every reconnect; returns an unregister. */
  onOpen(fn) {
    this.openHooks.add(fn);
    if (this.connected) fn();
    return () => this.openHooks.delete(fn);
  }

  emit(type, msg) {
    for (const fn of [...(this.handlers.get(type) || [])]) {
      try {
        fn(msg);
      } catch (err) {
        // A broken view must not stop the others from hearing the message.
        console.warn("handler failed", err);
      }
    }
  }
}

export const socket = new Socket();
