// Clubs in tournaments (PROTOCOL §2e): the create form's choice of a club tournament or a
// team battle (its clubs and how many best players score for each), and a battle's live
// club standings on the tournament's page.

import { get } from "../api.js";
import { wholeNumberField } from "../digits.js";
import { h } from "../dom.js";
import { num, t } from "../i18n.js";
import { toast } from "../ui.js";

/**
 * The form's fields for clubs, and what they add to the tournament's body. `clubId`: a
 * club to start from (the club page's link): its admins make a club tournament, others a
 * battle with it.
 * @param {(battle: boolean) => void} onBattle told when a team battle is chosen or not
 * @param {number | null} clubId
 */
export function clubFields(onBattle, clubId) {
  const scope = h("select", { name: "club_scope", "data-testid": "club-scope", "aria-label": t("club.for") },
    h("option", { value: "" }, t("club.scope_everyone")),
    h("option", { value: "battle" }, t("club.scope_battle")));
  const picked = h("div", { class: "battle-clubs", "data-testid": "battle-clubs" });
  const seen = new Set();
  const addClub = (club, checked) => {
    if (seen.has(club.id)) return;
    seen.add(club.id);
    picked.append(h("label", { class: "inline" },
      h("input", { type: "checkbox", name: "battle_club", value: String(club.id), checked }), " ", h("bdi", { translate: "no" }, club.name)));
  };
  const query = h("input", { type: "search", name: "battle_search", maxlength: 40, autocomplete: "off", "aria-label": t("club.battle_search") });
  const find = h("button", { type: "button", "data-testid": "battle-find" }, t("club.search_button"));
  find.addEventListener("click", async () => {
    try {
      const found = await get(`/api/clubs?q=${encodeURIComponent(query.value.trim())}&limit=10`);
      found.clubs.forEach((club) => addClub(club, found.clubs.length === 1));
      if (!found.clubs.length) toast(t("club.none_found"), "info");
    } catch (err) {
      toast(err.message);
    }
  });
  const leaders = wholeNumberField({ name: "battle_leaders", min: 1, max: 20, value: 5 });
  const battleBox = h("div", { hidden: true, class: "battle-box" },
    h("p", { class: "hint" }, t("club.battle_hint")),
    picked,
    h("div", { class: "form-row" }, h("label", {}, t("club.battle_search"), query), find),
    h("label", {}, t("club.leaders"), leaders.node));
  const sync = () => {
    battleBox.hidden = scope.value !== "battle";
    onBattle(scope.value === "battle");
  };
  scope.addEventListener("change", sync);
  get("/api/me/clubs?limit=100").then((mine) => {
    for (const club of mine.clubs) {
      if (club.role === "owner" || club.role === "admin") {
        scope.insertBefore(h("option", { value: `club:${club.id}` }, t("club.scope_club", { name: club.name })), scope.lastChild);
      }
      addClub(club, club.id === clubId);
    }
    if (clubId !== null && scope.value === "") { // unless chosen meanwhile
      const admin = mine.clubs.some((c) => c.id === clubId && c.role !== "member");
      scope.value = admin ? `club:${clubId}` : "battle";
      if (!seen.has(clubId)) get(`/api/clubs/${clubId}`).then((club) => addClub(club, true)).catch(() => {});
      sync();
    }
  }).catch((err) => toast(err.message));

  return {
    node: h("fieldset", { class: "club-fields" }, h("legend", {}, t("club.for")), scope, battleBox),
    /** The body's `club` or `battle`, as chosen. @returns {Record<string, any>} */
    values() {
      if (scope.value.startsWith("club:")) return { club: Number(scope.value.slice(5)) };
      if (scope.value !== "battle") return {};
      const clubs = [...picked.querySelectorAll("input:checked")].map((box) => Number(/** @type {HTMLInputElement} */ (box).value));
      return { battle: { clubs, leaders: leaders.value() } };
    },
  };
}

/** A team battle's club standings: place, club, points of its best players, their games. */
export function battleStandings(tour) {
  if (!tour.battle) return null;
  const winner = tour.status === "finished" && tour.battle.clubs.find((c) => c.place === 1);
  return h("section", { class: "battle-standings" },
    h("h2", {}, t("club.battle_standings")),
    winner ? h("p", { class: "winner", "data-testid": "battle-winner" }, t("club.battle_winner", { name: winner.name })) : null,
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("club.battle_standings") },
      h("table", { class: "data standings", "data-testid": "battle-standings" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("tournament.place")), h("th", { scope: "col" }, t("club.club")),
          h("th", { scope: "col" }, t("tournament.points")), h("th", { scope: "col" }, t("tournament.games")))),
        h("tbody", {}, tour.battle.clubs.map((c) => h("tr", { "data-club": String(c.id) },
          h("td", { class: "num" }, num(c.place)),
          h("th", { scope: "row", class: "player-cell" }, h("a", { href: `#/club/${c.id}`, translate: "no" }, h("bdi", {}, c.name))),
          h("td", { class: "num" }, num(c.points)),
          h("td", { class: "num" }, num(c.games))))))),
    h("p", { class: "muted small" }, t("club.battle_rule", { n: tour.battle.leaders })));
}

/** The name of the club a player of a battle plays for. */
export function clubOf(tour, player) {
  if (!tour.battle || player.club === null || player.club === undefined) return null;
  const club = tour.battle.clubs.find((c) => c.id === player.club);
  return club ? club.name : null;
}
