// Sign in / sign up. A visitor who came from an invite (a table's link) returns to
// that table afterwards.

import { auth, post } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { navigate, signedIn } from "../ui.js";

function authForm({ title, action, submitLabel, autocomplete, testid, signUp = false }) {
  const error = h("p", { class: "form-error", role: "alert" });
  const username = h("input", {
    name: "username", required: true, minlength: 3, maxlength: 20,
    autocomplete: "username", autocapitalize: "none", spellcheck: "false",
    title: t("auth.username_rule"),
  });
  const password = h("input", {
    name: "password", type: "password", required: true, minlength: 8, maxlength: 128, autocomplete,
  });
  const button = h("button", { type: "submit", class: "primary" }, submitLabel);
  const form = h("form", { class: "card auth-form", "data-testid": testid },
    h("h2", {}, title),
    h("label", {}, t("auth.username"), username,
      // Whoever picks a name sees its rule, not only in a tooltip.
      signUp ? h("span", { class: "hint", "data-testid": "username-rule" }, t("auth.username_rule")) : null),
    h("label", {}, t("auth.password"), password),
    error,
    button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      const data = await post(action, { username: username.value, password: password.value });
      signedIn(data.player);
      const next = sessionStorage.getItem("domino.next") || "#/lobby";
      sessionStorage.removeItem("domino.next");
      navigate(next);
    } catch (err) {
      error.textContent = err.status === 401 ? t("auth.wrong")
        : signUp && err.status === 409 ? t("auth.name_taken", { name: username.value }) : err.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export function renderAuth(root) {
  const next = sessionStorage.getItem("domino.next");
  const intro = auth.signedIn
    ? h("p", {}, `${t("auth.signed_in_as", { name: auth.player.name })} `, h("a", { href: "#/lobby" }, t("auth.go_lobby")))
    : h("p", { class: "lead" }, t("auth.intro"));
  root.append(
    h("section", { class: "auth-page" },
      h("h1", {}, t("auth.welcome")),
      intro,
      next && next.startsWith("#/table/") ? h("p", { class: "invite-note", "data-testid": "invite-note" }, t("auth.invite_note")) : null,
      h("div", { class: "auth-forms" },
        authForm({ title: t("auth.sign_in"), action: "/api/auth/login", submitLabel: t("auth.sign_in"), autocomplete: "current-password", testid: "signin" }),
        authForm({ title: t("auth.create"), action: "/api/auth/register", submitLabel: t("auth.sign_up"), autocomplete: "new-password", testid: "signup", signUp: true })),
      h("p", {}, h("a", { href: "#/lobby" }, t("auth.just_watch")), ` ${t("auth.no_account_needed")}`)));
}
