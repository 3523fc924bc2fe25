// People on every page: a challenge that arrives is offered at once (accept, decline), a
// challenge accepted takes both players to its table, and the friends' changes are told
// to whichever view shows them (`domino:people`).

import { alertPlayer } from "./alerts.js";
import { api, post } from "./api.js";
import { h, nameTag } from "./dom.js";
import { t } from "./i18n.js";
import { socket } from "./socket.js";
import { navigate, toast } from "./ui.js";
import { variantName } from "./words.js";

const offers = new Map(); // challenge id -> its box

function changed(detail) {
  window.dispatchEvent(new CustomEvent("domino:people", { detail }));
}

function goTo(tableId) {
  const hash = `#/table/${encodeURIComponent(tableId)}`;
  if (location.hash !== hash) navigate(hash);
}

export async function acceptChallenge(id) {
  try {
    const done = await post(`/api/challenges/${encodeURIComponent(id)}/accept`);
    dismiss(id);
    if (done.table_id) goTo(done.table_id);
  } catch (err) {
    toast(err.message);
  }
}

export async function declineChallenge(id) {
  try {
    await post(`/api/challenges/${encodeURIComponent(id)}/decline`);
  } catch (err) {
    toast(err.message);
  }
  dismiss(id);
}

export async function withdrawChallenge(id) {
  try {
    await api("DELETE", `/api/challenges/${encodeURIComponent(id)}`);
  } catch (err) {
    toast(err.message);
  }
}

function dismiss(id) {
  const box = offers.get(id);
  if (box) box.remove();
  offers.delete(id);
}

/** What a challenge asks for, in words: "Goat · 2 players · 30 s a move". */
export function challengeTerms(c) {
  return `${variantName(c.variant)} · ${t("lobby.players", { n: c.seats })} · ${t("table.seconds_per_move", { n: c.turn_seconds })}`;
}

function offer(c) {
  if (offers.has(c.id)) return;
  const box = h("div", { class: "toast challenge-offer", role: "alertdialog", "aria-label": t("people.challenge_from_label"), "data-testid": "challenge-offer" },
    h("p", {}, t("people.challenge_from"), " ", nameTag(c.from, { class: "name" })),
    h("p", { class: "muted" }, challengeTerms(c)),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-testid": "challenge-accept", onclick: () => acceptChallenge(c.id) }, t("people.accept")),
      h("button", { type: "button", "data-testid": "challenge-decline", onclick: () => declineChallenge(c.id) }, t("people.decline"))));
  offers.set(c.id, box);
  document.getElementById("toasts")?.append(box);
  // it closes by itself when the challenge does
  setTimeout(() => dismiss(c.id), Math.max(0, c.expires_at - Date.now()));
}

export function startPeople() {
  socket.on("challenge.new", (msg) => {
    alertPlayer("start", t("people.challenge_arrived"), msg.challenge.from);
    offer(msg.challenge);
    changed(msg);
  });
  socket.on("challenge.update", (msg) => {
    const c = msg.challenge;
    if (c.status !== "open") dismiss(c.id);
    // the challenger is taken to the table his challenge became
    if (c.status === "accepted" && c.table_id) goTo(c.table_id);
    changed(msg);
  });
  socket.on("friend.update", changed);
  socket.on("block.update", changed);
}
