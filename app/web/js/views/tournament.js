// One tournament: its players and live standings (points, tie-breaks, games, place), the
// Swiss crosstable round by round or the arena's games played, each with a link to its
// replay; its current tables with a watch link; join and leave; its creator's start and
// cancel buttons. Live through tournament.subscribe: the first answer is the whole
// tournament, each update after it only what changed (merged here); a pairing takes a
// player to his table by itself (gather.js).

import { auth, get, post } from "../api.js";
import { formatDate, h, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { socket } from "../socket.js";
import { pill, toast } from "../ui.js";
import { optionWords, variantName } from "../words.js";
import { battleStandings, clubOf } from "./battle.js";
import { formatWords } from "./tournaments.js";

/**
 * The tournament after an update: a whole one replaces it; one of changes only replaces
 * the players and tables it names (by id) and drops the players gone.
 */
export function merged(tour, update) {
  const next = update.tournament;
  if (!update.changes_only || !tour) return next;
  const gone = new Set(update.players_gone || []);
  const players = new Map(tour.players.filter((p) => !gone.has(p.id)).map((p) => [p.id, p]));
  for (const p of next.players) players.set(p.id, p);
  const tables = new Map(tour.tables.map((x) => [x.table_id, x]));
  for (const x of next.tables) tables.set(x.table_id, x);
  const order = (p) => (p.place === null ? Infinity : p.place);
  return {
    ...next,
    players: [...players.values()].sort((a, b) => order(a) - order(b) || b.points - a.points),
    tables: [...tables.values()],
  };
}

/** "Your table is ready", with the way to it. */
export function tableReady(tableId, text = t("notices.table_ready")) {
  return h("p", { class: "table-ready", role: "status", "data-testid": "table-ready" },
    `${text} · `, h("a", { href: `#/table/${encodeURIComponent(tableId)}` }, t("notices.go")));
}

const replayLink = (gameId, label) => gameId
  ? h("a", { href: `#/replay/${encodeURIComponent(gameId)}`, translate: "no" }, label)
  : h("span", { translate: "no" }, label);

function standingsTable(tour, names) {
  const me = auth.player ? auth.player.id : null;
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("tournament.standings") },
    h("table", { class: "data standings", "data-testid": "standings" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("tournament.place")), h("th", { scope: "col" }, t("tournament.player")),
        h("th", { scope: "col" }, t("tournament.points")),
        h("th", { scope: "col", title: t("tournament.opponents_points") },
          h("abbr", { title: t("tournament.opponents_points") }, t("tournament.opponents_short"))),
        h("th", { scope: "col" }, t("tournament.wins")),
        h("th", { scope: "col" }, t("tournament.games")))),
      h("tbody", {}, tour.players.map((p) => h("tr", { class: `${p.id === me ? "me" : ""} ${p.withdrawn ? "withdrawn" : ""}`.trim(), "data-player": p.name },
        h("td", { class: "num" }, p.place === null ? "–" : num(p.place)),
        h("th", { scope: "row", class: "player-cell" },
          h("a", { href: `#/player/${encodeURIComponent(p.name)}`, translate: "no" }, h("bdi", {}, names.get(p.id) || p.name)),
          p.withdrawn ? h("span", { class: "muted" }, ` (${t("tournament.withdrawn")})`) : null,
          clubOf(tour, p) ? h("small", { class: "muted player-club" }, " · ", h("bdi", { translate: "no" }, clubOf(tour, p))) : null),
        h("td", { class: "num" }, num(p.points)),
        h("td", { class: "num", "data-testid": "opponents-points" }, num(p.opponents_points ?? 0)),
        h("td", { class: "num" }, num(p.wins ?? 0)),
        h("td", { class: "num" }, num(p.games)))))),
    h("p", { class: "muted small" }, t("tournament.tiebreaks")));
}

/** Swiss: a row a player, a column a round; each cell his points there, linked to the game. */
function crosstable(tour) {
  const rounds = Math.max(0, ...tour.tables.map((x) => x.round || 0));
  if (!rounds) return null;
  const cells = new Map();
  for (const x of tour.tables) {
    if (!x.round) continue;
    x.seats.forEach((id, seat) => cells.set(`${id}:${x.round}`, { table: x, seat }));
  }
  const cell = (player, round) => {
    const found = cells.get(`${player.id}:${round}`);
    if (!found) return h("td", { class: "num muted" }, "–");
    const { table, seat } = found;
    if (table.points === null) {
      return h("td", { class: "num" }, h("a", { href: `#/table/${encodeURIComponent(table.table_id)}`, title: t("lobby.watch") }, "…"));
    }
    const scored = table.points[seat];
    return h("td", { class: "num", title: t("tournament.scored", { points: num(scored) }) }, replayLink(table.game_id, num(scored)));
  };
  const list = [];
  for (let r = 1; r <= rounds; r += 1) list.push(r);
  return h("section", {},
    h("h2", {}, t("tournament.crosstable")),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("tournament.crosstable") },
      h("table", { class: "data crosstable", "data-testid": "crosstable" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tournament.player")),
          list.map((r) => h("th", { scope: "col", class: "num", title: t("tournament.round", { n: num(r) }) }, t("tournament.round_short", { n: num(r) }))))),
        h("tbody", {}, tour.players.map((p) => h("tr", { "data-player": p.name },
          h("th", { scope: "row", class: "player-cell" }, h("bdi", { translate: "no" }, p.name)),
          list.map((r) => cell(p, r))))))));
}

