// Human words for variants, options and game events.

import { variantInfo } from "./variants.js";

// Names of variants and words for their options come from GET /api/variants; until
// it has arrived (or for a variant it does not list) the plain names stand in.
export function variantName(v) {
  const info = variantInfo(v);
  return info && info.title ? info.title : String(v).replace(/_/g, " ");
}

function optionSpec(variant, name) {
  const info = variantInfo(variant);
  return info && info.options ? info.options[name] || null : null;
}

/** The label of an option in a form. */
export function optionLabel(variant, name) {
  const spec = optionSpec(variant, name);
  return spec && spec.label ? spec.label : name.replace(/_/g, " ");
}

/** The word for one option value ("" for a switch that is off). */
export function optionValueWord(variant, name, value) {
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
  const entry = (view.seats || []).find((x) => x.seat === seat);
  if (entry && entry.player) return entry.player;
  return `Seat ${seat + 1}`;
}

const END_WORDS = { left: "left", right: "right", up: "top", down: "bottom" };

/** How a prompt names an end: "left end", "Olya's train", "your train", "Mexican train"
 * (`view` may be null: "Seat 2's train"). */
export function endLabel(view, end) {
  if (end === "mexican") return "Mexican train";
  if (String(end).startsWith("train:")) {
    const seat = Number(String(end).slice(6));
    if (view && seat === view.you) return "your train";
    return `${view ? seatName(view, seat) : `Seat ${seat + 1}`}'s train`;
  }
  return `${endWord(end)} end`;
}

export function endWord(end) {
  if (end === null || end === undefined) return "";
  return END_WORDS[end] || String(end).replace(/[_:]/g, " ");
}

/**
 * Turn one change's events into log lines. A draw followed by a knock of the same
 * seat reads as one line ("Serg drew 3 and knocked").
 */
export function describeEvents(events, view) {
  const lines = [];
  const name = (seat) => seatName(view, seat);
  for (let i = 0; i < events.length; i++) {
    const ev = events[i] || {};
    const who = ev.seat !== undefined && ev.seat !== null ? name(ev.seat) : "";
    switch (ev.type) {
      case "join":
        lines.push(`${ev.player || who} joined`);
        break;
      case "leave":
        lines.push(`${ev.player || who} left`);
        break;
      case "start":
        lines.push(ev.round ? `Round ${ev.round + 1} begins` : "The game begins");
        break;
      case "round_start":
        lines.push(`Round ${(ev.round ?? 0) + 1}: ${ev.turn !== undefined && ev.turn !== null ? `${name(ev.turn)} leads` : "new deal"}`);
        break;
      case "redeal":
        lines.push("Redeal: a hand had too many doubles or one number");
        break;
      case "engine":
        lines.push(`${who} put the engine ${ev.number}-${ev.number} in the centre`);
        break;
      case "marker":
        lines.push(ev.on ? `${who} put a marker on their train` : `${who} took the marker off their train`);
        break;
      case "play": {
        let where = ev.end ? ` on the ${endWord(ev.end)}` : "";
        if (ev.end === "mexican") where = " on the Mexican train";
        else if (String(ev.end).startsWith("train:")) where = ` on ${endLabel(view, ev.end)}`;
        lines.push(`${who} played ${ev.tile}${where}`);
        break;
      }
      case "draw": {
        const next = events[i + 1];
        const count = ev.count ?? 1;
        const tiles = count === 1 ? "1 tile" : `${count} tiles`;
        if (next && next.type === "knock" && next.seat === ev.seat) {
          lines.push(`${who} drew ${count} and knocked`);
          i++;
        } else lines.push(`${who} drew ${tiles}`);
        break;
      }
      case "score":
        lines.push(`${who} scored ${ev.points} (the ends count ${ev.count})`);
        break;
      case "knock":
        lines.push(`${who} knocked`);
        break;
      case "round_end": {
        const end = ev.end || {};
        const kind = typeof end === "string" ? end : end.kind;
        const by = typeof end === "object" && end.by !== undefined ? name(end.by) : who;
        if (kind === "fish") lines.push(`Fish! ${by} is the fisherman`);
        else if (kind === "out") lines.push(`${by} went out`);
        else if (kind === "timeout") lines.push(`${by} ran out of time`);
        else lines.push("The round is over");
        if (Array.isArray(end.points)) {
          lines.push(`Round points: ${end.points.map((p, s) => `${name(s)} ${p}`).join(", ")}`);
        }
        break;
      }
      case "timeout":
        lines.push(ev.resigned ? `${who} resigned` : `${who} ran out of time`);
        break;
      case "bot_takeover":
        lines.push(`${ev.player || who} ran out of time; a computer player plays on in the seat`);
        break;
      case "game_end": {
        const r = ev.result || {};
        if (Array.isArray(r.losers) && r.losers.length && view.variant === "goat" && r.reason !== "timeout") {
          lines.push(`Game over: ${r.losers.map(name).join(" and ")} ${r.losers.length > 1 ? "are goats" : "is the goat"}`);
        } else if (Array.isArray(r.winners) && r.winners.length) {
          lines.push(`Game over: ${r.winners.map(name).join(" and ")} won`);
        } else lines.push("Game over");
        break;
      }
      default:
        if (ev.type) lines.push(who ? `${who}: ${ev.type}` : String(ev.type));
    }
  }
  return lines;
}
