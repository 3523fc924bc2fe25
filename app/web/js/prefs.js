// The player's remembered preferences: colour scheme and sound. The language is
// kept by i18n.js.

const THEME_KEY = "domino.theme"; // "auto" | "light" | "dark"
const MUTE_KEY = "domino.muted";

export function theme() {
  const saved = localStorage.getItem(THEME_KEY);
  return saved === "light" || saved === "dark" ? saved : "auto";
}

/** The scheme actually shown: the switch, else the system's prefers-color-scheme. */
export function effectiveTheme() {
  const chosen = theme();
  if (chosen !== "auto") return chosen;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function applyTheme() {
  document.documentElement.dataset.theme = effectiveTheme();
}

export function setTheme(value) {
  localStorage.setItem(THEME_KEY, value);
  applyTheme();
}

export function muted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

export function setMuted(value) {
  localStorage.setItem(MUTE_KEY, value ? "1" : "0");
}

if (window.matchMedia) {
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyTheme);
}
