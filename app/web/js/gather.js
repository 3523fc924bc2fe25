// Finding a game, on every page: a matched seek or a tournament pairing takes the
// player's browser to his table by itself (with the alert of a game start), and a
// tournament game's end takes it back to the tournament page.

import { alertPlayer } from "./alerts.js";
import { t } from "./i18n.js";
import { socket } from "./socket.js";
import { navigate } from "./ui.js";

const BACK_AFTER_MS = 5000;
const KEY = "domino.tournament_table.";

function goToTable(tableId) {
  alertPlayer("start", t("alert.game_started"), t("gather.table_ready"));
  const hash = `#/table/${encodeURIComponent(tableId)}`;
  if (location.hash !== hash) navigate(hash);
}

/** The tournament a table of this tab was paired for, if any. */
export function tournamentOf(tableId) {
  return sessionStorage.getItem(KEY + tableId);
}

export function startGathering() {
  socket.on("seek.matched", (msg) => {
    window.dispatchEvent(new CustomEvent("domino:seek-matched", { detail: msg }));
    goToTable(msg.table_id);
  });
  socket.on("seek.ended", (msg) => {
    window.dispatchEvent(new CustomEvent("domino:seek-ended", { detail: msg }));
  });
  socket.on("tournament.pairing", (msg) => {
    sessionStorage.setItem(KEY + msg.table_id, msg.tournament_id);
    goToTable(msg.table_id);
  });
  socket.on("table.state", (msg) => {
    const tournamentId = tournamentOf(msg.table_id);
    if (!tournamentId || !msg.view || msg.view.status !== "finished") return;
    sessionStorage.removeItem(KEY + msg.table_id);
    const here = `#/table/${encodeURIComponent(msg.table_id)}`;
    setTimeout(() => {
      if (location.hash === here) navigate(`#/tournament/${encodeURIComponent(tournamentId)}`);
    }, BACK_AFTER_MS);
  });
}
