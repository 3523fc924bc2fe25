// The seats around the table: name, presence, team, tiles held, last draw or knock and
// standing; clockwise from the seat after yours, so you sit at the bottom.

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { seatStanding, teamLetter } from "../scores.js";
import { tileBack } from "../tiles.js";
import { nameTag, seatAbbreviations } from "../names.js";
import { playerName } from "../words.js";

export function seatCard(ctx, seat, v, short = seatAbbreviations(v)) {
  const isTurn = v.status === "playing" && v.turn === seat.seat && !v.next_round_at;
  const isYou = v.you === seat.seat;
  const count = seat.tiles ?? 0;
  const backs = [];
  for (let i = 0; i < Math.min(count, 7); i++) backs.push(tileBack());
  const connected = seat.connected !== false;
  const act = ctx.state.acts[seat.seat];
  return h("div", {
    class: `seat-card ${isTurn ? "turn" : ""} ${isYou ? "you" : ""} ${connected ? "" : "offline"}`,
    dataset: { seat: String(seat.seat), connected: connected ? "true" : "false" }, "data-testid": `seat-${seat.seat}`,
  },
    h("div", { class: "seat-name" },
      h("span", { class: `dot ${connected ? "online" : "offline"}`, title: connected ? t("seat.connected") : t("seat.disconnected"),
        "aria-label": connected ? t("seat.connected") : t("seat.disconnected"), role: "img" }),
      // Whole where the seat is wide; on a phone the short form that still tells it apart.
      nameTag(playerName(seat, seat.seat), short.get(seat.seat), { cls: "name", "data-testid": "seat-name" }),
      isYou ? h("span", { class: "you-tag" }, ` ${t("seat.you")}`) : null,
      // The team by its name, or by its letter alone where the seat is narrow (a phone).
      seat.team !== undefined && seat.team !== null ? h("span", {
        class: "pill team", title: t("seat.team", { team: teamLetter(seat.team) }), dataset: { letter: teamLetter(seat.team) },
      }, h("span", { class: "team-long" }, t("seat.team", { team: teamLetter(seat.team) }))) : null),
    h("div", { class: "seat-tiles", title: t("seat.tiles", { n: count }) }, h("span", { class: "backs" }, backs),
      h("span", { class: "tile-count", "data-testid": "tile-count" }, t("seat.tiles", { n: count })),
      act ? h("span", { class: "seat-act", "data-testid": "seat-act" }, act) : null),
    h("div", { class: "seat-score" }, seatStanding(v, seat)));
}

export function renderSeats(ctx) {
  const v = ctx.view();
  const seats = v.seats || [];
  const start = ctx.seated(v) ? v.you + 1 : 0;
  const ordered = [];
  for (let i = 0; i < seats.length; i++) ordered.push(seats[(start + i) % seats.length]);
  const others = ctx.seated(v) ? ordered.filter((x) => x.seat !== v.you) : ordered;
  const short = seatAbbreviations(v);
  replace(ctx.el.seatsBox, others.map((x) => seatCard(ctx, x, v, short)));
}
