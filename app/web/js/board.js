// The board: one renderer per layout kind, as the server names it (`view.layout`, and
// GET /api/variants' `layout`). A line (Goat, Classic, ...) snakes across the board; a
// spinner or house (Fives, Telephone, Donkey's cross) is drawn as a cross; trains
// (Mexican Train) as rows from the engine double.

import { renderChain } from "./chain.js";
import { renderSpinner } from "./spinner.js";
import { renderTrains } from "./trains.js";

const RENDERERS = { line: renderChain, spinner: renderSpinner, trains: renderTrains };

/** Render `chain` (PROTOCOL view.chain) of a `layout` ("line" | "spinner" | "trains") into
 * `container`; options as renderChain's, plus `view` (markers, the open double, legal
 * moves) for the trains. */
export function renderLayout(container, layout, chain, options = {}) {
  (RENDERERS[layout] || renderChain)(container, chain || [], options);
}
