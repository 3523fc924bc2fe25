// Settings: language and colour scheme, the password, signing out everywhere, the players
// one blocks, an export of one's data and the deletion of one's account.

import { api, auth, get, post } from "../api.js";
import { h, nameTag, replace } from "../dom.js";
import { LANGUAGES, lang, setLang, t } from "../i18n.js";
import { setTheme, theme } from "../prefs.js";
import { socket } from "../socket.js";
import { navigate, signOut, toast } from "../ui.js";

function card(title, testid, ...children) {
  return h("div", { class: "card settings-card", "data-testid": testid }, h("h2", {}, title), ...children);
}

function passwordField(name, label, autocomplete) {
  return h("label", {}, label, h("input", { type: "password", name, required: true, maxlength: "128", autocomplete }));
}

function appearance() {
  const language = h("select", { "data-testid": "settings-lang" },
    LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === lang(), lang: l.code }, l.name)));
  language.addEventListener("change", () => setLang(language.value));
  const scheme = h("select", { "data-testid": "settings-theme" },
    ["auto", "light", "dark"].map((v) => h("option", { value: v, selected: v === theme() }, t(`prefs.theme_${v}`))));
  scheme.addEventListener("change", () => setTheme(scheme.value));
  return card(t("settings.appearance"), "settings-appearance",
    h("div", { class: "form-row" }, h("label", {}, t("prefs.language"), language), h("label", {}, t("prefs.theme"), scheme)));
}

function password() {
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h("form", {},
    passwordField("current", t("settings.current_password"), "current-password"),
    passwordField("new", t("settings.new_password"), "new-password"),
    error, h("button", { type: "submit", class: "primary" }, t("settings.change_password")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const field = (n) => /** @type {HTMLInputElement} */ (form.elements.namedItem(n));
    try {
      await post("/api/auth/password", { current_password: field("current").value, new_password: field("new").value });
      form.reset();
      toast(t("settings.password_changed"), "info");
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return card(t("settings.password"), "settings-password", form);
}

function sessions() {
  return card(t("settings.sessions"), "settings-sessions",
    h("p", { class: "muted" }, t("settings.sign_out_all_hint")),
    h("button", { type: "button", "data-testid": "sign-out-all", onclick: async () => {
      try {
        socket.hangUp();
        await post("/api/auth/logout-all");
      } catch (err) {
        toast(err.message);
      }
      await signOut();
    } }, t("settings.sign_out_all")));
}

function blocked() {
  const list = h("ul", { class: "people-list" });
  const load = async () => {
    try {
      const names = await get("/api/blocks?limit=100");
      replace(list, names.length ? names.map((name) => h("li", { "data-testid": "blocked" }, nameTag(name),
        h("button", { type: "button", onclick: async () => {
          try {
            await api("DELETE", `/api/blocks/${encodeURIComponent(name)}`);
          } catch (err) {
            toast(err.message);
          }
          load();
        } }, t("settings.unblock")))) : h("li", { class: "muted" }, t("settings.none_blocked")));
    } catch (err) {
      replace(list, h("li", { class: "form-error" }, err.message));
    }
  };
  load();
  return card(t("settings.blocked"), "settings-blocked", list);
}

function data() {
  return card(t("settings.data"), "settings-data",
    h("p", { class: "muted" }, t("settings.export_hint")),
    h("button", { type: "button", "data-testid": "export", onclick: async () => {
      try {
        const all = await get("/api/me/export");
        const url = URL.createObjectURL(new Blob([JSON.stringify(all, null, 2)], { type: "application/json" }));
        const link = h("a", { href: url, download: "dominoes-account.json" });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
      } catch (err) {
        toast(err.message);
      }
    } }, t("settings.export")));
}

function deletion() {
  const error = h("p", { class: "form-error", role: "alert" });
  const sure = h("input", { type: "checkbox", required: true, "data-testid": "delete-sure" });
  const form = h("form", {},
    h("p", {}, t("settings.delete_hint")),
    passwordField("password", t("settings.current_password"), "current-password"),
    h("label", { class: "inline" }, sure, ` ${t("settings.delete_sure")}`),
    error, h("button", { type: "submit", class: "danger", "data-testid": "delete-account" }, t("settings.delete")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      await api("DELETE", "/api/me", { password: /** @type {HTMLInputElement} */ (form.elements.namedItem("password")).value });
      socket.hangUp();
      auth.clear();
      socket.connect();
      window.dispatchEvent(new CustomEvent("domino:auth"));
      navigate("#/signin");
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return card(t("settings.delete_title"), "settings-delete", form);
}

export function renderSettings(root) {
  const parts = [h("h1", {}, t("settings.title")), appearance()];
  if (auth.signedIn) parts.push(password(), sessions(), blocked(), data(), deletion());
  root.append(h("section", { class: "settings-page" }, ...parts));
}
