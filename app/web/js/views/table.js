// A table: the line of play, your hand, the other seats, the turn clock, the
// score sheet, the event log and the chat. Everything shown comes from the
// server's `view` (PROTOCOL §2); the client never guesses hidden tiles.

import { auth, get, post } from "../api.js";
import { formatTime, h, replace, signed } from "../dom.js";
import { renderLayout } from "../board.js";
import { scoreSheet, standingCell } from "../scores.js";
import { socket } from "../socket.js";
import { fishIcon, goatIcon, parseTile, tileBack, tileSvg } from "../tiles.js";
import { navigate, pill, toast } from "../ui.js";
import { describeEvents, endLabel, optionWords, seatName, variantName } from "../words.js";

const ERROR_TEXT = {
  not_your_turn: "It is not your turn.",
  illegal_move: "That move is not allowed.",
  not_seated: "You are not seated at this table.",
  game_over: "The game is over.",
  unauthorized: "Please sign in to play.",
  rate_limited: "Slow down a little.",
};

export function renderTable(root, tableId) {
  const state = {
    skew: 0, // server clock minus this browser's clock, in ms
    seq: null,
    view: null,
    table: null,
    selected: null, // tile waiting for the choice of an end
    sending: false,
    confirmResign: false,
    pops: [], // points scored during play, shown on the board for a moment: {tile, text, until}
  };

  // ---- the skeleton (built once; parts are refreshed on every state) ----
  const title = h("h1", { class: "table-title" }, "Table");
  const subtitle = h("p", { class: "table-subtitle muted" });
  const headActions = h("div", { class: "table-actions" });
  const seatsBox = h("div", { class: "seats", "aria-label": "Players" });
  const turnText = h("div", { class: "turn-text", "aria-live": "polite" });
  const timer = h("div", { class: "timer", "data-testid": "timer" });
  const carry = h("div", { class: "carry", "data-testid": "carry" });
  const roundInfo = h("div", { class: "round-info" });
  const bazaarInfo = h("div", { class: "bazaar-info", "data-testid": "bazaar" });
  const statusBar = h("div", { class: "status-bar" },
    h("div", { class: "clock" }, turnText, timer, carry),
    h("div", { class: "counts" }, roundInfo, bazaarInfo));
  const board = h("div", { class: "board", role: "group", "data-testid": "board" });
  const prompt = h("div", { class: "prompt", "aria-live": "polite" });
  const hand = h("div", { class: "hand", role: "group", "aria-label": "Your tiles", "data-testid": "hand" });
  const mine = h("div", { class: "my-area" });
  const waiting = h("div", { class: "waiting card", hidden: true });
  const result = h("div", { class: "result card", hidden: true, "data-testid": "result" });
  const sheet = h("div", { class: "sheet-box", "data-testid": "score-sheet" });
  const log = h("ol", { class: "log", "aria-live": "polite", "data-testid": "log" });
  const chatList = h("ol", { class: "chat-list", "data-testid": "chat" });
  const chatInput = h("input", { name: "chat", maxlength: 300, autocomplete: "off", placeholder: "Say something…", "aria-label": "Chat message" });
  const chatForm = h("form", { class: "chat-form" }, chatInput, h("button", { type: "submit" }, "Send"));

  const page = h("section", { class: "table-page", dataset: { tableId } },
    h("div", { class: "table-head" }, h("div", {}, title, subtitle), headActions),
    h("div", { class: "table-layout" },
      h("div", { class: "table-main" }, waiting, seatsBox, statusBar, board, mine, result),
      h("div", { class: "table-side" },
        h("section", { class: "card" }, h("h2", {}, "Score"), sheet),
        h("section", { class: "card" }, h("h2", {}, "Game log"), log),
        h("section", { class: "card chat" }, h("h2", {}, "Chat"), chatList, chatForm))));
  root.append(page);

  const view = () => state.view;
  const you = () => (state.view ? state.view.you : null);
  const name = (seat) => (state.view ? seatName(state.view, seat) : `Seat ${seat + 1}`);

  function addLog(lines, cls = "") {
    for (const line of lines) log.append(h("li", { class: cls }, line));
    while (log.children.length > 200) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  // ---- commands ----
  function send(msg) {
    socket.send({ ...msg, table_id: tableId });
  }

  function play(tile, end) {
    if (state.sending) return;
    const msg = { type: "play", tile, seq: state.seq };
    if (end !== null && end !== undefined) msg.end = end;
    state.sending = true;
    state.selected = null;
    send(msg);
    render();
  }

  function chooseTile(tile) {
    const v = view();
    const options = (v.legal || []).filter((m) => m.tile === tile);
    if (!options.length) return;
    if (options.length === 1) {
      play(tile, options[0].end);
      return;
    }
    state.selected = state.selected === tile ? null : tile;
    render();
    const first = board.querySelector(".end-choice") || prompt.querySelector("button");
    if (first && state.selected) first.focus();
  }

  function endChoices() {
    const v = view();
    if (!v || !state.selected) return [];
    const ends = v.ends || {};
    return (v.legal || [])
      .filter((m) => m.tile === state.selected)
      .map((m) => ({
        end: m.end,
        label: m.end ? `${endLabel(v, m.end)}${ends[m.end] !== undefined ? ` (${ends[m.end]})` : ""}` : "lead",
        short: ends[m.end] !== undefined ? String(ends[m.end]) : "▼",
      }));
  }

  // ---- rendering ----
  function renderHead() {
    const v = view();
    const t = state.table;
    const variant = (v && v.variant) || (t && t.variant);
    const options = (v && v.options) || (t && t.options) || {};
    title.textContent = variant ? `${variantName(variant)}` : "Table";
    const bits = [...optionWords(variant, options)];
    if (t) bits.push(`${t.turn_seconds ?? 30} s per move`, t.rated ? "Rated" : "Casual");
    subtitle.textContent = bits.join(" · ");

    const actions = [];
    const playing = v && v.status === "playing";
    if (playing && v.you !== null && v.you !== undefined) {
      if (state.confirmResign) {
        actions.push(h("span", { class: "confirm", role: "group", "aria-label": "Confirm resignation" },
          "Resign? It counts as a timeout. ",
          h("button", { type: "button", class: "danger", "data-testid": "resign-yes", onclick: () => {
            state.confirmResign = false;
            send({ type: "resign" });
            render();
          } }, "Yes, resign"),
          h("button", { type: "button", onclick: () => {
            state.confirmResign = false;
            render();
          } }, "Keep playing")));
      } else {
        actions.push(h("button", { type: "button", class: "danger-outline", "data-testid": "resign", onclick: () => {
          state.confirmResign = true;
          render();
          const yes = headActions.querySelector("[data-testid=resign-yes]");
          if (yes) yes.focus();
        } }, "Resign"));
      }
    } else if (!playing && !(v && v.status === "finished") && t && mySeatInTable() !== null) {
      actions.push(h("button", { type: "button", onclick: leave }, "Leave table"));
    }
    if (v && (v.you === null || v.you === undefined) && v.status !== "waiting") actions.push(pill("Watching", "watching"));
    replace(headActions, actions);
  }

  function mySeatInTable() {
    const me = auth.player;
    const t = state.table;
    if (!me || !t) return null;
    const seat = (t.seats || []).find((x) => x.player === me.name);
    return seat ? seat.seat : null;
  }

  async function leave() {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/leave`);
      navigate("#/lobby");
    } catch (err) {
      toast(err.message);
    }
  }

  async function join() {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/join`, {});
      await refreshTable();
    } catch (err) {
      toast(`Could not join: ${err.message}`);
    }
  }

  async function addBot(strength) {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/bots`, { strength });
      await refreshTable();
    } catch (err) {
      toast(`Could not add a bot: ${err.message}`);
    }
  }

  function botControls() {
    const strength = h("select", { name: "strength", "data-testid": "bot-strength" },
      [["random", "Random"], ["heuristic", "Steady"], ["strong", "Strong"]].map(
        ([value, label]) => h("option", { value, selected: value === "heuristic" }, label)));
    return h("div", { class: "form-row add-bot" },
      h("label", {}, "Computer player", strength),
      h("button", { type: "button", "data-testid": "add-bot", onclick: () => addBot(strength.value) },
        "Add a bot"));
  }

  function renderWaiting() {
    const v = view();
    const t = state.table;
    const isWaiting = !v || !v.seats || v.status === "waiting";
    waiting.hidden = !isWaiting;
    for (const el of [seatsBox, statusBar, board, mine]) el.hidden = isWaiting;
    if (!isWaiting) return;
    const seats = (t && t.seats) || (v && v.seats) || [];
    const free = seats.filter((x) => !x.player).length;
    const seated = mySeatInTable() !== null;
    replace(waiting,
      h("h2", {}, free ? `Waiting for ${free} more player${free > 1 ? "s" : ""}…` : "Starting…"),
      h("ul", { class: "seat-list" }, seats.map((x) => h("li", { class: x.player ? "taken" : "free" },
        `${x.seat + 1}. ${x.player || "free seat"}`))),
      !seated && free && auth.signedIn
        ? h("button", { type: "button", class: "primary", onclick: join }, "Join this table") : null,
      seated && free ? botControls() : null,
      !auth.signedIn ? h("p", {}, h("a", { href: "#/signin" }, "Sign in"), " to take a seat.") : null,
      h("p", { class: "muted" }, "The game starts by itself when the last seat is taken."));
  }

  function seatCard(seat, v) {
    const isTurn = v.status === "playing" && v.turn === seat.seat;
    const isYou = v.you === seat.seat;
    const count = seat.tiles ?? 0;
    const backs = [];
    for (let i = 0; i < Math.min(count, 7); i++) backs.push(tileBack());
    const connected = seat.connected !== false;
    const score = v.variant === "goat"
      ? standingCell({ account: seat.account || 0, opened: Boolean(seat.opened), remembered: seat.remembered || 0 })
      : h("span", { class: "total" }, String(seat.account ?? 0));
    return h("div", {
      class: `seat-card ${isTurn ? "turn" : ""} ${isYou ? "you" : ""} ${connected ? "" : "offline"}`,
      dataset: { seat: String(seat.seat) }, "data-testid": `seat-${seat.seat}`,
    },
      h("div", { class: "seat-name" },
        h("span", { class: `dot ${connected ? "online" : "offline"}`, title: connected ? "connected" : "disconnected",
          "aria-label": connected ? "connected" : "disconnected", role: "img" }),
        h("span", { class: "name" }, seat.player || `Seat ${seat.seat + 1}`),
        isYou ? h("span", { class: "you-tag" }, " (you)") : null,
        seat.team !== undefined && seat.team !== null ? h("span", { class: "pill team" }, `Team ${"AB"[seat.team] ?? seat.team + 1}`) : null),
      h("div", { class: "seat-tiles", title: `${count} tiles` }, h("span", { class: "backs" }, backs),
        h("span", { class: "tile-count", "data-testid": "tile-count" }, `${count} tile${count === 1 ? "" : "s"}`)),
      h("div", { class: "seat-score" }, score));
  }

  function renderSeats() {
    const v = view();
    const seats = v.seats || [];
    // Clockwise from the seat after yours, so you sit at the bottom.
    const start = v.you !== null && v.you !== undefined ? v.you + 1 : 0;
    const ordered = [];
    for (let i = 0; i < seats.length; i++) ordered.push(seats[(start + i) % seats.length]);
    const others = v.you !== null && v.you !== undefined ? ordered.filter((x) => x.seat !== v.you) : ordered;
    replace(seatsBox, others.map((x) => seatCard(x, v)));
  }

  function renderStatus() {
    const v = view();
    if (v.status === "finished") turnText.textContent = "Game over";
    else if (v.turn === null || v.turn === undefined) turnText.textContent = "";
    else if (v.turn === v.you) turnText.replaceChildren(h("strong", { class: "your-turn" }, "Your turn"));
    else turnText.textContent = `${name(v.turn)}'s turn`;
    tick();
    if (v.carry > 0) replace(carry, fishIcon(), h("span", {}, `+${v.carry}`));
    else carry.replaceChildren();
    carry.title = v.carry > 0 ? `A fish of ${v.carry} is carried over to the next round` : "";
    // Variants that score during play show the count of the open ends.
    roundInfo.textContent = `Round ${(v.round ?? 0) + 1}${typeof v.count === "number" ? ` · count ${v.count}` : ""}`;
    replace(bazaarInfo, tileBack({ cls: "mini" }), ` Bazaar: ${v.bazaar ?? 0}`);
  }

  function tick() {
    const v = view();
    if (!v || v.status !== "playing" || !v.deadline) {
      timer.textContent = "";
      timer.classList.remove("low");
      return;
    }
    // The deadline is on the server's clock; state.skew corrects for this machine's.
    const left = v.deadline - (Date.now() + state.skew);
    timer.textContent = formatTime(left);
    timer.classList.toggle("low", left < 10000);
  }

  function renderBoard() {
    const v = view();
    const choices = endChoices();
    renderLayout(board, v.chain, { choices, onChoose: (end) => play(state.selected, end), ends: v.ends, view: v });
    renderPops();
  }

  // "+15" where it happened: over the tile whose placement scored.
  function renderPops() {
    const now = Date.now();
    state.pops = state.pops.filter((p) => p.until > now);
    for (const p of state.pops) {
      const tile = board.querySelector(`.chain-tile[data-tile="${CSS.escape(p.tile)}"]`);
      if (!tile) continue;
      const box = board.getBoundingClientRect();
      const at = tile.getBoundingClientRect();
      // Kept inside the board, whose edges clip.
      const x = Math.min(Math.max(at.left - box.left + at.width / 2, 28), box.width - 28);
      const y = Math.max(at.top - box.top, 30);
      board.append(h("span", {
        class: "score-pop", "data-testid": "score-pop", role: "status", style: `left: ${x}px; top: ${y}px`,
      }, p.text));
    }
  }

  function notePops(events) {
    let tile = null;
    for (const ev of events) {
      if (ev.type === "play") tile = ev.tile;
      if (ev.type === "score" && tile) {
        state.pops.push({ tile, text: `+${ev.points}`, until: Date.now() + 2500 });
        setTimeout(() => view() && renderBoard(), 2600);
      }
    }
  }

  function renderHand() {
    const v = view();
    const focusedTile = hand.contains(document.activeElement) ? document.activeElement.dataset.tile : null;
    if (v.you === null || v.you === undefined) {
      replace(mine, h("p", { class: "muted spectator-note" }, "You are watching this table."));
      return;
    }
    const mySeat = (v.seats || []).find((x) => x.seat === v.you);
    const myTurn = v.status === "playing" && v.turn === v.you;
    const legalTiles = new Set((v.legal || []).map((m) => m.tile));
    const buttons = (v.hand || []).map((tile) => {
      const t = parseTile(tile) || [0, 0];
      const legal = myTurn && legalTiles.has(tile) && !state.sending;
      return h("button", {
        type: "button",
        class: `hand-tile ${legal ? "legal" : ""} ${state.selected === tile ? "selected" : ""}`,
        dataset: { tile }, disabled: !legal, "aria-pressed": state.selected === tile ? "true" : "false",
        "aria-label": `${tile}${legal ? ", playable" : ""}`,
        onclick: () => chooseTile(tile),
      }, tileSvg(t[0], t[1]));
    });
    replace(hand, buttons.length ? buttons : h("p", { class: "muted" }, v.status === "playing" ? "No tiles." : ""));

    const choices = endChoices();
    if (choices.length) {
      replace(prompt, `Play ${state.selected} on: `,
        choices.map((c) => h("button", { type: "button", class: "end-button", dataset: { end: c.end ?? "" },
          onclick: () => play(state.selected, c.end) }, c.label)),
        h("button", { type: "button", class: "link-button", onclick: () => {
          state.selected = null;
          render();
        } }, "Cancel"));
    } else if (myTurn && !legalTiles.size) prompt.textContent = "No move: waiting for the server…";
    else if (myTurn) prompt.textContent = (v.chain || []).length ? "Choose a tile to play." : "Choose a tile to lead.";
    else prompt.textContent = "";

    const card = mySeat ? seatCard(mySeat, v) : null;
    replace(mine, card, prompt, hand);
    if (focusedTile) {
      const again = hand.querySelector(`[data-tile="${CSS.escape(focusedTile)}"]`);
      const target = again && !again.disabled ? again : hand.querySelector("button:not([disabled])");
      if (target) target.focus();
    }
  }

  function renderResult() {
    const v = view();
    const r = v.result;
    if (!r) {
      result.hidden = true;
      return;
    }
    result.hidden = false;
    const losers = r.losers || [];
    const winners = r.winners || [];
    let headline;
    if (r.reason === "timeout") {
      headline = h("h2", {}, `${losers.map(name).join(", ")} ran out of time or resigned`);
    } else if (v.variant === "goat" || r.reason === "goat") {
      headline = h("h2", { class: "goat-line" }, goatIcon("big"),
        `${losers.map(name).join(" and ")} ${losers.length > 1 ? "are the goats" : "is the goat"}`);
    } else {
      headline = h("h2", {}, `${winners.map(name).join(" and ")} won`);
    }
    const rows = (v.seats || []).map((seat) => {
      const i = seat.seat;
      const gain = (r.rating || [])[i];
      const final = (r.final || [])[i];
      const isGoat = losers.includes(i);
      return h("tr", { class: isGoat ? "loser" : "winner" },
        h("th", { scope: "row" }, name(i), isGoat && v.variant === "goat" ? goatIcon("small") : null),
        h("td", {}, final === undefined ? "" : String(final)),
        h("td", { class: "gain", "data-testid": `gain-${i}` }, gain === undefined ? "" : signed(gain)));
    });
    const rated = state.table ? state.table.rated : true;
    replace(result, headline,
      h("table", { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"),
          h("th", { scope: "col" }, "Rating gain"))),
        h("tbody", {}, rows)),
      rated ? null : h("p", { class: "muted" }, "A casual table: ratings are not changed."),
      h("p", { class: "result-links" },
        h("a", { href: "#/lobby", class: "button" }, "Back to the lobby"),
        v.game_id ? h("a", { href: `#/replay/${encodeURIComponent(v.game_id)}`, class: "button" }, "Replay") : null,
        v.seed ? h("span", { class: "muted seed", title: "The revealed seed: every deal can be checked" }, ` seed ${String(v.seed).slice(0, 12)}…`) : null));
  }

  function render() {
    renderHead();
    renderWaiting();
    const v = view();
    if (!v || !v.seats || v.status === "waiting") {
      replace(sheet, h("p", { class: "muted" }, "No rounds yet."));
      return;
    }
    renderSeats();
    renderStatus();
    renderBoard();
    renderHand();
    renderResult();
    const sheetReady = (v.history || []).length || v.rounds_total;
    replace(sheet, sheetReady ? scoreSheet(v) : h("p", { class: "muted" }, "No rounds finished yet."));
  }

  async function refreshTable() {
    try {
      state.table = await get(`/api/tables/${encodeURIComponent(tableId)}`);
    } catch (err) {
      if (err.status === 404 && !state.view) {
        replace(waiting, h("h2", {}, "No such table"), h("p", {}, h("a", { href: "#/lobby" }, "Back to the lobby")));
        waiting.hidden = false;
        return;
      }
    }
    render();
  }

  // ---- messages ----
  function onState(msg) {
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
    page.dataset.seq = String(seq); // lets tests (and curious players) see the table's version
    state.view = msg.view || null;
    state.sending = false;
    const v = state.view;
    if (state.selected && !(v && (v.legal || []).some((m) => m.tile === state.selected))) state.selected = null;
    if (fresh && before && Array.isArray(msg.events) && msg.events.length && v) {
      addLog(describeEvents(msg.events, v));
      notePops(msg.events);
      for (const ev of msg.events) {
        if (ev.type === "round_end" && Array.isArray(ev.hands)) {
          addLog([`Hands: ${ev.hands.map((tiles, s) => `${name(s)} ${tiles.length ? tiles.join(" ") : "—"}`).join("; ")}`], "muted");
        }
      }
    }
    if (!v || v.status === "waiting" || !state.table || (before && before.status !== v.status)) refreshTable();
    render();
  }

  function onChat(msg) {
    if (msg.table_id !== tableId) return;
    const at = msg.at ? new Date(msg.at) : new Date();
    chatList.append(h("li", {},
      h("span", { class: "chat-time" }, at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })),
      " ", h("strong", { class: "chat-from" }, String(msg.from ?? "")), " ", h("span", { class: "chat-text" }, String(msg.text ?? ""))));
    while (chatList.children.length > 200) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  function onError(msg) {
    state.sending = false;
    if (msg.code === "stale") {
      // Our view was out of date: fetch the current one and let the player choose again.
      socket.send({ type: "table.subscribe", table_id: tableId });
      toast("The table moved on; here is the current position.", "info");
    } else {
      toast(msg.message || ERROR_TEXT[msg.code] || "Something went wrong.");
    }
    if (view()) render();
  }

  chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!auth.signedIn) {
      toast("Sign in to chat.");
      return;
    }
    send({ type: "chat", text: text.slice(0, 300) });
    chatInput.value = "";
  });

  const onKey = (ev) => {
    if (ev.key === "Escape" && state.selected) {
      state.selected = null;
      render();
    }
  };
  document.addEventListener("keydown", onKey);

  const offs = [
    socket.on("table.state", onState),
    socket.on("chat", onChat),
    socket.on("error", onError),
    socket.onOpen(() => socket.send({ type: "table.subscribe", table_id: tableId })),
  ];
  const clock = setInterval(tick, 250);
  let lastWidth = 0;
  const resize = new ResizeObserver(() => {
    const w = board.clientWidth;
    if (w !== lastWidth && view() && view().seats) {
      lastWidth = w;
      renderBoard();
    }
  });
  resize.observe(board);
  refreshTable();
  render();

  return () => {
    socket.sendIfOpen({ type: "table.unsubscribe", table_id: tableId });
    offs.forEach((off) => off());
    clearInterval(clock);
    resize.disconnect();
    document.removeEventListener("keydown", onKey);
  };
}
