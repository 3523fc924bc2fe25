// Replaying a domino-record/1 (PROTOCOL §3) in the browser: rebuild the line of
// play move by move and, when the deals are known (given, or recomputed from the
// revealed seed by the §4 shuffle), the hands with every forced draw and knock.

import { placeTile } from "./chain.js";
import { parseTile } from "./tiles.js";

// ---- SHA-256 (synchronous: crypto.subtle is async and needs a secure context) ----
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(data) {
  const len = data.length;
  const total = Math.ceil((len + 9) / 64) * 64;
  const buf = new Uint8Array(total);
  buf.set(data);
  buf[len] = 0x80;
  const bits = len * 8;
  const view = new DataView(buf.buffer);
  view.setUint32(total - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(total - 4, bits >>> 0);
  const H = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const W = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(W[i - 15], 7) ^ rotr(W[i - 15], 18) ^ (W[i - 15] >>> 3);
      const s1 = rotr(W[i - 2], 17) ^ rotr(W[i - 2], 19) ^ (W[i - 2] >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i] + W[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, H[i]);
  return out;
}

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-f]/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function be32(n) {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

/** The byte stream of PROTOCOL §4 for round r, attempt k; draw(m) is uniform in [0, m). */
export class ByteStream {
  constructor(seed, round, attempt) {
    this.prefix = [...seed, ...be32(round), ...be32(attempt)];
    this.counter = 0;
    this.buffer = [];
  }

  take4() {
    while (this.buffer.length < 4) {
      this.buffer.push(...sha256(Uint8Array.from([...this.prefix, ...be32(this.counter++)])));
    }
    const [a, b, c, d] = this.buffer.splice(0, 4);
    return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
  }

  draw(m) {
    const limit = 2 ** 32 - (2 ** 32 % m);
    for (;;) {
      const x = this.take4();
      if (x < limit) return x % m;
    }
  }
}

export function fullSet(maxPip = 6) {
  const out = [];
  for (let a = 0; a <= maxPip; a++) for (let b = a; b <= maxPip; b++) out.push(`${a}-${b}`);
  return out;
}

export function dealAttempt(seed, round, attempt, players, handSize, maxPip = 6) {
  const order = fullSet(maxPip);
  const stream = new ByteStream(seed, round, attempt);
  for (let i = order.length - 1; i > 0; i--) {
    const j = stream.draw(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const hands = [];
  for (let s = 0; s < players; s++) hands.push(order.slice(s * handSize, (s + 1) * handSize));
  return { hands, bazaar: order.slice(players * handSize) };
}

// What the client knows of each variant's deal (the rest is replayed on the line only).
const DEALS = {
  goat: {
    handSize: () => 7,
    // RULES 1.1: 5+ doubles, or 6+ tiles sharing a number, is redealt.
    redeal: (hands) => hands.some((hand) => {
      const tiles = hand.map(parseTile);
      if (tiles.filter(([a, b]) => a === b).length >= 5) return true;
      for (let n = 0; n <= 6; n++) if (tiles.filter(([a, b]) => a === n || b === n).length >= 6) return true;
      return false;
    }),
  },
  classic: { handSize: (players) => (players === 2 ? 7 : 5), redeal: () => false },
};

export function dealFromSeed(variant, seedHex, round, players) {
  const rule = DEALS[variant];
  const seed = hexToBytes(seedHex);
  if (!rule || !seed) return null;
  for (let k = 0; k < 1000; k++) {
    const deal = dealAttempt(seed, round, k, players, rule.handSize(players));
    if (!rule.redeal(deal.hands)) return { ...deal, attempt: k };
  }
  return null;
}

function fits(tile, ends, empty) {
  if (empty) return true;
  const [a, b] = parseTile(tile);
  return a === ends.left || b === ends.left || a === ends.right || b === ends.right;
}

/**
 * Every position of the game, in order: [{round, move, chain, ends, hands|null,
 * bazaar|null, played, notes: [...], end?, standings?}]. Two-ended variants only;
 * throws on a record this client cannot follow.
 */
export function replaySteps(record) {
  const players = (record.players || []).length;
  const name = (seat) => (record.players || [])[seat] ?? `Seat ${seat + 1}`;
  const steps = [];
  (record.rounds || []).forEach((round, r) => {
    let deal = null;
    if (Array.isArray(round.hands)) deal = { hands: round.hands, bazaar: round.bazaar || [] };
    else if (record.seed) deal = dealFromSeed(record.variant, record.seed, r, players);
    let hands = deal ? deal.hands.map((x) => [...x]) : null;
    let bazaar = deal ? [...deal.bazaar] : null;
    let chain = [];
    let ends = {};
    const snap = () => ({ hands: hands && hands.map((x) => [...x]), bazaar: bazaar && bazaar.length });
    steps.push({ round: r, move: -1, chain, ends, ...snap(), played: null, notes: [`Round ${r + 1}: tiles dealt`] });
    let prev = null;
    (round.moves || []).forEach((move, m) => {
      const notes = [];
      if (hands && prev !== null) {
        // Forced draws and knocks happen between two placements (RULES 1.3).
        let seat = (prev + 1) % players;
        for (let guard = 0; guard <= players; guard++) {
          const hand = hands[seat];
          if (hand.some((t) => fits(t, ends, false))) break;
          let drawn = 0;
          let playable = false;
          while (bazaar.length && !playable) {
            const t = bazaar.shift();
            hand.push(t);
            drawn++;
            playable = fits(t, ends, false);
          }
          if (playable) {
            notes.push(`${name(seat)} drew ${drawn}`);
            break;
          }
          notes.push(drawn ? `${name(seat)} drew ${drawn} and knocked` : `${name(seat)} knocked`);
          seat = (seat + 1) % players;
        }
        if (seat !== move.seat) hands = null; // the record and our reading disagree: show the line only
      }
      if (hands) {
        const i = hands[move.seat].indexOf(move.tile);
        if (i < 0) hands = null;
        else hands[move.seat].splice(i, 1);
      }
      ({ chain, ends } = placeTile(chain, ends, move.tile, move.end));
      const where = move.end ? ` on the ${move.end}` : "";
      notes.push(`${name(move.seat)} played ${move.tile}${where}`);
      steps.push({ round: r, move: m, chain, ends, ...snap(), played: move, notes });
      prev = move.seat;
    });
    if (round.end) {
      const e = round.end;
      const text = e.kind === "fish" ? `Fish! ${name(e.by)} is the fisherman`
        : e.kind === "out" ? `${name(e.by)} went out`
          : e.kind === "timeout" ? `${name(e.by)} timed out or resigned` : "Round over";
      steps.push({
        round: r, move: (round.moves || []).length, chain, ends, ...snap(), played: null, notes: [text],
        end: e, scores: round.scores, remembered: round.remembered, carry: round.carry,
      });
    }
  });
  return steps;
}
