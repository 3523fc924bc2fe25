// Entry point: hash routing (#/lobby, #/table/ID, #/leaderboard/goat, #/player/NAME,
// #/replay/GAMEID, #/rules/VARIANT, #/signin), the site header and its switches
// (language, colour scheme, sound).

import { auth, get } from "./api.js";
import { setTitle } from "./alerts.js";
import { h, nameTag, replace, s } from "./dom.js";
import { LANGUAGES, applyLanguage, keepForOffline, lang, setLang, t } from "./i18n.js";
import { applyTheme, muted, setMuted, setTheme, theme } from "./prefs.js";
import { socket } from "./socket.js";
import { signOut, toast } from "./ui.js";
import { loadVariants } from "./variants.js";
import { startGathering } from "./gather.js";
import { startPeople } from "./people.js";
import { startModerationNotices } from "./report.js";
import { renderAuth } from "./views/auth.js";
import { renderClub } from "./views/club.js";
import { renderClubs } from "./views/clubs.js";
import { renderFriends } from "./views/friends.js";
import { renderLeaderboard } from "./views/leaderboard.js";
import { renderLobby } from "./views/lobby.js";
import { renderModeration } from "./views/moderation.js";
import { renderPlayer } from "./views/player.js";
import { renderReplay } from "./views/replay.js";
import { renderRules } from "./views/rules.js";
import { renderSettings } from "./views/settings.js";
import { renderTable } from "./views/table.js";
import { renderTournament } from "./views/tournament.js";
import { renderTournaments } from "./views/tournaments.js";

const main = document.getElementById("main");
let cleanup = null;
let renderToken = 0;

/** Fill every element of the static page marked data-i18n / data-i18n-label. */
function translateStatic() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n-label]"))) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  setTitle(t("site.title"));
}

function renderHeader() {
  const area = document.getElementById("user-area");
  const player = auth.player;
  if (player) {
    replace(area,
      h("a", { href: `#/player/${encodeURIComponent(player.name)}`, class: "me", "data-testid": "me" }, nameTag(player.name)),
      h("a", { href: "#/friends", "data-nav": "friends", "data-testid": "nav-friends" }, t("people.friends")),
      h("a", { href: "#/settings", "data-nav": "settings", "data-testid": "nav-settings" }, t("settings.title")),
      // A moderator's link, once the server has said he is one (PROTOCOL §2h).
      player.moderator ? h("a", { href: "#/moderation", "data-nav": "moderation", "data-testid": "nav-moderation" }, t("mod.nav")) : null,
      h("button", { type: "button", class: "link-button", onclick: signOut }, t("nav.sign_out")));
  } else {
    // From a table (an invite), signing in or up comes back to it.
    replace(area, h("a", { href: "#/signin", onclick: () => {
      if (location.hash.startsWith("#/table/")) sessionStorage.setItem("domino.next", location.hash);
    } }, t("nav.sign_in")));
  }
  renderPrefs();
}

function renderPrefs() {
  const language = h("select", { class: "lang-select", "aria-label": t("prefs.language"), "data-testid": "lang" },
    LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === lang(), lang: l.code }, l.name)));
  language.addEventListener("change", () => setLang(language.value));
  const schemes = ["auto", "light", "dark"];
  const scheme = h("button", {
    type: "button", class: "pref-button", "data-testid": "theme", "aria-label": t("prefs.theme"),
    title: t(`prefs.theme_${theme()}`),
    onclick: () => {
      setTheme(schemes[(schemes.indexOf(theme()) + 1) % schemes.length]);
      renderPrefs();
    },
  }, theme() === "dark" ? "☾" : theme() === "light" ? "☀" : "◐");
  const sound = h("button", {
    type: "button", class: "pref-button", "data-testid": "mute", "aria-pressed": muted() ? "true" : "false",
    "aria-label": t("prefs.mute"), title: muted() ? t("prefs.sound_off") : t("prefs.sound_on"),
    onclick: () => {
      setMuted(!muted());
      renderPrefs();
    },
  }, speakerIcon(muted()));
  replace(document.getElementById("prefs"), language, scheme, sound);
}

