// The lobby: open and running tables (live via lobby.subscribe) and "Create table".

import { auth, get, post } from "../api.js";
import { wholeNumberField } from "../digits.js";
import { h, nameTag, replace } from "../dom.js";
import { has, t } from "../i18n.js";
import { socket } from "../socket.js";
import { navigate, pill, toast } from "../ui.js";
import { loadVariants } from "../variants.js";
import { changeQueue, queueAction, twoTeams, yardLine, yardOf } from "../courtyard.js";
import { optionLabel, optionValueWord, optionWords, playerName, variantName } from "../words.js";
import { openSeeksList, playNowBox } from "./seeks.js";
import { playComputerBox } from "./solo.js";
import { tableReady } from "./tournament.js";

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
    toast(t("lobby.join_failed", { reason: err.message }));
  }
}

function tableCard(table) {
  const seats = table.seats || [];
  const free = seats.filter((x) => !x.player).length;
  const seated = mySeat(table) !== null;
  const href = `#/table/${encodeURIComponent(table.id)}`;
  const actions = [];
  if (seated) actions.push(h("a", { class: "button primary", href }, t("lobby.open")));
  else if (table.status === "waiting" && free > 0) {
    if (auth.signedIn) actions.push(h("button", { type: "button", class: "primary join", onclick: () => join(table) }, t("lobby.join")));
    else {
      actions.push(h("a", { class: "button", href: "#/signin", onclick: () => sessionStorage.setItem("domino.next", href) }, t("lobby.sign_in_to_join")));
    }
  }
  if (!seated && table.status !== "waiting") actions.push(h("a", { class: "button watch", href }, t("lobby.watch")));
  // A courtyard (PROTOCOL §2d): its queue is joined from here too.
  const yard = yardOf(table);
  const queueing = yard && auth.signedIn ? queueAction(yard, seated && table.status !== "finished", table.status === "waiting" && free > 0) : null;
  if (queueing) {
    actions.push(h("button", { type: "button", class: queueing === "join" ? "primary" : "", "data-testid": `lobby-queue-${queueing}`,
      onclick: async () => {
        if (await changeQueue(table.id, queueing) && queueing === "join") navigate(href);
      } }, t(queueing === "join" ? "courtyard.join" : "courtyard.leave")));
  }

  return h("li", { class: `table-card ${table.status}`, dataset: { tableId: table.id } },
    h("div", { class: "table-card-head" },
      h("strong", { class: "variant" }, variantName(table.variant)),
      pill(has(`status.${table.status}`) ? t(`status.${table.status}`) : String(table.status), table.status),
      pill(table.rated ? t("table.rated") : t("table.casual"), table.rated ? "rated" : "casual"),
      table.private ? pill(t("people.private"), "private") : null,
      yard ? pill(t("courtyard.title"), "courtyard") : null),
    h("div", { class: "options" }, optionWords(table.variant, table.options).join(" · ") || t("lobby.standard_rules")),
    h("ul", { class: "seat-list", "aria-label": t("lobby.seats") },
      seats.map((x) => x.player
        // A player's name is not a word of the page: translators and translating browsers leave it.
        ? h("li", { class: "taken" }, x.bot ? playerName(x, x.seat) : nameTag(x.player))
        : h("li", { class: "free" }, t("lobby.free_seat")))),
    yard ? h("div", { class: "meta courtyard-meta", "data-testid": "courtyard-line" }, yardLine(yard),
      (yard.queue || []).length ? [": ", ...(yard.queue || []).flatMap((name, i) => [i ? ", " : "", nameTag(name)])] : null) : null,
    h("div", { class: "meta" }, `${t("lobby.players", { n: seats.length })} · ${t("table.seconds_per_move", { n: table.turn_seconds ?? 30 })}`),
    h("div", { class: "actions" }, actions));
}

/** An option's explanation, when the catalogue has one (the fish rules). */
function optionHelp(name) {
  return has(`option_help.${name}`) ? h("p", { class: "hint", "data-testid": `${name}-help` }, t(`option_help.${name}`)) : null;
}

/** One option's control: a switch for a yes/no option, radios for a few words, else a list. */
function optionControl(variant, name, spec) {
  const allowed = spec.allowed || [];
  if (allowed.length === 2 && allowed.every((v) => typeof v === "boolean")) {
    const box = h("input", { type: "checkbox", name, checked: spec.default === true });
    return { node: h("label", { class: "inline" }, box, ` ${optionLabel(variant, name)}`), value: () => box.checked };
  }
  if (allowed.every((v) => typeof v === "string") && allowed.length <= 3) {
    const radios = allowed.map((v) => h("input", { type: "radio", name, value: v, checked: v === spec.default }));
    return {
      node: h("fieldset", {}, h("legend", {}, optionLabel(variant, name)),
        radios.map((r, i) => h("label", { class: "inline" }, r, ` ${optionValueWord(variant, name, allowed[i])}`)),
        optionHelp(name)),
      value: () => allowed[radios.findIndex((r) => r.checked)],
    };
  }
  const select = h("select", { name },
    allowed.map((v) => h("option", { value: String(v), selected: v === spec.default }, optionValueWord(variant, name, v))));
  return {
    node: h("label", {}, optionLabel(variant, name), select),
    value: () => allowed.find((v) => String(v) === select.value),
  };
}

