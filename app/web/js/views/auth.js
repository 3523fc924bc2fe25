// Sign in / sign up.

import { auth, post } from "../api.js";
import { h } from "../dom.js";
import { navigate, signedIn } from "../ui.js";

function authForm({ title, action, submitLabel, autocomplete, testid }) {
  const error = h("p", { class: "form-error", role: "alert" });
  const username = h("input", {
    name: "username", required: true, minlength: 3, maxlength: 20, pattern: "[A-Za-z0-9_]{3,20}",
    autocomplete: "username", autocapitalize: "none", spellcheck: "false",
    title: "3 to 20 letters, digits or _",
  });
  const password = h("input", {
    name: "password", type: "password", required: true, minlength: 8, maxlength: 128, autocomplete,
  });
  const button = h("button", { type: "submit", class: "primary" }, submitLabel);
  const form = h("form", { class: "card auth-form", "data-testid": testid },
    h("h2", {}, title),
    h("label", {}, "Username", username),
    h("label", {}, "Password", password),
    error,
    button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      const data = await post(action, { username: username.value, password: password.value });
      signedIn(data.token, data.player);
      const next = sessionStorage.getItem("domino.next") || "#/lobby";
      sessionStorage.removeItem("domino.next");
      navigate(next);
    } catch (err) {
      error.textContent = err.status === 401 ? "Wrong username or password." : err.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export function renderAuth(root) {
  const intro = auth.signedIn
    ? h("p", {}, `You are signed in as ${auth.player.name}. `, h("a", { href: "#/lobby" }, "Go to the lobby"), ".")
    : h("p", { class: "lead" }, "Play Goat (Kozel) and classic dominoes with people online. Sign in or create an account.");
  root.append(
    h("section", { class: "auth-page" },
      h("h1", {}, "Welcome"),
      intro,
      h("div", { class: "auth-forms" },
        authForm({ title: "Sign in", action: "/api/auth/login", submitLabel: "Sign in", autocomplete: "current-password", testid: "signin" }),
        authForm({ title: "Create an account", action: "/api/auth/register", submitLabel: "Sign up", autocomplete: "new-password", testid: "signup" })),
      h("p", {}, h("a", { href: "#/lobby" }, "Just watch"), " — spectators need no account.")));
}
