// Human words for variants, options and game events.

import { variantInfo } from "./variants.js";

export const VARIANT_NAMES = {
  goat: "Goat",
  classic: "Classic",
  fives: "Fives",
  mexican_train: "Mexican Train",
  telephone: "Telephone",
  sea_goat: "Sea Goat",
  donkey: "Donkey",
  sport_goat: "Sport Goat",
  general: "General",
};

export function variantName(v) {
  return VARIANT_NAMES[v] || String(v).replace(/_/g, " ");
}

// Words for options (the options themselves come from GET /api/variants): a label for
// the form and a word for each value; anything not listed falls back to its name.
const OPTION_WORDS = {
  fish_rule: { label: "Fish", values: { all: "Fish for all", one: "Fish to one" } },
  teams: { label: "Teams (partners sit opposite)", values: { true: "Teams" } },
  target: { label: "Play to", value: (v) => `Target ${v}` },
  spinner: { label: "Spinner (the first double opens four ends)", values: { true: "Spinner", false: "No spinner" } },
  spinner_count: {
    label: "The spinner counts",
    values: { gambler: "Spinner: only tiles on it count", full: "Spinner: its open sides count" },
  },
  bonus: { label: "Hand bonus", values: { divided: "Bonus ÷ 5", rounded: "Bonus rounded, not divided" } },
  multiple: { label: "Scoring", values: { 5: "Fives", 3: "All Threes" } },
  scoring: { label: "Scoring", values: { plus: "Winner scores", minus: "Lowest wins" } },
  rounds: { label: "Rounds", value: (v) => `${v} rounds` },
  minutes: { label: "Minutes", value: (v) => `${v} minutes` },
};

export function optionLabel(name) {
  return (OPTION_WORDS[name] && OPTION_WORDS[name].label) || name.replace(/_/g, " ");
}

/** The word for one option value ("" for a switch that is off). */
export function optionValueWord(name, value) {
  const words = OPTION_WORDS[name];
  if (words && words.values && String(value) in words.values) return words.values[String(value)];
  if (words && words.value) return words.value(value);
  if (value === false) return "";
  if (value === true) return optionLabel(name);
  return `${optionLabel(name)}: ${value}`;
}

/** Words for a table's options; with the variant's description, defaults are left out. */
export function optionWords(variant, options) {
  const info = variantInfo(variant);
  const out = [];
  for (const [key, value] of Object.entries(options || {})) {
    const spec = info && info.options ? info.options[key] : null;
    if (spec && spec.default === value) continue;
    const word = optionValueWord(key, value);
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
      case "play": {
        const where = ev.end ? ` on the ${endWord(ev.end)}` : "";
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
