// Reporting a player to the moderators (PROTOCOL §2h): a "Report" button that opens a
// small form (whom, why, what happened) and sends it; the moderation notices a player
// gets are shown as they come.

import { auth, get, post } from "./api.js";
import { formatDate, h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { socket } from "./socket.js";
import { toast } from "./ui.js";

const REASONS = ["cheating", "abuse", "name", "other"];

/**
 * A "Report" button and the form it opens.
 * @param {string[]} names whom the report may be about (a select when more than one)
 * @param {string} [gameId] the finished game it is about
 */
export function reportButton(names, gameId) {
  const box = h("div", { class: "report-box" });
  const open = h("button", { type: "button", class: "danger-outline", "data-testid": "report" }, t("mod.report"));
  open.addEventListener("click", () => {
    if (box.firstChild) {
      replace(box);
      return;
    }
    replace(box, reportForm(names, gameId, () => replace(box)));
  });
  return h("div", { class: "report" }, open, box);
}

function reportForm(names, gameId, done) {
  const who = h("select", { "data-testid": "report-name" }, names.map((n) => h("option", { value: n }, n)));
  const reason = h("select", { "data-testid": "report-reason" },
    REASONS.map((r) => h("option", { value: r }, t(`mod.reason_${r}`))));
  const text = h("textarea", { maxlength: 1000, rows: 3, "data-testid": "report-text" });
  const form = h("form", { class: "card report-form", "aria-label": t("mod.report_title") },
    h("h2", {}, t("mod.report_title")),
    names.length > 1 ? h("label", {}, t("mod.player"), who) : null,
    h("label", {}, t("mod.reason"), reason),
    h("label", {}, t("mod.text"), text),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", "data-testid": "report-send" }, t("mod.send")),
      h("button", { type: "button", onclick: done }, t("mod.cancel"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: names.length > 1 ? who.value : names[0], reason: reason.value };
    if (gameId) body.game_id = gameId;
    if (text.value.trim()) body.text = text.value.trim();
    try {
      await post("/api/reports", body);
      toast(t("mod.sent"), "info");
      done();
    } catch (err) {
      toast(err.message);
    }
  });
  return form;
}

const shown = new Set();

/** Show a `moderation.notice` once, and tell the server it was read. */
function tell(msg) {
  if (shown.has(msg.entry)) return;
  shown.add(msg.entry);
  const until = msg.until ? formatDate(msg.until) : "";
  toast(t(`mod.notice_${msg.action}`, { reason: msg.reason, until, name: msg.name || "" }), "error");
  post("/api/me/notices/seen", { entry: msg.entry }).catch(() => {});
}

/** Notices unread since the last visit, then each as it comes (a warning, a mute, a
 *  rename, rating gains removed). */
export function startModerationNotices() {
  socket.on("moderation.notice", tell);
  const unread = () => {
    if (!auth.signedIn) return;
    get("/api/me/notices").then((page) => page.notices.slice().reverse().forEach(tell)).catch(() => {});
  };
  window.addEventListener("domino:auth", unread);
  unread();
}
