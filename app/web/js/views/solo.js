// The lobby's "Play the computer": one tap makes a casual table, seats computer players
// in its other seats (a full table starts) and opens it.

import { auth, post } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { navigate, toast } from "../ui.js";
import { variantName } from "../words.js";

const SEATS = 2; // one computer player: the quickest game to learn from
const TURN_SECONDS = 60; // a newcomer reads the rules between moves
const FIRST = "goat";

/** A casual table of `variant` against computer players, started; its id. */
async function tableAgainstComputers(variant, seats) {
  const table = await post("/api/tables", { variant, seats, rated: false, turn_seconds: TURN_SECONDS });
  for (let i = 1; i < seats; i++) await post(`/api/tables/${encodeURIComponent(table.id)}/bots`, { strength: "heuristic" });
  return table.id;
}

export function playComputerBox(variants) {
  const initial = variants.some((v) => v.name === FIRST) ? FIRST : variants[0].name;
  const variant = h("select", { name: "solo_variant", "aria-label": t("create.game") },
    variants.map((v) => h("option", { value: v.name, selected: v.name === initial }, variantName(v.name))));
  const button = h("button", { type: "button", class: "primary", "data-testid": "play-computer" }, t("phone.play_computer"));
  button.addEventListener("click", async () => {
    if (!auth.signedIn) {
      // A newcomer signs up first and comes back to the lobby to play.
      sessionStorage.setItem("domino.next", "#/lobby");
      navigate("#/signin");
      return;
    }
    button.disabled = true;
    try {
      const info = variants.find((v) => v.name === variant.value) || variants[0];
      const id = await tableAgainstComputers(info.name, Math.max(SEATS, info.players[0]));
      navigate(`#/table/${encodeURIComponent(id)}`);
    } catch (err) {
      toast(err.message);
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "card play-computer", "data-testid": "play-computer-box" },
    h("h2", {}, t("phone.play_computer")),
    h("p", { class: "hint" }, t("phone.play_computer_hint")),
    h("div", { class: "form-row" }, variant, button));
}
