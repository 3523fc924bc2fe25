// Friends: who they are, whether they are online and at which table; the requests to and
// from the player; the challenges open to and from him. Kept current by the socket.

import { api, auth, get, post } from "../api.js";
import { h, nameTag, replace } from "../dom.js";
import { t } from "../i18n.js";
import { acceptChallenge, challengeTerms, declineChallenge, withdrawChallenge } from "../people.js";
import { toast } from "../ui.js";

const profile = (name) => h("a", { href: `#/player/${encodeURIComponent(name)}` }, nameTag(name));

async function call(method, path) {
  try {
    await api(method, path);
  } catch (err) {
    toast(err.message);
  }
}

export function renderFriends(root) {
  if (!auth.signedIn) {
    root.append(h("p", {}, h("a", { href: "#/signin" }, t("nav.sign_in"))));
    return undefined;
  }
  const body = h("div", { class: "people-lists" }, h("p", { class: "muted" }, t("people.loading")));
  const form = h("form", { class: "form-row add-friend" },
    h("label", {}, t("people.add_by_name"), h("input", { name: "name", maxlength: "20", required: true, autocomplete: "off", "data-testid": "friend-name" })),
    h("button", { type: "submit", class: "primary" }, t("people.add_friend")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
    try {
      await post(`/api/friends/${encodeURIComponent(input.value)}`);
      input.value = "";
      load();
    } catch (err) {
      toast(err.message);
    }
  });
  root.append(h("section", { class: "friends-page" }, h("h1", {}, t("people.friends")), form, body));

  const section = (title, items, empty, testid) => h("div", { class: "card", "data-testid": testid },
    h("h2", {}, title),
    items.length ? h("ul", { class: "people-list" }, items) : h("p", { class: "muted" }, empty));

  async function load() {
    let friends, challenges;
    try {
      [friends, challenges] = await Promise.all([get("/api/friends"), get("/api/challenges")]);
    } catch (err) {
      replace(body, h("p", { class: "form-error" }, err.message));
      return;
    }
    replace(body,
      challenges.incoming.length || challenges.outgoing.length ? section(t("people.challenges"), [
        ...challenges.incoming.map((c) => h("li", { "data-testid": "incoming-challenge" },
          h("span", {}, t("people.challenge_from"), " ", profile(c.from), h("small", { class: "muted" }, ` · ${challengeTerms(c)}`)),
          h("span", { class: "actions" },
            h("button", { type: "button", class: "primary", "data-testid": "challenge-accept", onclick: () => acceptChallenge(c.id) }, t("people.accept")),
            h("button", { type: "button", onclick: () => declineChallenge(c.id).then(load) }, t("people.decline"))))),
        ...challenges.outgoing.map((c) => h("li", {},
          h("span", {}, t("people.challenge_to"), " ", profile(c.to), h("small", { class: "muted" }, ` · ${challengeTerms(c)}`)),
          h("span", { class: "actions" },
            h("button", { type: "button", onclick: () => withdrawChallenge(c.id).then(load) }, t("people.withdraw"))))),
      ], "", "challenges") : null,
      section(t("people.friends"), friends.friends.map((f) => h("li", { "data-testid": "friend", class: f.online ? "online" : "offline" },
        h("span", {}, h("span", { class: `dot ${f.online ? "on" : "off"}`, "aria-hidden": "true" }), " ", profile(f.name),
          h("small", { class: "muted" }, ` · ${f.online ? t("people.online") : t("people.offline")}`)),
        h("span", { class: "actions" },
          f.table_id ? h("a", { class: "button", href: `#/table/${encodeURIComponent(f.table_id)}` }, t("people.at_table")) : null,
          h("a", { class: "button", href: `#/player/${encodeURIComponent(f.name)}` }, t("people.challenge"))))),
      t("people.no_friends"), "friends"),
      friends.incoming.length ? section(t("people.requests"), friends.incoming.map((name) => h("li", { "data-testid": "friend-request" },
        profile(name),
        h("span", { class: "actions" },
          h("button", { type: "button", class: "primary", "data-testid": "friend-accept", onclick: () => call("POST", `/api/friends/${encodeURIComponent(name)}`).then(load) }, t("people.accept")),
          h("button", { type: "button", onclick: () => call("DELETE", `/api/friends/${encodeURIComponent(name)}`).then(load) }, t("people.decline"))))),
      "", "friend-requests") : null,
      friends.outgoing.length ? section(t("people.asked"), friends.outgoing.map((name) => h("li", {},
        profile(name),
        h("span", { class: "actions" },
          h("button", { type: "button", onclick: () => call("DELETE", `/api/friends/${encodeURIComponent(name)}`).then(load) }, t("people.withdraw"))))),
      "", "friends-asked") : null);
  }
  const onChange = () => load();
  window.addEventListener("domino:people", onChange);
  load();
  return () => window.removeEventListener("domino:people", onChange);
}
