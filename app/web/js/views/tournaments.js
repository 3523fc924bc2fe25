// Tournaments: the list (upcoming, running, finished) and the create form.

import { auth, get, post } from "../api.js";
import { wholeNumberField } from "../digits.js";
import { formatDate, h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { navigate, pill, toast } from "../ui.js";
import { loadVariants } from "../variants.js";
import { optionLabel, optionValueWord, optionWords, variantName } from "../words.js";
import { clubFields } from "./battle.js";

const SECTIONS = [["waiting", "tournaments.upcoming"], ["running", "tournaments.running"], ["finished", "tournaments.finished"]];

/** A tournament's format in words: "Swiss, 3 rounds" or "Arena, 30 minutes". */
export function formatWords(tour) {
  return tour.format === "swiss"
    ? t("tournaments.swiss_rounds", { n: tour.rounds ?? 0 })
    : t("tournaments.arena_minutes", { n: tour.minutes ?? 0 });
}

function card(tour) {
  const options = optionWords(tour.variant, tour.options).join(" · ");
  return h("li", { class: `table-card tournament-card ${tour.status}`, dataset: { tournamentId: tour.id } },
    h("div", { class: "table-card-head" },
      h("a", { href: `#/tournament/${encodeURIComponent(tour.id)}`, class: "variant" }, h("strong", { translate: "no" }, h("bdi", {}, tour.name))),
      pill(t(`tournament.status_${tour.status}`), tour.status)),
    h("div", { class: "options" }, `${variantName(tour.variant)}${options ? ` (${options})` : ""} · ${formatWords(tour)}`),
    h("div", { class: "meta" },
      `${t("lobby.players", { n: tour.seats })} · ${t("tournaments.entrants", { n: tour.player_count ?? tour.players.length })}`,
      tour.starts_at && tour.status === "waiting" ? ` · ${t("tournaments.starts", { time: formatDate(tour.starts_at) })}` : "",
      tour.winner ? ` · ${t("tournament.winner", { name: tour.winner })}` : ""));
}

function createForm(variants, clubId) {
  const name = h("input", { type: "text", name: "name", maxlength: 80, required: true, value: t("tournaments.default_name") });
  const variant = h("select", { name: "variant" }, variants.map((v) => h("option", { value: v.name }, variantName(v.name))));
  const seats = h("select", { name: "seats" });
  const optionsBox = h("div", { class: "variant-options" });
  const swiss = h("input", { type: "radio", name: "format", value: "swiss", checked: true });
  const arena = h("input", { type: "radio", name: "format", value: "arena" });
  const rounds = wholeNumberField({ name: "rounds", min: 1, max: 15, value: 3 });
  const minutes = wholeNumberField({ name: "minutes", min: 5, max: 180, value: 30 });
  const roundsLabel = h("label", {}, t("tournaments.rounds"), rounds.node);
  const minutesLabel = h("label", { hidden: true }, t("tournaments.minutes"), minutes.node);
  const turn = wholeNumberField({ name: "turn_seconds", min: 5, max: 300, value: 30 });
  const startsAt = h("input", { type: "datetime-local", name: "starts_at" });
  const rated = h("input", { type: "checkbox", name: "rated", checked: true });
  const privateBox = h("input", { type: "checkbox", name: "private" });
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, t("tournaments.submit"));
  let controls = {};

  const syncVariant = () => {
    const info = variants.find((v) => v.name === variant.value) || variants[0];
    const [low, high] = info.players;
    replace(seats, Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) =>
      h("option", { value: String(n), selected: n === Math.min(4, high) }, t("lobby.players", { n }))));
    controls = {};
    for (const [key, spec] of Object.entries(info.options || {})) {
      const allowed = spec.allowed || [];
      const select = h("select", { name: key }, allowed.map((x) =>
        h("option", { value: String(x), selected: x === spec.default }, optionValueWord(info.name, key, x) || t("tournaments.option_off"))));
      controls[key] = {
        node: h("label", {}, optionLabel(info.name, key), select),
        value: () => allowed.find((x) => String(x) === select.value),
      };
    }
    replace(optionsBox, Object.values(controls).map((c) => c.node));
  };
  const syncFormat = () => {
    roundsLabel.hidden = !swiss.checked;
    minutesLabel.hidden = swiss.checked;
  };
  // a team battle is an arena (PROTOCOL §2e)
  const clubs = clubFields((battle) => {
    if (battle) arena.checked = true;
    swiss.disabled = battle;
    syncFormat();
  }, clubId);
  variant.addEventListener("change", syncVariant);
  for (const r of [swiss, arena]) r.addEventListener("change", syncFormat);
  syncVariant();

  const form = h("form", { class: "card create-form", "data-testid": "create-tournament" },
    h("h2", {}, t("tournaments.create")),
    h("label", {}, t("tournaments.name"), name),
    h("div", { class: "form-row" }, h("label", {}, t("create.game"), variant), h("label", {}, t("create.seats"), seats)),
    optionsBox,
    h("fieldset", {}, h("legend", {}, t("tournaments.format")),
      h("label", { class: "inline" }, swiss, ` ${t("tournaments.swiss")}`),
      h("label", { class: "inline" }, arena, ` ${t("tournaments.arena")}`)),
    h("div", { class: "form-row" }, roundsLabel, minutesLabel, h("label", {}, t("create.seconds"), turn.node)),
    h("label", {}, t("tournaments.starts_at"), startsAt, h("span", { class: "hint" }, t("tournaments.starts_at_hint"))),
    h("label", { class: "inline" }, rated, ` ${t("table.rated")}`),
    h("label", { class: "inline" }, privateBox, ` ${t("tournaments.private")}`),
    clubs.node,
    error, submit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const options = {};
    for (const [key, control] of Object.entries(controls)) options[key] = control.value();
    const body = {
      name: name.value.trim(), variant: variant.value, seats: Number(seats.value), options,
      format: swiss.checked ? "swiss" : "arena", turn_seconds: turn.value(),
      rated: rated.checked, private: privateBox.checked,
    };
    Object.assign(body, clubs.values());
    if (swiss.checked) body.rounds = rounds.value();
    else body.minutes = minutes.value();
    if (startsAt.value) body.starts_at = new Date(startsAt.value).getTime();
    submit.disabled = true;
    try {
      const made = await post("/api/tournaments", body);
      navigate(`#/tournament/${encodeURIComponent(made.id)}`);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

const PAGE = 20;

export function renderTournaments(root) {
  const fromClub = Number(new URLSearchParams(location.hash.split("?")[1] || "").get("club")) || null;
  // Each list: its first page read again every few seconds; "More" reads the next page once.
  const lists = SECTIONS.map(([status, title]) => {
    const list = h("ul", { class: "table-list", "data-testid": `tournaments-${status}` });
    const empty = h("p", { class: "muted" }, t("tournaments.none"));
    const more = h("button", { type: "button", hidden: true, "data-testid": `tournaments-more-${status}` }, t("tournaments.more"));
    const section = { status, list, empty, more, first: [], extra: [], node: h("section", {}, h("h2", {}, t(title)), empty, list, more) };
    more.addEventListener("click", () => {
      more.disabled = true;
      get(`/api/tournaments?status=${status}&offset=${section.first.length + section.extra.length}&limit=${PAGE}`).then((page) => {
        section.extra.push(...page);
        show(section, page.length === PAGE);
      }).catch((err) => toast(err.message)).finally(() => { more.disabled = false; });
    });
    return section;
  });
  function show(section, further) {
    const seen = new Set();
    const all = [...section.first, ...section.extra].filter((x) => !seen.has(x.id) && seen.add(x.id));
    replace(section.list, all.map(card));
    section.empty.hidden = all.length > 0;
    if (further !== undefined) section.more.hidden = !further;
  }
  const aside = h("aside", { class: "lobby-side" });
  root.append(h("section", { class: "lobby tournaments" },
    h("div", { class: "lobby-tables" }, h("h1", {}, t("tournaments.title")), lists.map((l) => l.node)),
    aside));
  const load = () => Promise.all(lists.map((section) =>
    get(`/api/tournaments?status=${section.status}&limit=${PAGE}`).then((page) => {
      section.first = page;
      show(section, section.extra.length ? undefined : page.length === PAGE);
    }))).catch((err) => toast(err.message));
  load();
  const timer = setInterval(load, 5000);
  if (auth.signedIn) {
    loadVariants().then((variants) => aside.append(createForm(variants, fromClub))).catch((err) => toast(err.message));
  } else {
    aside.append(h("div", { class: "card" }, h("p", {}, h("a", { href: "#/signin", class: "button primary" }, t("lobby.sign_in_or_up")))));
  }
  return () => clearInterval(timer);
}
