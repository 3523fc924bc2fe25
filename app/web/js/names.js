// Names for narrow places (a seat on a phone, a column of the score sheet): each the
// shortest beginning no other name at the table shares, so the players stay apart, with
// the whole name one tap away.

import { h } from "./dom.js";
import { playerName } from "./words.js";

const MIN = 3; // fewer letters tell too little, whatever the others are called
const LONG = 8; // a shared beginning longer than this is cut out of the middle

/** The characters of `text` as a reader counts them (a Thai vowel stays on its letter). */
function letters(text) {
  const Segmenter = /** @type {any} */ (Intl).Segmenter;
  if (Segmenter) return Array.from(new Segmenter(undefined, { granularity: "grapheme" }).segment(text), (x) => /** @type {any} */ (x).segment);
  return Array.from(text);
}

/** For each name, the shortest beginning (at least MIN letters) that no other, different
 * name begins with, then "…"; the whole name where that would save at most one letter.
 * Names alike for longer than LONG letters ("hamnamvarz_c98", "hamnamvarz_d41") are cut in
 * the middle instead: their first letters, "…", and where they part ("ham…c9"). */
export function abbreviations(names) {
  const split = names.map((n) => letters(String(n)));
  const forms = split.map((mine, i) => {
    const others = split.filter((other, j) => j !== i && other.join("") !== mine.join(""));
    let k = Math.min(MIN, mine.length);
    while (k < mine.length && others.some((other) => other.slice(0, k).join("") === mine.slice(0, k).join(""))) k++;
    if (k >= mine.length - 1) return { whole: mine.join(""), prefix: null, middle: null };
    const prefix = `${mine.slice(0, k).join("")}…`;
    if (k <= LONG) return { whole: mine.join(""), prefix, middle: null };
    let end = k;
    while (end < Math.min(mine.length, k + 1) && /[\p{L}\p{N}]/u.test(mine[end])) end++;
    return { whole: mine.join(""), prefix, middle: `${mine.slice(0, MIN).join("")}…${mine.slice(k - 1, end).join("")}` };
  });
  // A middle cut that another name's form matches (unlikely) gives way to the beginning.
  const first = forms.map((f) => f.middle || f.prefix || f.whole);
  return forms.map((f, i) => (f.middle && first.some((x, j) => j !== i && x === first[i]) ? f.prefix : first[i]));
}

/** A short name that may break after its "…" where it must ("ham…" over "c9"). */
function wrappable(short) {
  const [head, ...rest] = short.split("…");
  return rest.length ? [`${head}…`, h("wbr", {}), rest.join("…")] : short;
}

/** A name shown short (`short`, from abbreviations) that shows itself whole when tapped.
 * Both forms are in the button; the stylesheet shows one (`.name-tag.whole` the long).
 * @param {string} full
 * @param {string} short
 * @param {{cls?: string} & Record<string, string>} [attrs]
 */
export function nameTag(full, short, { cls = "", ...attrs } = {}) {
  const tag = h("button", {
    ...attrs, type: "button", class: `name-tag ${cls} ${short === full ? "whole" : ""}`, title: full, translate: "no", dir: "auto",
    "data-full": full,
  // A screen reader reads the whole name (hidden from the eye, never from it), not the short.
  }, h("span", { class: "name-short", "aria-hidden": "true" }, wrappable(short)), h("span", { class: "name-long" }, full));
  if (short !== full) {
    tag.addEventListener("click", (ev) => {
      ev.stopPropagation();
      tag.classList.toggle("whole");
    });
  }
  return tag;
}

/** Each seat's short name by seat number, told apart from the table's other seats. */
export function seatAbbreviations(view) {
  const seats = view.seats || [];
  const short = abbreviations(seats.map((x) => playerName(x, x.seat)));
  return new Map(seats.map((x, i) => [x.seat, short[i]]));
}