/** A small speaker, struck through when muted (drawn: emoji fonts are not everywhere). */
function speakerIcon(off) {
  return s("svg", { viewBox: "0 0 24 24", width: 16, height: 16, class: "speaker", "aria-hidden": "true" },
    s("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
    off
      ? s("path", { d: "M16 9l5 6M21 9l-5 6", stroke: "currentColor", "stroke-width": 2, fill: "none" })
      : s("path", { d: "M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12", stroke: "currentColor", "stroke-width": 2, fill: "none" }));
}

/** @type {[RegExp, (m: RegExpExecArray) => (root: HTMLElement) => unknown][]} */
const ROUTES = [
  [/^#\/table\/([^/?]+)$/, (m) => (root) => renderTable(root, decodeURIComponent(m[1]))],
  [/^#\/leaderboard(?:\/([^/?]+))?(?:\?.*)?$/, (m) => (root) => renderLeaderboard(root, decodeURIComponent(m[1] || "goat"))],
  [/^#\/player\/([^/?]+)$/, (m) => (root) => renderPlayer(root, decodeURIComponent(m[1]))],
  [/^#\/replay\/([^/?]+)$/, (m) => (root) => renderReplay(root, decodeURIComponent(m[1]))],
  [/^#\/review\/([^/?]+)$/, (m) => (root) => renderReplay(root, decodeURIComponent(m[1]), { review: true })],
  [/^#\/rules(?:\/([^/?]+))?$/, (m) => (root) => renderRules(root, decodeURIComponent(m[1] || "goat"))],
  [/^#\/signin$/, () => (root) => renderAuth(root)],
  [/^#\/friends$/, () => (root) => renderFriends(root)],
  [/^#\/settings$/, () => (root) => renderSettings(root)],
  [/^#\/lobby$/, () => (root) => renderLobby(root)],
  [/^#\/tournaments(?:\?.*)?$/, () => (root) => renderTournaments(root)],
  [/^#\/moderation$/, () => (root) => renderModeration(root)],
  [/^#\/clubs$/, () => (root) => renderClubs(root)],
  [/^#\/club\/(\d+)$/, (m) => (root) => renderClub(root, Number(m[1]))],
  [/^#\/tournament\/([^/?]+)$/, (m) => (root) => renderTournament(root, decodeURIComponent(m[1]))],
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
  setTitle(t("site.title"));
  for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-nav]"))) {
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
  toast(t("auth.expired"));
});

window.addEventListener("hashchange", route);
window.addEventListener("domino:auth", renderHeader);
window.addEventListener("domino:lang", () => {
  translateStatic();
  renderHeader();
  socket.sayLanguage();
  route();
});
/** The cookie may have expired or been signed out elsewhere while the tab was closed. */
async function checkSession() {
  if (!auth.signedIn) return;
  try {
    auth.set(await get("/api/me"));
  } catch (err) {
    if (err.status !== 401) return; // unreachable for now: the socket will tell
    auth.clear();
  }
  renderHeader();
}

/** Small screens fold the header's links and the player's name behind a menu button. */
function setUpMenu() {
  const button = document.getElementById("menu-button");
  const header = button.closest(".site-header");
  const close = () => {
    header.classList.remove("menu-open");
    button.setAttribute("aria-expanded", "false");
  };
  button.addEventListener("click", () => {
    const open = header.classList.toggle("menu-open");
    button.setAttribute("aria-expanded", String(open));
  });
  document.getElementById("nav-menu").addEventListener("click", (ev) => {
    if (/** @type {Element} */ (ev.target).closest("a, button")) close();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && header.classList.contains("menu-open")) {
      close();
      button.focus();
    }
  });
  window.addEventListener("hashchange", close);
}

setUpMenu();
applyTheme();
applyLanguage();
translateStatic();
renderHeader();
// A page opened at a table connects straight to it (`socket.follow`), not once more.
const openedAt = /^#\/table\/([^/?]+)/.exec(location.hash);
if (openedAt) socket.follow(decodeURIComponent(openedAt[1]));
socket.connect();
startGathering();
startPeople();
startModerationNotices();
checkSession();
// Variant names and option words come from the server: draw the first page once they are here.
loadVariants().catch(() => {}).finally(route);
// Installable, and an offline page (app/web/sw.js), once the page has what it needs.
// (The load event may be over already: this module waited for its catalogue.)
if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js")
    .then(() => keepForOffline("domino-client-v1")).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}
