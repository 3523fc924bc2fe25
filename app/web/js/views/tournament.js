// One tournament: its players and live standings (points, games, place), its current
// tables with a watch link, join and leave, and its creator's start button. Live through
// tournament.subscribe; a pairing takes a player to his table by itself (gather.js).

import { auth, get, post } from "../api.js";
import { formatDate, h, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { socket } from "../socket.js";
import { pill, toast } from "../ui.js";
import { optionWords, variantName } from "../words.js";
import { formatWords } from "./tournaments.js";

function standingsTable(tour, names) {
  const me = auth.player ? auth.player.id : null;
  return h("div", { class: "table-scroll" }, h("table", { class: "data standings", "data-testid": "standings" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("tournament.place")), h("th", { scope: "col" }, t("tournament.player")),
      h("th", { scope: "col" }, t("tournament.points")), h("th", { scope: "col" }, t("tournament.games")))),
    h("tbody", {}, tour.players.map((p) => h("tr", { class: `${p.id === me ? "me" : ""} ${p.withdrawn ? "withdrawn" : ""}`.trim(), "data-player": p.name },
      h("td", { class: "num" }, p.place === null ? "–" : num(p.place)),
      h("th", { scope: "row", class: "player-cell" },
        h("a", { href: `#/player/${encodeURIComponent(p.name)}`, translate: "no" }, names.get(p.id) || p.name),
        p.withdrawn ? h("span", { class: "muted" }, ` (${t("tournament.withdrawn")})`) : null),
      h("td", { class: "num" }, num(p.points)),
      h("td", { class: "num" }, num(p.games)))))));
}

/** "Your table is ready", with the way to it. */
export function tableReady(tableId) {
  return h("p", { class: "table-ready", role: "status", "data-testid": "table-ready" },
    `${t("notices.table_ready")} · `, h("a", { href: `#/table/${encodeURIComponent(tableId)}` }, t("notices.go")));
}

function tablesList(tour, names) {
  const current = tour.tables.filter((x) => x.status === "playing");
  if (!current.length) return h("p", { class: "muted" }, t("tournament.no_tables"));
  return h("ul", { class: "tournament-tables", "data-testid": "tournament-tables" }, current.map((x) =>
    h("li", {},
      x.round ? `${t("tournament.round", { n: x.round })}: ` : "",
      h("span", { translate: "no" }, x.seats.map((id) => names.get(id) || "?").join(", ")), " ",
      h("a", { href: `#/table/${encodeURIComponent(x.table_id)}`, class: "button watch" }, t("lobby.watch")))));
}

export function renderTournament(root, tournamentId) {
  const page = h("section", { class: "tournament-page", "data-testid": "tournament" }, h("p", { class: "muted" }, t("lobby.loading_games")));
  root.append(page);
  let tour = null;

  const act = (what) => async () => {
    try {
      tour = await post(`/api/tournaments/${encodeURIComponent(tournamentId)}/${what}`);
      draw();
    } catch (err) {
      toast(err.message);
    }
  };

  function draw() {
    if (!tour) return;
    const names = new Map(tour.players.map((p) => [p.id, p.name]));
    const me = auth.player ? tour.players.find((p) => p.id === auth.player.id) : null;
    const inIt = me && !me.withdrawn;
    const buttons = [];
    if (auth.signedIn && tour.status !== "finished") {
      if (!inIt && (tour.status === "waiting" || tour.format === "arena")) {
        buttons.push(h("button", { type: "button", class: "primary", "data-testid": "tournament-join", onclick: act("join") }, t("tournament.join")));
      }
      if (inIt) buttons.push(h("button", { type: "button", "data-testid": "tournament-leave", onclick: act("leave") }, t("tournament.leave")));
      if (tour.status === "waiting" && auth.player && tour.creator === auth.player.name) {
        buttons.push(h("button", { type: "button", class: "primary", "data-testid": "tournament-start", onclick: act("start"),
          disabled: tour.players.filter((p) => !p.withdrawn).length < tour.seats }, t("tournament.start")));
      }
    }
    const options = optionWords(tour.variant, tour.options).join(" · ");
    const facts = [
      `${variantName(tour.variant)}${options ? ` (${options})` : ""}`,
      formatWords(tour),
      t("lobby.players", { n: tour.seats }),
      t("table.seconds_per_move", { n: tour.turn_seconds }),
      tour.rated ? t("table.rated") : t("table.casual"),
    ];
    if (tour.status === "running" && tour.format === "swiss" && tour.round) facts.push(t("tournament.round_of", { n: tour.round, total: tour.rounds }));
    if (tour.ends_at && tour.status === "running") facts.push(t("tournament.ends", { time: formatDate(tour.ends_at) }));
    if (tour.starts_at && tour.status === "waiting") facts.push(t("tournaments.starts", { time: formatDate(tour.starts_at) }));
    // The table this player is paired at, from the tournament as read: told even if the
    // pairing's message never reached this tab.
    const mine = me ? tour.tables.find((x) => x.status === "playing" && x.seats.includes(me.id)) : null;
    replace(page,
      h("h1", {}, h("span", { translate: "no" }, tour.name), " ", pill(t(`tournament.status_${tour.status}`), tour.status)),
      h("p", { class: "meta" }, facts.join(" · ")),
      mine ? tableReady(mine.table_id) : null,
      tour.winner ? h("p", { class: "winner", "data-testid": "winner" }, t("tournament.winner", { name: tour.winner })) : null,
      h("div", { class: "actions" }, buttons),
      h("div", { class: "tournament-columns" },
        h("div", {}, h("h2", {}, t("tournament.standings")), standingsTable(tour, names)),
        h("div", {}, h("h2", {}, t("tournament.tables")), tablesList(tour, names))));
  }

  get(`/api/tournaments/${encodeURIComponent(tournamentId)}`).then((found) => {
    tour = tour || found;
    draw();
  }).catch((err) => {
    replace(page, h("p", { class: "form-error" }, err.status === 404 ? t("tournament.not_found") : err.message));
  });
  const offs = [
    socket.on("tournament.update", (msg) => {
      if (!msg.tournament || msg.tournament.id !== tournamentId) return;
      tour = msg.tournament;
      draw();
    }),
    socket.onOpen(() => socket.send({ type: "tournament.subscribe", tournament_id: tournamentId })),
  ];
  return () => {
    socket.sendIfOpen({ type: "tournament.unsubscribe", tournament_id: tournamentId });
    offs.forEach((off) => off());
  };
}
