// Clubs: found by name page by page, the reader's own clubs, and the form that makes one
// (PROTOCOL §2e).

import { auth, get, post } from "../api.js";
import { h, nameTag, replace } from "../dom.js";
import { t } from "../i18n.js";
import { navigate, pill, toast } from "../ui.js";

const PAGE = 20;

/** "Open" or "Closed": whether anyone may join at once. */
export const openPill = (club) => pill(club.open ? t("club.open") : t("club.closed"), club.open ? "open" : "closed");

function card(club, role) {
  return h("li", { class: "table-card club-card", dataset: { clubId: String(club.id) } },
    h("div", { class: "table-card-head" },
      h("a", { href: `#/club/${club.id}`, class: "variant" }, h("strong", { translate: "no" }, h("bdi", {}, club.name))),
      openPill(club)),
    club.description ? h("div", { class: "options club-about", dir: "auto" }, club.description.split("\n")[0]) : null,
    h("div", { class: "meta" },
      t("club.members_count", { n: club.members }), " · ", t("club.owner"), " ", nameTag(club.owner),
      role ? ` · ${t(`club.role_${role}`)}` : ""));
}

function createForm() {
  const name = h("input", { type: "text", name: "club_name", minlength: 3, maxlength: 40, required: true, autocomplete: "off" });
  const about = h("textarea", { name: "club_description", maxlength: 1000, rows: 3 });
  const open = h("input", { type: "checkbox", name: "club_open", checked: true });
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, t("club.create_submit"));
  const form = h("form", { class: "card create-form", "data-testid": "create-club" },
    h("h2", {}, t("club.create")),
    h("label", {}, t("club.name"), name),
    h("label", {}, t("club.description"), about),
    h("label", { class: "inline" }, open, ` ${t("club.open_hint")}`),
    error, submit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const made = await post("/api/clubs", { name: name.value, description: about.value, open: open.checked });
      navigate(`#/club/${made.id}`);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

export function renderClubs(root) {
  const list = h("ul", { class: "table-list", "data-testid": "club-list" });
  const empty = h("p", { class: "muted" }, t("club.none_found"));
  const more = h("button", { type: "button", hidden: true, "data-testid": "clubs-more" }, t("club.more"));
  const total = h("p", { class: "muted small" });
  const query = h("input", { type: "search", name: "q", maxlength: 40, autocomplete: "off", "data-testid": "club-search", "aria-label": t("club.search") });
  const search = h("form", { class: "form-row club-search", role: "search" },
    h("label", {}, t("club.search"), query), h("button", { type: "submit" }, t("club.search_button")));
  let shown = [];

  async function load(offset) {
    try {
      const page = await get(`/api/clubs?q=${encodeURIComponent(query.value.trim())}&offset=${offset}&limit=${PAGE}`);
      shown = offset ? [...shown, ...page.clubs] : page.clubs;
      replace(list, shown.map((club) => card(club)));
      empty.hidden = shown.length > 0;
      more.hidden = shown.length >= page.total;
      total.textContent = t("club.found", { n: page.total });
    } catch (err) {
      toast(err.message);
    }
  }
  search.addEventListener("submit", (ev) => {
    ev.preventDefault();
    load(0);
  });
  more.addEventListener("click", () => load(shown.length));

  const aside = h("aside", { class: "lobby-side" });
  root.append(h("section", { class: "lobby clubs-page" },
    h("div", { class: "lobby-tables" }, h("h1", {}, t("club.title")), search, total, empty, list, more),
    aside));
  load(0);
  if (!auth.signedIn) {
    aside.append(h("div", { class: "card" }, h("p", {}, h("a", { href: "#/signin", class: "button primary" }, t("lobby.sign_in_or_up")))));
    return undefined;
  }
  const mine = h("div", { class: "card", "data-testid": "my-clubs" }, h("h2", {}, t("club.mine")));
  aside.append(mine, createForm());
  get(`/api/me/clubs?limit=50`).then((page) => {
    mine.append(page.clubs.length
      ? h("ul", { class: "table-list" }, page.clubs.map((club) => card(club, club.role)))
      : h("p", { class: "muted" }, t("club.mine_none")));
    if (page.total > page.clubs.length) mine.append(h("p", { class: "muted small" }, t("club.found", { n: page.total })));
  }).catch((err) => toast(err.message));
  return undefined;
}
