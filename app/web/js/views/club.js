// One club (PROTOCOL §2e): what it is, the reader's way in or out, its members with their
// roles (the owner gives and takes the admin's role, the admins remove members), the
// requests to join and the invitation form for its admins, the members' leaderboard per
// variant and the club's tournaments.

import { api, auth, get, post } from "../api.js";
import { formatDate, h, nameTag, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { pill, toast } from "../ui.js";
import { variantName } from "../words.js";
import { openPill } from "./clubs.js";
import { formatWords } from "./tournaments.js";

const PAGE = 20;
const path = (clubId, rest = "") => `/api/clubs/${clubId}${rest}`;
const profile = (name) => h("a", { href: `#/player/${encodeURIComponent(name)}` }, nameTag(name));

export function renderClub(root, clubId) {
  const page = h("section", { class: "club-page", "data-testid": "club" }, h("p", { class: "muted" }, t("club.loading")));
  root.append(page);
  let club = null;
  let members = [];
  let membersTotal = 0;

  const act = (method, rest, body) => async () => {
    try {
      await api(method, path(clubId, rest), body);
    } catch (err) {
      toast(err.message);
    }
    load();
  };

  function yourWay() {
    if (!auth.signedIn) return h("p", {}, h("a", { href: "#/signin", class: "button primary" }, t("lobby.sign_in_or_up")));
    const you = club.you || { role: null, requested: false, invited: false };
    if (you.role === "owner") return h("p", { class: "muted" }, t("club.you_own"));
    if (you.role) {
      return h("div", { class: "actions" }, h("span", { class: "muted" }, t(`club.you_are_${you.role}`)), " ",
        h("button", { type: "button", "data-testid": "club-leave", onclick: act("POST", "/leave") }, t("club.leave")));
    }
    if (you.requested) {
      return h("div", { class: "actions" }, h("span", { class: "muted", "data-testid": "club-requested" }, t("club.requested")), " ",
        h("button", { type: "button", onclick: act("POST", "/leave") }, t("club.withdraw")));
    }
    const label = club.open || you.invited ? t("club.join") : t("club.ask_to_join");
    return h("div", { class: "actions" },
      you.invited ? h("span", { class: "muted" }, t("club.invited")) : null,
      h("button", { type: "button", class: "primary", "data-testid": "club-join", onclick: act("POST", "/join") }, label));
  }

  function memberRow(member) {
    const role = club.you && club.you.role;
    const buttons = [];
    if (role === "owner" && member.role !== "owner") {
      const next = member.role === "admin" ? "member" : "admin";
      buttons.push(h("button", { type: "button", "data-testid": `make-${next}`, onclick: act("POST", `/members/${encodeURIComponent(member.name)}`, { role: next }) },
        t(next === "admin" ? "club.make_admin" : "club.make_member")));
    }
    if ((role === "owner" && member.role !== "owner") || (role === "admin" && member.role === "member")) {
      buttons.push(h("button", { type: "button", class: "danger", "data-testid": "club-remove", onclick: () => {
        if (window.confirm(t("club.remove_confirm", { name: member.name }))) act("DELETE", `/members/${encodeURIComponent(member.name)}`)();
      } }, t("club.remove")));
    }
    return h("li", { "data-testid": "club-member", "data-role": member.role },
      h("span", {}, profile(member.name), " ", member.role === "member" ? null : pill(t(`club.role_${member.role}`), member.role)),
      buttons.length ? h("span", { class: "actions" }, buttons) : null);
  }

  function membersCard() {
    const more = h("button", { type: "button", "data-testid": "club-members-more", onclick: () => loadMembers(members.length) }, t("club.more"));
    return h("div", { class: "card", "data-testid": "club-members" },
      h("h2", {}, t("club.members_title"), " ", h("small", { class: "muted" }, `(${num(membersTotal)})`)),
      h("ul", { class: "people-list" }, members.map(memberRow)),
      members.length < membersTotal ? more : null);
  }

  function adminCard(requests) {
    const name = h("input", { name: "invite_name", maxlength: 20, required: true, autocomplete: "off", "data-testid": "club-invite-name" });
    const invite = h("form", { class: "form-row" },
      h("label", {}, t("club.invite_label"), name), h("button", { type: "submit" }, t("club.invite")));
    invite.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const done = await post(path(clubId, "/invite"), { name: name.value });
        toast(t(done.status === "member" ? "club.invite_member" : "club.invite_sent"), "info");
        name.value = "";
      } catch (err) {
        toast(err.message);
      }
      load();
    });
    return h("div", { class: "card", "data-testid": "club-requests" },
      h("h2", {}, t("club.requests_title")),
      requests.names.length
        ? h("ul", { class: "people-list" }, requests.names.map((who) => h("li", { "data-testid": "club-request" },
          profile(who),
          h("span", { class: "actions" },
            h("button", { type: "button", class: "primary", "data-testid": "club-accept", onclick: act("POST", `/requests/${encodeURIComponent(who)}`) }, t("club.accept")),
            h("button", { type: "button", onclick: act("DELETE", `/requests/${encodeURIComponent(who)}`) }, t("club.refuse"))))))
        : h("p", { class: "muted" }, t("club.no_requests")),
      invite);
  }

  function leaderboardCard() {
    const variants = Object.keys(club.leaderboard || {});
    return h("div", { class: "card", "data-testid": "club-leaderboard" },
      h("h2", {}, t("club.leaderboard")),
      variants.length ? variants.map((variant) => h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": variantName(variant) },
        h("table", { class: "data" },
          h("caption", {}, variantName(variant)),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("tournament.player")),
            h("th", { scope: "col" }, t("leaderboard.points")), h("th", { scope: "col" }, t("leaderboard.skill")))),
          h("tbody", {}, club.leaderboard[variant].map((row, i) => h("tr", {},
            h("td", { class: "num" }, num(i + 1)), h("th", { scope: "row", class: "player-cell" }, profile(row.name)),
            h("td", { class: "num" }, num(row.points)), h("td", { class: "num" }, num(row.skill))))))))
        : h("p", { class: "muted" }, t("club.no_rated_games")));
  }

  function tournamentsCard(tours) {
    const admin = club.you && (club.you.role === "owner" || club.you.role === "admin");
    return h("div", { class: "card", "data-testid": "club-tournaments" },
      h("h2", {}, t("club.tournaments")),
      tours.length
        ? h("ul", { class: "people-list" }, tours.map((tour) => h("li", {},
          h("a", { href: `#/tournament/${encodeURIComponent(tour.id)}` }, h("bdi", { translate: "no" }, tour.name)),
          h("small", { class: "muted" }, ` · ${tour.battle ? t("club.battle") : formatWords(tour)}`,
            tour.starts_at && tour.status === "waiting" ? ` · ${formatDate(tour.starts_at)}` : ""),
          pill(t(`tournament.status_${tour.status}`), tour.status))))
        : h("p", { class: "muted" }, t("club.no_tournaments")),
      auth.signedIn ? h("p", {}, h("a", { class: "button", href: `#/tournaments?club=${clubId}`, "data-testid": "club-new-tournament" },
        admin ? t("club.new_tournament") : t("club.new_battle"))) : null);
  }

  async function loadMembers(offset) {
    try {
      const got = await get(path(clubId, `/members?offset=${offset}&limit=${PAGE}`));
      members = offset ? [...members, ...got.members] : got.members;
      membersTotal = got.total;
    } catch (err) {
      toast(err.message);
    }
    draw();
  }

  let extra = { requests: null, tours: [] };
  function draw() {
    if (!club) return;
    const admin = club.you && (club.you.role === "owner" || club.you.role === "admin");
    replace(page,
      h("h1", {}, h("bdi", { translate: "no" }, club.name), " ", openPill(club)),
      h("p", { class: "meta" }, t("club.members_count", { n: club.members }), " · ", t("club.owner"), " ", profile(club.owner),
        club.admins.length ? [" · ", t("club.admins"), " ", club.admins.map((a, i) => [i ? ", " : "", profile(a)])] : null),
      club.description ? h("p", { class: "club-about", dir: "auto", "data-testid": "club-description" }, club.description) : null,
      yourWay(),
      h("div", { class: "tournament-columns" },
        h("div", {}, membersCard(), admin && extra.requests ? adminCard(extra.requests) : null),
        h("div", {}, leaderboardCard(), tournamentsCard(extra.tours))));
  }

  async function load() {
    try {
      club = await get(path(clubId));
    } catch (err) {
      replace(page, h("p", { class: "form-error" }, err.status === 404 ? t("club.not_found") : err.message));
      return;
    }
    const admin = club.you && (club.you.role === "owner" || club.you.role === "admin");
    const [requests, tours] = await Promise.all([
      admin ? get(path(clubId, "/requests?limit=50")).catch(() => null) : Promise.resolve(null),
      get(`/api/tournaments?club=${clubId}&limit=20`).catch(() => []),
    ]);
    extra = { requests, tours };
    await loadMembers(0);
  }
  load();
  return undefined;
}
