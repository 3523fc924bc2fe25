// Human words for variants, options and game events, all from the catalogue.
//
// Variants and their options also describe themselves (GET /api/variants, in English):
// those words stand in for any the catalogue does not have.

import { has, list, num, t, tileName } from "./i18n.js";
import { variantInfo } from "./variants.js";

export function variantName(v) {
  if (has(`variant.${v}`)) return t(`variant.${v}`);
  const info = variantInfo(v);
  return info && info.title ? info.title : String(v).replace(/_/g, " ");
}

function optionSpec(variant, name) {
  const info = variantInfo(variant);
  return info && info.options ? info.options[name] || null : null;
}

/** The label of an option in a form. */
export function optionLabel(variant, name) {
  if (has(`option_label.${name}`)) return t(`option_label.${name}`);
  const spec = optionSpec(variant, name);
  return spec && spec.label ? spec.label : name.replace(/_/g, " ");
}

/** The word for one option value ("" for a switch that is off). */
export function optionValueWord(variant, name, value) {
  if (has(`option.${name}.${value}`)) return t(`option.${name}.${value}`);
  if (typeof value === "number" && has(`option.${name}`)) return t(`option.${name}`, { value });
  const spec = optionSpec(variant, name);
  const i = spec ? (spec.allowed || []).indexOf(value) : -1;
  if (i >= 0 && spec.words && spec.words[i] !== undefined) return spec.words[i];
  if (value === false) return "";
  if (value === true) return optionLabel(variant, name);
  return `${optionLabel(variant, name)}: ${value}`;
}

/** Words for a table's options, leaving out those at their defaults. */
export function optionWords(variant, options) {
  const out = [];
  for (const [key, value] of Object.entries(options || {})) {
    const spec = optionSpec(variant, key);
    if (spec && spec.default === value) continue;
    const word = optionValueWord(variant, key, value);
    if (word) out.push(word);
  }
  return out;
}

export function tableSummary(table) {
  const parts = [variantName(table.variant), ...optionWords(table.variant, table.options)];
  return parts.join(" · ");
}

export function seatName(view, seat) {
  return playerName((view.seats || []).find((x) => x.seat === seat), seat);
}

/** A seat's name: the player's, a computer player's in the words of the strength picker
 * ("Computer 2 (Steady)"), or the seat's number when it is free. */
export function playerName(entry, seat) {
  if (entry && entry.bot) {
    const strength = has(`bot.${entry.bot}`) ? t(`bot.${entry.bot}`) : String(entry.bot);
    return t("bot.name", { n: seat + 1, strength });
  }
  if (entry && entry.player) return entry.player;
  return t("seat.n", { n: seat + 1 });
}

/** How a prompt names an end: "left", "Olya's train", "your train", "Mexican train"
 * (`view` may be null). */
export function endLabel(view, end) {
  if (String(end).startsWith("train:")) {
    const seat = Number(String(end).slice(6));
    if (view && seat === view.you) return t("end.train_yours");
    return t("end.train_of", { name: view ? seatName(view, seat) : t("seat.n", { n: seat + 1 }) });
  }
  return endWord(end);
}

export function endWord(end) {
  if (end === null || end === undefined) return "";
  return has(`end.${end}`) ? t(`end.${end}`) : String(end).replace(/[_:]/g, " ");
}

/** What a variant calls the loser of a game ("goat", "donkey"), as the server says. */
export function loserWord(variant) {
  const info = variantInfo(variant);
  const word = info && info.loser;
  return word && has(`result.${word}`) ? word : "goat";
}

/** Names joined the language's way. */
export function names(view, seats) {
  return list(seats.map((s) => seatName(view, s)));
}

/** Why a round ended, in words (the fish rule included). */
export function roundEndWords(view, end, fishRule) {
  const kind = typeof end === "string" ? end : end && end.kind;
  const by = end && end.by !== undefined && end.by !== null ? seatName(view, end.by) : "";
  if (kind === "fish") {
    const rule = fishRule ? ` ${t(`summary.fish_${fishRule}`)}` : "";
    return `${t("log.fish", { name: by })}${rule}`;
  }
  if (kind === "out") return t("log.went_out", { name: by });
  if (kind === "timeout") return t(end.resigned ? "log.resigned" : "log.timeout", { name: by });
  return t("log.round_over");
}

/** The headline of a finished game: who resigned, who ran out of time, the goat, the winner. */
export function resultWords(view, result) {
  const losers = result.losers || [];
  const winners = result.winners || [];
  if (result.reason === "resign") return t("result.resigned", { names: names(view, losers) });
  if (result.reason === "timeout") return t("result.timed_out", { names: names(view, losers) });
  if (result.reason === "goat") {
    // The variant's own word for its loser (GET /api/variants' `loser`: Donkey's donkey).
    const word = loserWord(view.variant);
    return t(losers.length > 1 ? `result.${word}s` : `result.${word}`, { names: names(view, losers) });
  }
  if (!winners.length) return t("result.draw");
  // Sea Goat's going-outs that win the whole game, General's two ways to end (RULES §7, §12).
  const why = { bald_goat: "result.bald_goat", six_six: "result.six_six", generals: "result.generals", time: "result.time" }[result.reason];
  if (why) return t(why, { names: names(view, winners), n: winners.length });
  return t("result.won", { names: names(view, winners), n: winners.length });
}

