// The result card of a finished game: the headline, final scores, rating gains, the
// rematch offer and the links to the replay and the lobby.

import { post } from "../api.js";
import { h, replace } from "../dom.js";
import { list, num, signedNum, t } from "../i18n.js";
import { goatIcon } from "../tiles.js";
import { navigate, toast } from "../ui.js";
import { loserWord, resultWords } from "../words.js";

async function rematch(ctx) {
  try {
    const offer = await post(`/api/tables/${encodeURIComponent(ctx.tableId)}/rematch`);
    if (offer.new_table_id) navigate(`#/table/${encodeURIComponent(offer.new_table_id)}`);
    else ctx.render();
  } catch (err) {
    toast(err.message);
  }
}

export function renderResult(ctx) {
  const { state, el } = ctx;
  const v = ctx.view();
  const r = v.result;
  if (!r) {
    el.result.hidden = true;
    return;
  }
  el.result.hidden = false;
  const losers = r.losers || [];
  const goat = r.reason === "goat" && loserWord(v.variant) === "goat";
  const headline = goat
    ? h("h2", { class: "goat-line" }, goatIcon("big"), resultWords(v, r))
    : h("h2", { "data-testid": "result-headline" }, resultWords(v, r));
  // A game with a computer player pays nobody, whatever the table was made as; the
  // result says why (`unrated_reason`).
  const rated = (state.table ? state.table.rated : true) && !r.unrated_reason;
  const rows = (v.seats || []).map((seat) => {
    const i = seat.seat;
    const gain = (r.rating || [])[i];
    const final = (r.final || [])[i];
    const lost = losers.includes(i);
    // A computer player is never rated: no rating line of its own.
    const gainCell = seat.bot
      ? h("td", { class: "gain none", title: t("result.not_rated") }, "—")
      : h("td", { class: "gain", "data-testid": `gain-${i}` }, gain === undefined ? "" : signedNum(gain));
    return h("tr", { class: lost ? "loser" : "winner" },
      h("th", { scope: "row", title: ctx.name(i) }, ctx.name(i), lost && goat ? goatIcon("small") : null),
      h("td", {}, final === undefined ? "" : num(final)),
      rated ? gainCell : null);
  });
  // What the numbers are: rating points toward a rating that never goes down, and why a
  // game cut short paid what it paid.
  const notes = [];
  if (rated) {
    notes.push(h("p", { class: "muted result-note", "data-testid": "rating-note" }, t("result.rating_note")));
    if (r.reason === "resign" || r.reason === "timeout") notes.push(h("p", { class: "muted result-note" }, t("result.cut_short")));
    if ((v.seats || []).some((x) => x.bot)) notes.push(h("p", { class: "muted result-note" }, t("result.not_rated")));
  }
  const offer = v.rematch || { offers: [], new_table_id: null };
  const offered = ctx.seated(v) && (offer.offers || []).includes(v.you);
  const rematchPart = [];
  if (offer.new_table_id) {
    rematchPart.push(h("a", { href: `#/table/${encodeURIComponent(offer.new_table_id)}`, class: "button primary", "data-testid": "rematch-go" }, t("rematch.go")));
  } else if (ctx.seated(v) && !v.courtyard) { // a courtyard's next game starts by itself
    rematchPart.push(h("button", { type: "button", class: "primary", "data-testid": "rematch", disabled: offered, onclick: () => rematch(ctx) },
      offered ? t("rematch.offered") : (offer.offers || []).length ? t("rematch.accept") : t("rematch.offer")));
  }
  if (!offer.new_table_id && (offer.offers || []).length) {
    const waitingFor = (v.seats || []).map((x) => x.seat).filter((x) => !(offer.offers || []).includes(x));
    rematchPart.push(h("span", { class: "muted", "data-testid": "rematch-status" },
      t("rematch.waiting", { names: list(waitingFor.map(ctx.name)) })));
  }
  replace(el.result, headline,
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.player")), h("th", { scope: "col" }, t("result.score")),
        rated ? h("th", { scope: "col" }, t("result.rating_gain")) : null)),
      h("tbody", {}, rows)),
    rated ? notes : h("p", { class: "muted", "data-testid": "unrated" },
      t(r.unrated_reason ? `result.unrated_${r.unrated_reason}` : "result.casual")),
    h("p", { class: "result-links" }, rematchPart,
      h("a", { href: "#/lobby", class: "button" }, t("table.back_to_lobby")),
      v.game_id ? h("a", { href: `#/replay/${encodeURIComponent(v.game_id)}`, class: "button" }, t("result.replay")) : null,
      v.game_id ? h("a", { href: `#/review/${encodeURIComponent(v.game_id)}`, class: "button", "data-testid": "review-game" }, t("review.ask")) : null,
      v.seed ? h("span", { class: "muted seed", title: t("result.seed_title") }, ` ${t("result.seed")} ${String(v.seed).slice(0, 12)}…`) : null));
}
