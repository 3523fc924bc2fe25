// The board: one renderer per layout kind. A line (Goat, Classic, ...) snakes across
// the board; a spinner or house (Fives, Telephone) is drawn as a cross; trains (Mexican
// Train) as rows from the engine double.

import { renderChain } from "./chain.js";
import { hasSpinner, renderSpinner } from "./spinner.js";
import { hasTrains, renderTrains } from "./trains.js";

/** Render `chain` (PROTOCOL view.chain) into `container`; options as renderChain's, plus
 * `view` (markers, the open double, legal moves) for the trains. */
export function renderLayout(container, chain, options = {}) {
  if (hasTrains(chain)) renderTrains(container, chain, options);
  else if (hasSpinner(chain)) renderSpinner(container, chain, options);
  else renderChain(container, chain, options);
}
