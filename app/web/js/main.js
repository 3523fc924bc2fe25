// Entry point: hash routing (#/lobby, #/table/ID, #/leaderboard/goat,
// #/player/NAME, #/replay/GAMEID, #/signin) and the site header.

import { auth } from "./api.js";
import { h, replace } from "./dom.js";
import { socket } from "./socket.js";
import { signOut, toast } from "./ui.js";
import { loadVariants } from "./variants.js";
import { renderAuth } from "./views/auth.js";
import { renderLeaderboard } from "./views/leaderboard.js";
import { renderLobby } from "./views/lobby.js";
import { renderPlayer } from "./views/player.js";
import { renderReplay } from "./views/replay.js";
import { renderTable } from "./views/table.js";

const main = document.getElementById("main");
let cleanup = null;
let renderToken = 0;

function renderHeader() {
  const area = document.getElementById("user-area");
  const player = auth.player;
  if (player) {
    replace(area,
      h("a", { href: `#/player/${encodeURIComponent(player.name)}`, class: "me", "data-testid": "me" }, player.name),
      h("button", { type: "button", class: "link-button", onclick: signOut }, "Sign out"));
  } else {
    replace(area, h("a", { href: "#/signin" }, "Sign in"));
  }
}

const ROUTES = [
  [/^#\/table\/([^/]+)$/, (m) => (root) => renderTable(root, decodeURIComponent(m[1]))],
  [/^#\/leaderboard(?:\/([^/]+))?$/, (m) => (root) => renderLeaderboard(root, decodeURIComponent(m[1] || "goat"))],
  [/^#\/player\/([^/]+)$/, (m) => (root) => renderPlayer(root, decodeURIComponent(m[1]))],
  [/^#\/replay\/([^/]+)$/, (m) => (root) => renderReplay(root, decodeURIComponent(m[1]))],
  [/^#\/signin$/, () => (root) => renderAuth(root)],
  [/^#\/lobby$/, () => (root) => renderLobby(root)],
];

async function route() {
  const hash = location.hash || "#/lobby";
  let view = null;
  for (const [re, make] of ROUTES) {
    const m = re.exec(hash);
    if (m) {
      view = make(m);
      break;
    }
  }
  if (!view) {
    location.replace("#/lobby");
    return;
  }
  if (cleanup) {
    try {
      cleanup();
    } catch (err) {
      console.warn(err);
    }
    cleanup = null;
  }
  const mine = ++renderToken;
  main.replaceChildren();
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.classList.toggle("active", hash.startsWith(`#/${a.dataset.nav}`));
  }
  const result = await view(main);
  if (mine !== renderToken) {
    if (typeof result === "function") result();
    return;
  }
  cleanup = typeof result === "function" ? result : null;
}

socket.on("connection", (msg) => {
  document.getElementById("conn").hidden = msg.connected;
});
socket.on("unauthorized", () => {
  renderHeader();
  toast("Your session has expired. Please sign in again.");
});

window.addEventListener("hashchange", route);
window.addEventListener("domino:auth", renderHeader);
renderHeader();
socket.connect();
// Variant names and option words come from the server: draw the first page once they are here.
loadVariants().catch(() => {}).finally(route);
