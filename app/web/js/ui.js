// Small shared UI services: toasts, navigation, sign-in state changes.

import { auth, post } from "./api.js";
import { h } from "./dom.js";
import { socket } from "./socket.js";

export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": "toast" }, message);
  box.append(el);
  setTimeout(() => el.remove(), 6000);
}

export function navigate(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

function authChanged() {
  window.dispatchEvent(new CustomEvent("domino:auth"));
}

/** Signed in: the server has set the session cookie; the socket reconnects to carry it. */
export function signedIn(player) {
  auth.set(player);
  socket.restart();
  authChanged();
}

export async function signOut() {
  // This tab's socket is closed first, so the server's 4401 for the session it revokes
  // is not taken for an expiry.
  socket.hangUp();
  auth.clear();
  try {
    await post("/api/auth/logout");
  } catch {
    // Unreachable: the cookie is still dropped by the next sign-in or its expiry.
  }
  socket.connect();
  authChanged();
  navigate("#/signin");
}

/** A small labelled status pill. */
export function pill(text, cls = "") {
  return h("span", { class: `pill ${cls}`.trim() }, text);
}
