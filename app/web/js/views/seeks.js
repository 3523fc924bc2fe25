// The lobby's "Play now" box (a seek: PROTOCOL §2b) with its waiting state, and the list
// of the players looking for a game.

import { api, get, post } from "../api.js";
import { wholeNumberField } from "../digits.js";
import { h, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { toast } from "../ui.js";
import { optionWords, variantName } from "../words.js";

const POLL_MS = 4000;
const RANGES = [0, 100, 200, 400];

export function playNowBox(variants, myRating) {
  const variant = h("select", { name: "seek_variant" },
    variants.map((v) => h("option", { value: v.name }, variantName(v.name))));
  const seats = h("select", { name: "seek_seats" });
  const turn = wholeNumberField({ name: "seek_turn_seconds", min: 5, max: 300, value: 30 });
  const rated = h("input", { type: "checkbox", name: "seek_rated", checked: true });
  const range = h("select", { name: "seek_range" },
    RANGES.map((n) => h("option", { value: String(n) }, n ? t("playnow.range_near", { n }) : t("playnow.range_any"))));
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "play-now" }, t("playnow.submit"));
  const cancel = h("button", { type: "button", "data-testid": "play-now-cancel" }, t("playnow.cancel"));
  const waiting = h("div", { class: "seek-waiting", hidden: true, role: "status", "data-testid": "play-now-waiting" },
    h("span", { class: "spinner", "aria-hidden": "true" }), h("span", {}, t("playnow.waiting")), cancel);
  const fields = h("div", { class: "seek-fields" });
  let open = null;

  const syncSeats = () => {
    const info = variants.find((v) => v.name === variant.value) || variants[0];
    const [low, high] = info.players;
    replace(seats, Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) =>
      h("option", { value: String(n), selected: n === Math.min(4, high) }, t("lobby.players", { n }))));
  };
  variant.addEventListener("change", syncSeats);
  syncSeats();

  const setWaiting = (seek) => {
    open = seek;
    waiting.hidden = !seek;
    fields.hidden = Boolean(seek);
  };
  cancel.addEventListener("click", async () => {
    if (!open) return;
    try {
      await api("DELETE", `/api/seeks/${encodeURIComponent(open.id)}`);
    } catch (err) {
      if (err.status !== 404) toast(err.message);
    }
    setWaiting(null);
  });
  const onMatched = () => setWaiting(null);
  window.addEventListener("domino:seek-matched", onMatched);
  // Its time was up, or the server found no socket of ours for long: it is gone.
  const onEnded = (ev) => {
    if (!open || ev.detail.seek_id !== open.id) return;
    setWaiting(null);
    toast(t("notices.seek_ended"), "info");
  };
  window.addEventListener("domino:seek-ended", onEnded);

  replace(fields,
    h("div", { class: "form-row" }, h("label", {}, t("create.game"), variant), h("label", {}, t("create.seats"), seats)),
    h("div", { class: "form-row" }, h("label", {}, t("create.seconds"), turn.node), h("label", {}, t("playnow.range"), range)),
    h("label", { class: "inline" }, rated, ` ${t("table.rated")}`),
    submit);
  const form = h("form", { class: "card play-now", "data-testid": "play-now-box" },
    h("h2", {}, t("playnow.title")), h("p", { class: "hint" }, t("playnow.hint")), fields, waiting);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const spread = Number(range.value);
    const body = {
      variant: variant.value, seats: Number(seats.value), options: {},
      turn_seconds: turn.value(), rated: rated.checked,
    };
    if (spread) {
      const mine = myRating(variant.value);
      body.rating_range = [Math.round(mine - spread), Math.round(mine + spread)];
    }
    submit.disabled = true;
    try {
      const seek = await post("/api/seeks", body);
      if (!seek.table_id) setWaiting(seek);
    } catch (err) {
      toast(t("playnow.failed", { reason: err.message }));
    } finally {
      submit.disabled = false;
    }
  });
  const stop = () => {
    window.removeEventListener("domino:seek-matched", onMatched);
    window.removeEventListener("domino:seek-ended", onEnded);
  };
  return { node: form, stop };
}

/** The open seeks, refreshed every few seconds while the lobby is shown. */
export function openSeeksList() {
  const list = h("ul", { class: "seek-list", "data-testid": "seek-list" });
  const empty = h("p", { class: "muted" }, t("seeks.empty"));
  const load = () => get("/api/seeks").then((seeks) => {
    replace(list, seeks.map((s) => h("li", { class: "seek" },
      h("strong", { translate: "no" }, s.player), ` (${num(s.rating)}) · `,
      variantName(s.variant), optionWords(s.variant, s.options).length ? ` (${optionWords(s.variant, s.options).join(", ")})` : "",
      ` · ${t("lobby.players", { n: s.seats })} · ${t("table.seconds_per_move", { n: s.turn_seconds })} · `,
      s.rated ? t("table.rated") : t("table.casual"))));
    empty.hidden = seeks.length > 0;
  }).catch(() => {});
  load();
  const timer = setInterval(load, POLL_MS);
  return {
    node: h("section", { class: "open-seeks" }, h("h2", {}, t("seeks.title")), empty, list),
    stop: () => clearInterval(timer),
  };
}
