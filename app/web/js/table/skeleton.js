// The table page's parts, built once; the other modules refresh them on every state.

import { h } from "../dom.js";
import { t } from "../i18n.js";

export function skeleton(tableId) {
  const el = {
    title: h("h1", { class: "table-title" }, t("table.title")),
    subtitle: h("p", { class: "table-subtitle muted" }),
    rulesLink: h("a", { class: "rules-link", "data-testid": "rules-link", hidden: true }),
    headActions: h("div", { class: "table-actions" }),
    seatsBox: h("div", { class: "seats", "aria-label": t("table.players") }),
    turnText: h("div", { class: "turn-text", "data-testid": "turn" }),
    timer: h("div", { class: "timer", "data-testid": "timer" }),
    carry: h("div", { class: "carry", "data-testid": "carry" }),
    roundInfo: h("div", { class: "round-info" }),
    bazaarInfo: h("div", { class: "bazaar-info", "data-testid": "bazaar" }),
    watchers: h("div", { class: "watchers", "data-testid": "spectators" }),
    board: h("div", { class: "board", role: "group", "data-testid": "board" }),
    summaryBox: h("div", { class: "round-summary", role: "dialog", "aria-modal": "false", "aria-labelledby": "summary-title", hidden: true, "data-testid": "round-summary" }),
    prompt: h("div", { class: "prompt", "aria-live": "polite", "data-testid": "prompt" }),
    hand: h("div", { class: "hand", role: "group", "aria-label": t("table.your_tiles"), "data-testid": "hand" }),
    mine: h("div", { class: "my-area" }),
    waiting: h("div", { class: "waiting card", hidden: true, "data-testid": "waiting" }),
    courtyard: h("div", { class: "courtyard card", hidden: true, "data-testid": "courtyard" }),
    result: h("div", { class: "result card", hidden: true, "data-testid": "result" }),
    sheet: h("div", { class: "sheet-box", "data-testid": "score-sheet" }),
    // Scrolled by keyboard too (a focusable region); the moves are told by `announce`.
    log: h("ol", { class: "log", tabindex: "0", "aria-label": t("table.log"), "data-testid": "log" }),
    // What a screen reader says after each change: the moves, then whose turn it is.
    announce: h("div", { class: "visually-hidden", role: "status", "aria-live": "polite", "data-testid": "announce" }),
    chatList: h("ol", { class: "chat-list", tabindex: "0", "aria-label": t("table.chat"), "data-testid": "chat" }),
    chatInput: h("input", { name: "chat", maxlength: 300, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.label") }),
    chatNote: h("p", { class: "muted chat-note", hidden: true, "data-testid": "chat-note" }),
  };
  el.statusBar = h("div", { class: "status-bar" },
    h("div", { class: "clock" }, el.turnText, el.timer, el.carry),
    h("div", { class: "counts" }, el.roundInfo, el.bazaarInfo, el.watchers));
  el.felt = h("div", { class: "felt" }, el.board, el.summaryBox);
  el.chatForm = h("form", { class: "chat-form" }, el.chatInput, h("button", { type: "submit" }, t("chat.send")));
  // The game's parts are shown once the page knows what the table is (its first state,
  // or a table still waiting or gone): drawn before, they would stand in the wrong
  // shape (a waiting box) and move as the game filled in (`showLayout`).
  el.layout = h("div", { class: "table-layout", hidden: true },
    h("div", { class: "table-main" }, el.waiting, el.seatsBox, el.statusBar, el.felt, el.mine, el.result, el.courtyard),
    h("div", { class: "table-side" },
      h("section", { class: "card" }, h("h2", {}, t("table.score")), el.sheet),
      h("section", { class: "card" }, h("h2", {}, t("table.log")), el.log),
      h("section", { class: "card chat" }, h("h2", {}, t("table.chat")), el.chatList, el.chatForm, el.chatNote)));
  el.page = h("section", { class: "table-page", dataset: { tableId } },
    h("div", { class: "table-head" }, h("div", {}, h("div", { class: "table-title-row" }, el.title, el.rulesLink), el.subtitle), el.headActions),
    el.layout,
    el.announce);
  return el;
}
