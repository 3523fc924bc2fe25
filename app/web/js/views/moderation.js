// The moderators' page (PROTOCOL §2h): the open reports (a queue, paged), a player's
// file (his standing, recent games, the chat of his tables, the audit log about him)
// with the actions, and the whole audit log, paged. Reached by moderators only.

import { get, post } from "../api.js";
import { formatDate, h, nameTag, replace } from "../dom.js";
import { num, t } from "../i18n.js";
import { toast } from "../ui.js";
import { variantName } from "../words.js";

const PAGE = 20;
const ACTIONS = ["warn", "mute", "unmute", "suspend", "unsuspend", "rename", "remove_gains"];

const path = (name) => encodeURIComponent(name);

/** A pager: "Newer" / "Older" buttons around a list that loads `PAGE` at `offset`. */
function paged(load, testid) {
  const list = h("div", { class: "mod-list", "data-testid": testid });
  let offset = 0;
  const newer = h("button", { type: "button", onclick: () => go(offset - PAGE) }, t("mod.newer"));
  const older = h("button", { type: "button", onclick: () => go(offset + PAGE) }, t("mod.older"));
  async function go(at) {
    offset = Math.max(0, at);
    try {
      const count = await load(list, offset);
      newer.disabled = offset === 0;
      older.disabled = count < PAGE;
    } catch (err) {
      replace(list, h("p", { class: "form-error" }, err.message));
    }
  }
  return { box: h("div", {}, list, h("div", { class: "actions pager" }, newer, older)), go: () => go(offset) };
}

function entryLine(e) {
  return h("li", { class: "mod-entry", "data-testid": "mod-entry" },
    h("span", { class: "muted" }, formatDate(e.at)), " · ",
    h("strong", {}, t(`mod.action_${e.action}`)), " · ",
    h("a", { href: `#/player/${path(e.player)}` }, nameTag(e.player)), " · ",
    // The name isolated (FSI…PDI): a right-to-left name in a left-to-right line and back.
    h("span", { class: "muted" }, t("mod.by", { name: `\u2068${e.moderator ?? t("mod.operator")}\u2069` })), " · ",
    h("bdi", {}, e.reason));
}