/** Every finished game, the latest first: its players with their points, and its replay. */
function results(tour, names) {
  const done = tour.tables.filter((x) => x.points !== null)
    .sort((a, b) => (b.finished_at || 0) - (a.finished_at || 0));
  return h("section", {},
    h("h2", {}, t("tournament.results")),
    done.length
      ? h("ol", { class: "tournament-results", "data-testid": "tournament-results", reversed: true }, done.map((x) =>
        h("li", { "data-table": x.table_id },
          x.round ? `${t("tournament.round", { n: num(x.round) })}: ` : "",
          x.seats.map((id, seat) => h("span", { class: "result-seat" },
            h("bdi", { translate: "no" }, names.get(id) || "?"), ` ${num(x.points[seat])}`)),
          x.game_id ? h("a", { href: `#/replay/${encodeURIComponent(x.game_id)}`, class: "button" }, t("result.replay")) : null)))
      : h("p", { class: "muted" }, t("tournament.no_results")));
}

function tablesList(tour, names) {
  const current = tour.tables.filter((x) => x.status === "playing");
  if (!current.length) return h("p", { class: "muted" }, t("tournament.no_tables"));
  return h("ul", { class: "tournament-tables", "data-testid": "tournament-tables" }, current.map((x) =>
    h("li", {},
      x.round ? `${t("tournament.round", { n: num(x.round) })}: ` : "",
      h("span", { translate: "no" }, x.seats.map((id) => names.get(id) || "?").join(", ")), " ",
      h("a", { href: `#/table/${encodeURIComponent(x.table_id)}`, class: "button watch" }, t("lobby.watch")))));
}

export function renderTournament(root, tournamentId) {
  const page = h("section", { class: "tournament-page", "data-testid": "tournament" }, h("p", { class: "muted" }, t("lobby.loading_games")));
  root.append(page);
  let tour = null;

  const act = (what) => async () => {
    if (what === "cancel" && !window.confirm(t("tournament.cancel_confirm"))) return;
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
    const over = tour.status === "finished" || tour.status === "cancelled";
    const mine = auth.player && tour.creator === auth.player.name;
    // The table this player is paired at, from the tournament as read: told even if the
    // pairing's message never reached this tab.
    const myTable = me ? tour.tables.find((x) => x.status === "playing" && x.seats.includes(me.id)) : null;
    const buttons = [];
    if (auth.signedIn && !over) {
      if (!inIt && (tour.status === "waiting" || tour.format === "arena")) {
        buttons.push(h("button", { type: "button", class: "primary", "data-testid": "tournament-join", onclick: act("join") }, t("tournament.join")));
      }
      if (inIt) buttons.push(h("button", { type: "button", "data-testid": "tournament-leave", onclick: act("leave") }, t("tournament.leave")));
      if (tour.status === "waiting" && mine) {
        buttons.push(h("button", { type: "button", class: "primary", "data-testid": "tournament-start", onclick: act("start"),
          disabled: tour.players.filter((p) => !p.withdrawn).length < tour.seats }, t("tournament.start")));
      }
      if (mine) buttons.push(h("button", { type: "button", class: "danger", "data-testid": "tournament-cancel", onclick: act("cancel") }, t("tournament.cancel")));
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
    replace(page,
      h("h1", {}, h("span", { translate: "no" }, tour.name), " ", pill(t(`tournament.status_${tour.status}`), tour.status)),
      h("p", { class: "meta" }, facts.join(" · ")),
      myTable ? tableReady(myTable.table_id) : null,
      tour.status === "cancelled" && tour.cancel_reason
        ? h("p", { class: "notice", "data-testid": "cancelled" }, t(`tournament.cancelled_${tour.cancel_reason}`)) : null,
      tour.winner ? h("p", { class: "winner", "data-testid": "winner" }, t("tournament.winner", { name: tour.winner })) : null,
      tour.club ? h("p", {}, h("a", { href: `#/club/${tour.club}`, "data-testid": "tournament-club" }, t("club.club_tournament"))) : null,
      h("div", { class: "actions" }, buttons),
      h("div", { class: "tournament-columns" },
        h("div", {}, battleStandings(tour), h("h2", {}, t("tournament.standings")), standingsTable(tour, names),
          tour.format === "swiss" ? crosstable(tour) : null),
        h("div", {}, h("h2", {}, t("tournament.tables")), tablesList(tour, names), results(tour, names))));
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
      // A change applies to the whole tournament the subscribe answer gave; before that
      // answer (or a reading) there is nothing to apply it to.
      if (msg.changes_only && !tour) return;
      tour = merged(tour, msg);
      draw();
    }),
    socket.onOpen(() => socket.send({ type: "tournament.subscribe", tournament_id: tournamentId })),
  ];
  return () => {
    socket.sendIfOpen({ type: "tournament.unsubscribe", tournament_id: tournamentId });
    offs.forEach((off) => off());
  };
}
