// The message catalogue (app/web/lang/<code>.json, which the server reads too for its
// error messages): every word the client shows, in English, Russian, Thai,
// Persian (right to left) and Lao. The language comes from the player's choice
// (remembered), else from the browser's languages, else English.
//
// t("key", {name: "masha"}) fills {name}; a key whose value is an object of plural
// forms ({one, few, many, other}) takes the form for params.n by Intl.PluralRules.

export const LANGUAGES = [
  { code: "en", name: "English", dir: "ltr" },
  { code: "ru", name: "Русский", dir: "ltr" },
  { code: "th", name: "ไทย", dir: "ltr" },
  { code: "fa", name: "فارسی", dir: "rtl" },
  { code: "lo", name: "ລາວ", dir: "ltr" },
];
const CODES = LANGUAGES.map((l) => l.code);
const LANG_KEY = "domino.lang";

function fromBrowser() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (CODES.includes(code)) return code;
  }
  return "en";
}

/** One language's catalogue. Only the reader's is loaded: every catalogue has every key
 * (tests/test_words.py), so none needs another to fall back on. The address is absolute,
 * so the bundle (bundle.mjs) leaves the catalogues out and the import map names them. */
async function load(code) {
  const module = await import(`/lang/${code}.json`, { with: { type: "json" } });
  return module.default;
}

/** The catalogue the server put in the page (app/api/shell.py), if it is `code`'s. */
function inPage(code) {
  const block = document.getElementById("words");
  return block && block.dataset.lang === code ? JSON.parse(block.textContent) : null;
}

/** The server draws the page in the language chosen here: it reads this cookie. */
function tellServer(code) {
  document.cookie = `${LANG_KEY}=${code}; path=/; max-age=31536000; samesite=lax`;
}

let current = (() => {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && CODES.includes(saved)) {
    tellServer(saved);
    return saved;
  }
  return fromBrowser();
})();
let words = inPage(current) || await load(current);
let plurals = new Intl.PluralRules(current);
let numbers = new Intl.NumberFormat(current);

/** The offline page (app/web/offline.js) says its words from the reader's catalogue in the
 * service worker's cache (`cacheName`, app/web/sw.js): a catalogue that came in the page
 * is put there, as the worker keeps one that was fetched. */
export function keepForOffline(cacheName) {
  const block = document.getElementById("words");
  if (!block || block.dataset.lang !== current || !("caches" in self)) return;
  const copy = new Response(block.textContent, { headers: { "content-type": "application/json" } });
  caches.open(cacheName).then((cache) => cache.put(`/lang/${current}.json`, copy)).catch(() => {});
}

export function lang() {
  return current;
}

export function dir() {
  return (LANGUAGES.find((l) => l.code === current) || LANGUAGES[0]).dir;
}

/** Lay the page out for the language (lang and dir on <html>, the document title). */
export function applyLanguage() {
  document.documentElement.lang = current;
  document.documentElement.dir = dir();
}

export async function setLang(code) {
  if (!CODES.includes(code) || code === current) return;
  words = await load(code);
  current = code;
  plurals = new Intl.PluralRules(current);
  numbers = new Intl.NumberFormat(current);
  localStorage.setItem(LANG_KEY, code);
  tellServer(code);
  applyLanguage();
  window.dispatchEvent(new CustomEvent("domino:lang", { detail: code }));
}

function lookup(key) {
  return words[key];
}

/** The words for `key` in the current language, with {placeholders} filled. */
export function t(key, params = {}) {
  let text = lookup(key);
  if (text === undefined) {
    console.warn(`no words for ${key}`);
    return key;
  }
  if (typeof text === "object") {
    const form = plurals.select(Number(params.n ?? 0));
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (all, name) => {
    if (!(name in params)) return all;
    const value = params[name];
    return typeof value === "number" ? num(value) : String(value);
  });
}

/** Whether the catalogue has words for `key` (for optional words such as option names). */
export function has(key) {
  return lookup(key) !== undefined;
}

/** A number in the language's digits and grouping. */
export function num(n) {
  return typeof n === "number" && Number.isFinite(n) ? numbers.format(n) : String(n ?? "");
}

/** A tile's name ("3-5") in the language's digits: "۳-۵" on a Persian page. */
export function tileName(tile) {
  return String(tile ?? "").replace(/\d+/g, (d) => num(Number(d)));
}

/** "+3" for positive numbers (in the language's digits), "0" / "-2" otherwise. */
export function signedNum(n) {
  return n > 0 ? `+${num(n)}` : num(n);
}

export function date(value) {
  if (value === null || value === undefined) return "";
  const d = typeof value === "number" ? new Date(value) : new Date(String(value));
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString(current, { dateStyle: "short", timeStyle: "short" });
}

export function clockTime(value) {
  return new Date(value).toLocaleTimeString(current, { hour: "2-digit", minute: "2-digit" });
}

/** A list of names joined the language's way ("a, b and c"). */
export function list(items) {
  const parts = items.map(String);
  try {
    return new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(parts);
  } catch {
    return parts.join(", ");
  }
}

/** m:ss in the language's digits. */
export function duration(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const sec = total % 60;
  return `${num(m)}:${numbers.format(Math.floor(sec / 10))}${numbers.format(sec % 10)}`;
}