export async function renderModeration(root) {
  const section = h("section", { class: "moderation-page" }, h("h1", {}, t("mod.nav")));
  root.append(section);
  const file = h("div", { class: "mod-file", "data-testid": "mod-file" });

  async function openFile(name) {
    let data;
    try {
      data = await get(`/api/mod/players/${path(name)}`);
    } catch (err) {
      replace(file, h("p", { class: "form-error" }, err.message));
      return;
    }
    const p = data.player;
    const standing = [];
    if (p.moderator) standing.push(t("mod.is_moderator"));
    if (p.suspended) {
      standing.push(p.suspended.until ? t("mod.suspended_until", { until: formatDate(p.suspended.until), reason: p.suspended.reason })
        : t("mod.suspended", { reason: p.suspended.reason }));
    }
    if (p.muted_until) standing.push(t("mod.muted_until", { until: formatDate(p.muted_until) }));
    if (!standing.length) standing.push(t("mod.good_standing"));
    const games = data.recent_games.map((g) => ({ g, box: h("input", { type: "checkbox", value: g.game_id, disabled: !g.rated || g.gains_removed }) }));
    replace(file,
      h("h2", {}, h("a", { href: `#/player/${path(p.name)}` }, nameTag(p.name))),
      h("p", { "data-testid": "mod-standing" }, standing.join(" · ")),
      h("p", { class: "muted" }, t("mod.open_count", { n: num(data.open_reports) })),
      actionForm(p.name, games, () => openFile(p.name)),
      h("h3", {}, t("mod.recent_games")),
      games.length ? null : h("p", { class: "muted" }, t("player.no_games")),
      h("ul", { class: "mod-games" }, games.map(({ g, box }) => h("li", {},
        h("label", {}, box, " ", formatDate(g.finished_at), " · ", variantName(g.variant), " · ", g.outcome, " · ", num(g.points),
          g.gains_removed ? h("span", { class: "muted" }, ` (${t("mod.removed")})`) : null),
        " ", h("a", { href: `#/replay/${path(g.game_id)}` }, t("result.replay"))))),
      h("h3", {}, t("mod.chat")),
      data.chat.length ? data.chat.map((table) => h("ul", { class: "mod-chat", "data-testid": "mod-chat" },
        table.lines.map((line) => h("li", {}, h("span", { class: "muted" }, formatDate(line.at)), " ",
          h("strong", {}, nameTag(line.name)), ": ", h("bdi", {}, line.text)))))
        : h("p", { class: "muted" }, t("mod.no_chat")),
      h("h3", {}, t("mod.player_log")),
      data.log.length ? h("ul", {}, data.log.map(entryLine)) : h("p", { class: "muted" }, t("mod.no_log")));
  }

  function actionForm(name, games, reload) {
    const action = h("select", { "data-testid": "mod-action" }, ACTIONS.map((a) => h("option", { value: a }, t(`mod.action_${a}`))));
    const reason = h("input", { type: "text", maxlength: 500, required: true, "data-testid": "mod-reason" });
    const minutes = h("input", { type: "number", min: 1, max: 43200, value: 60 });
    const days = h("input", { type: "number", min: 1, max: 3650 });
    const newName = h("input", { type: "text", maxlength: 20 });
    const fields = {
      mute: h("label", {}, t("mod.minutes"), minutes),
      suspend: h("label", {}, t("mod.days"), days),
      rename: h("label", {}, t("mod.new_name"), newName),
      remove_gains: h("p", { class: "muted" }, t("mod.games_hint")),
    };
    const show = () => {
      for (const [a, el] of Object.entries(fields)) el.hidden = a !== action.value;
    };
    action.addEventListener("change", show);
    show();
    const form = h("form", { class: "card mod-actions" },
      h("label", {}, t("mod.action"), action), h("label", {}, t("mod.why"), reason), ...Object.values(fields),
      h("button", { type: "submit", class: "primary", "data-testid": "mod-apply" }, t("mod.apply")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { action: action.value, reason: reason.value };
      if (action.value === "mute") body.minutes = Number(minutes.value);
      if (action.value === "suspend" && days.value) body.days = Number(days.value);
      if (action.value === "rename") body.name = newName.value;
      if (action.value === "remove_gains") body.game_ids = games.filter(({ box }) => box.checked).map(({ g }) => g.game_id);
      try {
        const done = await post(`/api/mod/players/${path(name)}/actions`, body);
        toast(t("mod.done"), "info");
        if (action.value === "rename") await openFile(done.player.name);
        else await reload();
        reports.go();
        log.go();
      } catch (err) {
        toast(err.message);
      }
    });
    return form;
  }

  const reports = paged(async (list, offset) => {
    const page = await get(`/api/mod/reports?limit=${PAGE}&offset=${offset}`);
    replace(list, page.reports.length ? h("ul", {}, page.reports.map((r) => {
      const why = h("input", { type: "text", maxlength: 500, "aria-label": t("mod.why"), placeholder: t("mod.why") });
      return h("li", { class: "card mod-report", "data-testid": "mod-report" },
        h("p", {}, h("button", { type: "button", class: "link-button", onclick: () => openFile(r.name) }, nameTag(r.name)), " · ",
          t(`mod.reason_${r.reason}`), " · ", h("span", { class: "muted" }, t("mod.reported_by", { name: `\u2068${r.reporter}\u2069` }), " · ", formatDate(r.created_at)),
          r.game_id ? [" · ", h("a", { href: `#/replay/${path(r.game_id)}` }, t("result.replay"))] : null),
        r.text ? h("p", {}, h("bdi", {}, r.text)) : null,
        h("div", { class: "actions" }, why, h("button", { type: "button", onclick: async () => {
          try {
            await post(`/api/mod/reports/${r.id}/close`, { reason: why.value });
            toast(t("mod.done"), "info");
            reports.go();
            log.go();
          } catch (err) {
            toast(err.message);
          }
        } }, t("mod.close"))));
    })) : h("p", { class: "muted" }, t("mod.no_reports")));
    return page.reports.length;
  }, "mod-reports");

  const log = paged(async (list, offset) => {
    const page = await get(`/api/mod/log?limit=${PAGE}&offset=${offset}`);
    replace(list, page.entries.length ? h("ul", {}, page.entries.map(entryLine)) : h("p", { class: "muted" }, t("mod.no_log")));
    return page.entries.length;
  }, "mod-log");

  const who = h("input", { type: "text", maxlength: 80, "aria-label": t("mod.look"), placeholder: t("mod.look"), "data-testid": "mod-look" });
  const look = h("form", { class: "actions mod-look" }, who, h("button", { type: "submit" }, t("mod.open")));
  look.addEventListener("submit", (event) => {
    event.preventDefault();
    if (who.value.trim()) openFile(who.value.trim());
  });

  section.append(h("h2", {}, t("mod.open_reports")), reports.box, look, file, h("h2", {}, t("mod.log")), log.box);
  await Promise.all([reports.go(), log.go()]);
}