/** The create form, built from the variants the server plays (GET /api/variants). */
function createForm(variants) {
  const variant = h("select", { name: "variant" },
    variants.map((v) => h("option", { value: v.name }, variantName(v.name))));
  const seats = h("select", { name: "seats" });
  const optionsBox = h("div", { class: "variant-options" });
  const turn = wholeNumberField({ name: "turn_seconds", min: 5, max: 300, value: 30 });
  const pause = wholeNumberField({ name: "round_pause_seconds", min: 0, max: 30, value: 5 });
  const reserve = wholeNumberField({ name: "reserve_seconds", min: 0, max: 600, value: 60 });
  const rated = h("input", { type: "radio", name: "rated", value: "rated", checked: true });
  const casual = h("input", { type: "radio", name: "rated", value: "casual" });
  const rulesLink = h("a", { href: "#/rules/goat" }, t("create.rules_link"));
  // Casual tables: a computer player finishes for whoever times out, unless unticked.
  const takeover = h("input", { type: "checkbox", name: "on_timeout", checked: true });
  const takeoverLabel = h("label", { class: "inline", hidden: true }, takeover, ` ${t("create.bot_takeover")}`);
  const privateBox = h("input", { type: "checkbox", name: "private", "data-testid": "private" });
  // A courtyard: only where the chosen game is one of two teams (the variant says so).
  const courtyardBox = h("input", { type: "checkbox", name: "courtyard", "data-testid": "courtyard" });
  const waitingMax = h("select", { name: "waiting_max", "data-testid": "waiting-max", "aria-label": t("courtyard.title") },
    [2, 4].map((n) => h("option", { value: String(n) }, t("courtyard.people", { n: n + 4 }))));
  const courtyardRow = h("div", { class: "form-row courtyard-row", hidden: true },
    h("label", { class: "inline" }, courtyardBox, ` ${t("courtyard.create")}`), waitingMax);
  for (const radio of [rated, casual]) {
    radio.addEventListener("change", () => { takeoverLabel.hidden = !casual.checked; });
  }
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, t("create.submit"));
  let controls = {};

  const chosen = () => variants.find((v) => v.name === variant.value) || variants[0];
  const chosenOptions = () => Object.fromEntries(Object.entries(controls)
    .filter(([, c]) => !c.node.hidden).map(([name, c]) => [name, c.value()]));
  const syncCourtyard = () => {
    courtyardRow.hidden = !twoTeams(chosen(), Number(seats.value), chosenOptions());
    waitingMax.disabled = !courtyardBox.checked;
  };
  const syncTeams = () => {
    // Teams are partners sitting opposite: only a table of four has them.
    const teams = controls.teams;
    if (teams) teams.node.hidden = seats.value !== "4";
    syncCourtyard();
  };
  const syncVariant = () => {
    const info = chosen();
    const [low, high] = info.players;
    const before = seats.value;
    replace(seats, Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) =>
      h("option", { value: String(n), selected: String(n) === before }, t("lobby.players", { n }))));
    controls = {};
    for (const [name, spec] of Object.entries(info.options || {})) controls[name] = optionControl(info.name, name, spec);
    replace(optionsBox, Object.values(controls).map((c) => c.node));
    rulesLink.href = `#/rules/${encodeURIComponent(info.name)}`;
    syncTeams();
  };
  variant.addEventListener("change", syncVariant);
  seats.addEventListener("change", syncTeams);
  optionsBox.addEventListener("change", syncCourtyard);
  courtyardBox.addEventListener("change", syncCourtyard);
  syncVariant();

  const form = h("form", { class: "card create-form", "data-testid": "create-table" },
    h("h2", {}, t("create.title")),
    h("div", { class: "form-row" }, h("label", {}, t("create.game"), variant), h("label", {}, t("create.seats"), seats)),
    optionsBox,
    h("div", { class: "form-row" },
      h("label", {}, t("create.seconds"), turn.node),
      h("label", {}, t("clock.reserve_field"), reserve.node),
      h("label", {}, t("create.pause"), pause.node)),
    h("fieldset", { class: "rated" }, h("legend", {}, t("create.ratings")),
      // What Rated means for computer players, told before one chooses.
      h("p", { class: "hint", "data-testid": "rated-help" }, t("phone.rated_hint")),
      h("label", { class: "inline" }, rated, ` ${t("table.rated")}`),
      h("label", { class: "inline" }, casual, ` ${t("table.casual")}`),
      takeoverLabel),
    h("label", { class: "inline" }, privateBox, ` ${t("create.private")}`),
    courtyardRow,
    h("p", { class: "hint" }, rulesLink),
    error, submit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const options = {};
    for (const [name, control] of Object.entries(controls)) {
      if (!control.node.hidden) options[name] = control.value();
    }
    submit.disabled = true;
    try {
      const table = await post("/api/tables", {
        variant: variant.value, seats: Number(seats.value), options,
        turn_seconds: turn.value(), reserve_seconds: reserve.value(), round_pause_seconds: pause.value(),
        rated: rated.checked, on_timeout: casual.checked && takeover.checked ? "computer" : "end",
        private: privateBox.checked,
        ...(courtyardBox.checked && !courtyardRow.hidden
          ? { courtyard: true, waiting_max: Number(waitingMax.value) } : {}),
      });
      navigate(`#/table/${encodeURIComponent(table.id)}`);
    } catch (err) {
      error.textContent = err.status === 401 ? t("create.sign_in_first") : err.message;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

export async function renderLobby(root) {
  // Drawn once the tables are here, so nothing moves as the list fills (on a phone the
  // list stands above the side panel): the tables, the player's own and the variants
  // are asked for at once.
  const [first, myTables, variants] = await Promise.all([
    get("/api/tables").catch((err) => {
      toast(err.message);
      return [];
    }),
    auth.signedIn ? get("/api/me/tables").catch(() => []) : [],
    loadVariants().catch((err) => {
      toast(t("lobby.games_failed", { reason: err.message }));
      return null;
    }),
  ]);
  const tables = new Map();
  const list = h("ul", { class: "table-list", "data-testid": "table-list" });
  const empty = h("p", { class: "muted empty" }, t("lobby.empty"));

  const redraw = () => {
    const items = [...tables.values()]
      // (a courtyard between two games too: its next starts by itself)
      .filter((tb) => tb.status === "waiting" || tb.status === "playing" || tb.courtyard === true)
      // Waiting tables first (they need players), newest last within each group.
      .sort((a, b) => (a.status === b.status ? 0 : a.status === "waiting" ? -1 : 1));
    replace(list, items.map(tableCard));
    empty.hidden = items.length > 0;
  };
  const setAll = (all) => {
    tables.clear();
    for (const tb of all || []) tables.set(tb.id, tb);
    redraw();
  };

  const side = [];
  // Quick pairing: the "Play now" box (and, last, who is looking for a game).
  let playNow = null;
  if (variants && auth.signedIn) {
    playNow = playNowBox(variants, (v) => auth.player?.ratings?.[v]?.skill ?? 1500);
    side.push(playNow.node);
  }
  // The tables the player sits at, private ones too (they are in no list of the lobby).
  if (myTables.length) {
    side.push(h("div", { class: "card my-tables", "data-testid": "my-tables" },
      h("h2", {}, t("people.my_tables")), h("ul", { class: "table-list" }, myTables.map(tableCard))));
  }
  if (variants) side.push(playComputerBox(variants));
  if (auth.signedIn) {
    side.push(variants ? createForm(variants)
      : h("div", { class: "card create-form" }, h("h2", {}, t("create.title")), h("p", { class: "muted" }, t("lobby.loading_games"))));
  } else {
    side.push(h("div", { class: "card" }, h("h2", {}, t("lobby.play")),
      h("p", {}, h("a", { href: "#/signin", class: "button primary" }, t("lobby.sign_in_or_up")), ` ${t("lobby.to_create")}`)));
  }
  const seeks = openSeeksList();
  side.push(seeks.node);
  root.append(h("section", { class: "lobby" },
    h("div", { class: "lobby-tables" }, h("h1", {}, t("lobby.title")), empty, list),
    h("aside", { class: "lobby-side" }, side)));
  setAll(first);

  const offs = [];
  let poll = null;
  if (auth.signedIn) {
    offs.push(socket.on("lobby", (msg) => setAll(msg.tables)));
    offs.push(socket.on("lobby.update", (msg) => {
      if (msg.table && msg.table.id !== undefined) tables.set(msg.table.id, msg.table);
      redraw();
    }));
    offs.push(socket.on("lobby.remove", (msg) => {
      tables.delete(msg.table_id);
      redraw();
    }));
    // A table the server says is ready for this player (its notices are sent again with
    // the lobby): shown until he goes there.
    const ready = h("div", { class: "lobby-ready" });
    root.querySelector(".lobby-tables").prepend(ready);
    const onReady = (msg) => replace(ready, tableReady(msg.table_id));
    offs.push(socket.on("seek.matched", onReady), socket.on("tournament.pairing", onReady));
    // a courtyard's turn come (PROTOCOL §2d): its own words
    offs.push(socket.on("courtyard.seated", (msg) => replace(ready, tableReady(msg.table_id,
      t("courtyard.seated")))));
    offs.push(socket.onOpen(() => socket.send({ type: "lobby.subscribe" })));
  } else {
    // Spectators may not subscribe to the lobby; refresh it now and then instead.
    poll = setInterval(() => get("/api/tables").then(setAll).catch(() => {}), 10000);
  }
  return () => {
    if (auth.signedIn) socket.sendIfOpen({ type: "lobby.unsubscribe" });
    offs.forEach((off) => off());
    clearInterval(poll);
    seeks.stop();
    if (playNow) playNow.stop();
  };
}
