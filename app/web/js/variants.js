// The playable variants as the server's engine declares them (GET /api/variants):
// names, seat counts, options with defaults and allowed values, layout, who wins.
// Forms, option wording and leaderboard tabs are built from this list.

import { get } from "./api.js";

let loading = null;
let known = null;

/** The list the server put in the page (app/api/webfiles.py), if it did. */
function inPage() {
  const block = document.getElementById("variants");
  return block ? JSON.parse(block.textContent) : null;
}

/** The list, from the page or else fetched, once per page load. */
export function loadVariants() {
  if (!loading && !known) {
    known = inPage();
    if (known) loading = Promise.resolve(known);
  }
  if (!loading) {
    loading = get("/api/variants").then((list) => {
      known = list;
      return list;
    }).catch((err) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

/** The list if it has arrived, else null. */
export function variantsNow() {
  return known;
}

/** One variant's description, if known. */
export function variantInfo(name) {
  return (known || []).find((v) => v.name === name) || null;
}
