// The board: one renderer per layout kind. A line (Goat, Classic, ...) snakes across
// the board; a spinner or house (Fives, Telephone) is drawn as a cross.

import { renderChain } from "./chain.js";
import { hasSpinner, renderSpinner } from "./spinner.js";

/** Render `chain` (PROTOCOL view.chain) into `container`; options as renderChain's. */
export function renderLayout(container, chain, options = {}) {
  if (hasSpinner(chain)) renderSpinner(container, chain, options);
  else renderChain(container, chain, options);
}