/**
 * Turn one change's events into log lines. A draw followed by a knock of the same
 * seat reads as one line ("Serg drew 3 and knocked").
 */
export function describeEvents(events, view) {
  const lines = [];
  const name = (seat) => seatName(view, seat);
  const fishRule = (view.options || {}).fish_rule;
  for (let i = 0; i < events.length; i++) {
    const ev = events[i] || {};
    const who = ev.seat !== undefined && ev.seat !== null ? name(ev.seat) : "";
    switch (ev.type) {
      case "join":
        // A computer player by the picker's words, as its seat shows it.
        lines.push(t("log.joined", { name: (view.seats || []).some((x) => x.seat === ev.seat && x.bot) ? who : ev.player || who }));
        break;
      case "leave":
        lines.push(t("log.left", { name: ev.player || who }));
        break;
      case "start":
        lines.push(ev.round ? t("log.round_begins", { n: ev.round + 1 }) : t("log.game_begins"));
        break;
      case "round_start":
        lines.push(ev.turn !== undefined && ev.turn !== null
          ? t("log.round_leads", { n: (ev.round ?? 0) + 1, name: name(ev.turn) })
          : t("log.round_deal", { n: (ev.round ?? 0) + 1 }));
        break;
      case "round_resume":
        lines.push(t("log.round_resume", { name: name(ev.turn) }));
        break;
      case "redeal":
        lines.push(t("log.redeal"));
        break;
      case "engine":
        lines.push(t("log.engine", { name: who, n: ev.number }));
        break;
      case "marker":
        lines.push(t(ev.on ? "log.marker_on" : "log.marker_off", { name: who }));
        break;
      case "play":
        if (ev.closed) lines.push(t("log.played_closed", { name: who, end: endLabel(view, ev.end) }));
        else lines.push(ev.end
          ? t("log.played_on", { name: who, tile: tileName(ev.tile), end: endLabel(view, ev.end) })
          : t("log.played", { name: who, tile: tileName(ev.tile) }));
        // Sea Goat's second double of the same turn (RULES §7).
        for (const p of ev.also || []) lines.push(t("log.played_also", { name: who, tile: tileName(p.tile), end: endLabel(view, p.end) }));
        break;
      case "open":
        lines.push(t("log.opened", { name: who, tile: tileName(ev.tile), end: endLabel(view, ev.end) }));
        break;
      case "draw": {
        const next = events[i + 1];
        const count = ev.count ?? 1;
        if (next && next.type === "knock" && next.seat === ev.seat) {
          lines.push(t("log.drew_knocked", { name: who, n: count }));
          i++;
        } else lines.push(t("log.drew", { name: who, n: count }));
        break;
      }
      case "score":
        lines.push(t("log.score", { name: who, n: ev.points, count: ev.count }));
        break;
      case "knock":
        lines.push(t("log.knocked", { name: who }));
        break;
      case "round_end": {
        const end = ev.end || {};
        // A resignation's round end was already told by its own event.
        const told = end.kind === "timeout" && events.some((e) => e && e.type === "timeout");
        if (!told) lines.push(roundEndWords(view, end, end.kind === "fish" ? fishRule : null));
        if (Array.isArray(end.points)) {
          lines.push(t("log.points", { list: end.points.map((p, s) => `${name(s)} ${num(p)}`).join(", ") }));
        }
        if (Array.isArray(end.credited) && end.credited.some((c, s) => c !== (end.points || [])[s])) {
          const scored = end.credited.map((c, s) => [s, c]).filter(([, c]) => c > 0);
          if (scored.length) lines.push(t("log.scored", { list: scored.map(([s, c]) => `${name(s)} ${num(c)}`).join(", ") }));
        }
        break;
      }
      case "timeout":
        lines.push(ev.reason === "resign" || ev.resigned ? t("log.resigned", { name: who }) : t("log.timeout", { name: who }));
        break;
      case "rematch":
        lines.push(ev.new_table_id ? t("log.rematch_started") : t("log.rematch_offer", { name: who }));
        break;
      case "bot_takeover":
        lines.push(t("log.bot_takeover", { name: ev.player || who }));
        if (ev.unrated) lines.push(t("log.unrated_takeover"));
        break;
      case "seat_reclaim":
        lines.push(t(ev.returned ? "clock.log_back" : "clock.log_asked", { name: ev.player || who }));
        break;
      case "game_end":
        lines.push(`${t("log.game_over")}: ${resultWords(view, ev.result || {})}`);
        break;
      case "queue": // a courtyard's queue (PROTOCOL §2d)
        lines.push(t(ev.joined ? "courtyard.log_joined" : "courtyard.log_left", { name: ev.player }));
        break;
      case "courtyard":
        if ((ev.leaving || []).length) {
          lines.push(t("courtyard.log_turn", { n: ev.game, coming: list(ev.coming || []), leaving: list(ev.leaving) }));
        } else {
          lines.push((ev.coming || []).length
            ? t("courtyard.log_in", { n: ev.game, coming: list(ev.coming) }) : t("courtyard.log_stay", { n: ev.game }));
        }
        break;
      default:
        if (ev.type) lines.push(who ? `${who}: ${ev.type}` : String(ev.type));
    }
  }
  return lines;
}
