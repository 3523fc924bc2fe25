// The lobby: open and running tables (live via lobby.subscribe) and "Create table".

import { auth, get, post } from "../api.js";
import { h, replace } from "../dom.js";
import { socket } from "../socket.js";
import { navigate, pill, toast } from "../ui.js";
import { optionWords, variantName } from "../words.js";

function mySeat(table) {
  const me = auth.player;
  if (!me) return null;
  const seat = (table.seats || []).find((x) => x.player === me.name);
  return seat ? seat.seat : null;
}

async function join(table) {
  try {
    await post(`/api/tables/${encodeURIComponent(table.id)}/join`, {});
    navigate(`#/table/${encodeURIComponent(table.id)}`);
  } catch (err) {
    toast(`Could not join: ${err.message}`);
  }
}

function tableCard(table) {
  const seats = table.seats || [];
  const free = seats.filter((x) => !x.player).length;
  const seated = mySeat(table) !== null;
  const href = `#/table/${encodeURIComponent(table.id)}`;
  const actions = [];
  if (seated) actions.push(h("a", { class: "button primary", href }, "Open"));
  else if (table.status === "waiting" && free > 0) {
    if (auth.signedIn) actions.push(h("button", { type: "button", class: "primary join", onclick: () => join(table) }, "Join"));
    else actions.push(h("a", { class: "button", href: "#/signin" }, "Sign in to join"));
  }
  if (!seated && table.status === "playing") actions.push(h("a", { class: "button watch", href }, "Watch"));

  return h("li", { class: `table-card ${table.status}`, dataset: { tableId: table.id } },
    h("div", { class: "table-card-head" },
      h("strong", { class: "variant" }, variantName(table.variant)),
      pill(table.status === "waiting" ? "Waiting" : table.status === "playing" ? "Playing" : String(table.status), table.status),
      pill(table.rated ? "Rated" : "Casual", table.rated ? "rated" : "casual")),
    h("div", { class: "options" }, optionWords(table.variant, table.options).join(" · ") || "Standard rules"),
    h("ul", { class: "seat-list", "aria-label": "Seats" },
      seats.map((x) => h("li", { class: x.player ? "taken" : "free" }, x.player ? x.player : "free seat"))),
    h("div", { class: "meta" }, `${seats.length} players · ${table.turn_seconds ?? 30} s per move`),
    h("div", { class: "actions" }, actions));
}

