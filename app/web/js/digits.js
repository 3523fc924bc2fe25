// Whole numbers typed into forms in the page's digits: browsers draw <input type=number>
// with Latin digits whatever the language, so a number field is a text field with a
// numeric keyboard that shows the value as the page writes numbers (Persian ۳۰) and
// reads Latin, Persian, Arabic, Thai or Lao digits alike.

import { h } from "./dom.js";
import { num, t } from "./i18n.js";

// The zero of each script whose digits a player may type, Latin included.
const ZEROS = ["0", "\u06f0", "\u0660", "\u0e50", "\u0ed0"];

/** The Latin-digit form of `text` (other characters are kept as they are). */
export function latinDigits(text) {
  let out = "";
  for (const ch of String(text)) {
    const code = ch.codePointAt(0);
    const zero = ZEROS.find((z) => code >= z.codePointAt(0) && code <= z.codePointAt(0) + 9);
    out += zero ? String(code - zero.codePointAt(0)) : ch;
  }
  return out;
}

/** The whole number written in `text`, in any of the known scripts; NaN if it is not one. */
export function parseWhole(text) {
  const latin = latinDigits(text).trim();
  return /^\d+$/.test(latin) ? Number(latin) : Number.NaN;
}

/** A field for a whole number from `min` to `max`: `node` to place, `value()` to read. */
export function wholeNumberField({ name, min, max, value }) {
  const input = h("input", {
    type: "text", inputmode: "numeric", name, required: true, autocomplete: "off",
    value: num(value), "data-min": String(min), "data-max": String(max),
  });
  const read = () => parseWhole(input.value);
  const check = () => {
    const n = read();
    input.setCustomValidity(Number.isInteger(n) && n >= min && n <= max
      ? "" : t("form.whole_number", { min, max }));
  };
  input.addEventListener("input", check);
  // Once the field is left, the number is written back in the page's digits.
  input.addEventListener("change", () => {
    const n = read();
    if (Number.isInteger(n)) input.value = num(n);
  });
  check();
  return { node: input, value: read };
}
