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

export function signedIn(token, player) {
  auth.set(token, player);
  socket.restart();
  authChanged();
}

export async function signOut() {
  try {
    await post("/api/auth/logout");
  } catch {
    // A server without a logout route: forgetting the token is what matters.
  }
  auth.clear();
  socket.restart();
  authChanged();
  navigate("#/signin");
}

/** A small labelled status pill. */
export function pill(text, cls = "") {
  return h("span", { class: `pill ${cls}`.trim() }, text);
}