function createForm() {
  const variant = h("select", { name: "variant" },
    h("option", { value: "goat" }, "Goat"), h("option", { value: "classic" }, "Classic"));
  const seats = h("select", { name: "seats" },
    [2, 3, 4].map((n) => h("option", { value: String(n) }, `${n} players`)));
  const fishAll = h("input", { type: "radio", name: "fish_rule", value: "all", checked: true });
  const fishOne = h("input", { type: "radio", name: "fish_rule", value: "one" });
  const teams = h("input", { type: "checkbox", name: "teams" });
  const teamsLabel = h("label", { class: "inline", hidden: true }, teams, " Teams (partners sit opposite)");
  const goatOptions = h("fieldset", { class: "goat-options" },
    h("legend", {}, "Fish"),
    h("label", { class: "inline" }, fishAll, " Fish for all"),
    h("label", { class: "inline" }, fishOne, " Fish to one"),
    teamsLabel);
  const target = h("select", { name: "target" },
    [100, 150, 200].map((n) => h("option", { value: String(n) }, `Target ${n}`)));
  const classicOptions = h("fieldset", { class: "classic-options", hidden: true },
    h("legend", {}, "Play to"), h("label", {}, "Target", target));
  const turn = h("input", { type: "number", name: "turn_seconds", min: 5, max: 300, value: "30", required: true });
  const rated = h("input", { type: "radio", name: "rated", value: "rated", checked: true });
  const casual = h("input", { type: "radio", name: "rated", value: "casual" });
  const takeover = h("input", { type: "checkbox", name: "bot_takeover" });
  const takeoverLabel = h("label", { class: "inline", hidden: true },
    takeover, " A bot plays on for a player who times out");
  for (const radio of [rated, casual]) {
    radio.addEventListener("change", () => { takeoverLabel.hidden = !casual.checked; });
  }
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, "Create table");

  const sync = () => {
    goatOptions.hidden = variant.value !== "goat";
    classicOptions.hidden = variant.value !== "classic";
    teamsLabel.hidden = seats.value !== "4";
  };
  variant.addEventListener("change", sync);
  seats.addEventListener("change", sync);

  const form = h("form", { class: "card create-form", "data-testid": "create-table" },
    h("h2", {}, "Create table"),
    h("div", { class: "form-row" }, h("label", {}, "Game", variant), h("label", {}, "Seats", seats)),
    goatOptions, classicOptions,
    h("div", { class: "form-row" },
      h("label", {}, "Seconds per move", turn),
      h("fieldset", { class: "rated" }, h("legend", {}, "Ratings"),
        h("label", { class: "inline" }, rated, " Rated"),
        h("label", { class: "inline" }, casual, " Casual"),
        takeoverLabel)),
    error, submit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const options = {};
    if (variant.value === "goat") {
      options.fish_rule = fishOne.checked ? "one" : "all";
      if (seats.value === "4" && teams.checked) options.teams = true;
    } else if (variant.value === "classic") options.target = Number(target.value);
    submit.disabled = true;
    try {
      const table = await post("/api/tables", {
        variant: variant.value, seats: Number(seats.value), options,
        turn_seconds: Number(turn.value), rated: rated.checked,
        bot_takeover: casual.checked && takeover.checked,
      });
      navigate(`#/table/${encodeURIComponent(table.id)}`);
    } catch (err) {
      error.textContent = err.status === 401 ? "Please sign in first." : err.message;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

export function renderLobby(root) {
  const tables = new Map();
  const list = h("ul", { class: "table-list", "data-testid": "table-list" });
  const empty = h("p", { class: "muted empty" }, "No open tables yet — create one.");

  const redraw = () => {
    const items = [...tables.values()]
      .filter((t) => t.status === "waiting" || t.status === "playing")
      // Waiting tables first (they need players), newest last within each group.
      .sort((a, b) => (a.status === b.status ? 0 : a.status === "waiting" ? -1 : 1));
    replace(list, items.map(tableCard));
    empty.hidden = items.length > 0;
  };
  const setAll = (all) => {
    tables.clear();
    for (const t of all || []) tables.set(t.id, t);
    redraw();
  };

  const aside = auth.signedIn
    ? createForm()
    : h("div", { class: "card" }, h("h2", {}, "Play"),
      h("p", {}, h("a", { href: "#/signin", class: "button primary" }, "Sign in or sign up"), " to create or join a table."));
  root.append(h("section", { class: "lobby" },
    h("div", { class: "lobby-tables" }, h("h1", {}, "Lobby"), empty, list),
    h("aside", { class: "lobby-side" }, aside)));

  const offs = [];
  let poll = null;
  let live = false; // once the socket has sent the lobby, it is fresher than GET
  get("/api/tables").then((all) => {
    if (!live) setAll(all);
  }).catch((err) => toast(err.message));
  if (auth.signedIn) {
    offs.push(socket.on("lobby", (msg) => {
      live = true;
      setAll(msg.tables);
    }));
    offs.push(socket.on("lobby.update", (msg) => {
      if (msg.table && msg.table.id !== undefined) tables.set(msg.table.id, msg.table);
      redraw();
    }));
    offs.push(socket.on("lobby.remove", (msg) => {
      tables.delete(msg.table_id);
      redraw();
    }));
    offs.push(socket.onOpen(() => socket.send({ type: "lobby.subscribe" })));
  } else {
    // Spectators may not subscribe to the lobby; refresh it now and then instead.
    poll = setInterval(() => get("/api/tables").then(setAll).catch(() => {}), 10000);
  }
  redraw();
  return () => {
    if (auth.signedIn) socket.sendIfOpen({ type: "lobby.unsubscribe" });
    offs.forEach((off) => off());
    clearInterval(poll);
  };
}
