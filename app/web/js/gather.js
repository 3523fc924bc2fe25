// Finding a game, on every page: a matched seek or a tournament pairing takes the
// player's browser to his table by itself (with the alert of a game start), and a
// tournament game's end takes it back to the tournament page. A courtyard's turn coming
// (PROTOCOL §2d `courtyard.seated`) is told once a game, and takes him there unless he is
// at another table's page (then a toast says it).

import { alertPlayer } from "./alerts.js";
import { t } from "./i18n.js";
import { socket } from "./socket.js";
import { navigate, toast } from "./ui.js";

const BACK_AFTER_MS = 5000;
const KEY = "domino.tournament_table.";
const SEATED = "domino.courtyard_seated.";

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
  socket.on("courtyard.seated", (msg) => {
    // (kept by the server and sent again at every hello until he is at the table)
    const once = `${SEATED}${msg.table_id}:${msg.game}`;
    if (sessionStorage.getItem(once)) return;
    sessionStorage.setItem(once, "1");
    alertPlayer("start", t("courtyard.seated_title"), t("courtyard.seated"));
    const hash = `#/table/${encodeURIComponent(msg.table_id)}`;
    if (location.hash === hash) return;
    if (location.hash.startsWith("#/table/")) toast(t("courtyard.seated"), "info");
    else navigate(hash);
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
