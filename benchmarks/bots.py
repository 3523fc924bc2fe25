"""Computer players against each other: 4-player Goat games, per pairing of strengths.

Run: .venv/bin/python benchmarks/bots.py [--games 1000] [--samples 30] [--seconds 0.5]
                                         [--pairings random:heuristic,heuristic:strong,...]

Each pairing A:B plays --games complete games (to 101) on the full engine, A in seats 0
and 2 and B in seats 1 and 3 in even-numbered games, the other way round in odd ones;
every move is chosen from the seat's own view only. Prints per strength and pairing: the
goat rate (share of its seats that ended as a goat) with a 95% Wilson interval, the
average final account with a 95% interval, and for the strong player its playouts per
second. The strong player searches --samples deals of the unseen tiles per move (capped at
--seconds), so its strength does not depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import HeuristicPlayer, Player, RandomPlayer, StrongPlayer, play_to_end
from app.engine import new_game

Z = 1.96  # 95%


@dataclass
class Tally:
    seats: int = 0
    goats: int = 0
    finals: list[int] = field(default_factory=list)

    def goat_rate(self) -> tuple[float, float, float]:
        """The rate and its 95% Wilson score interval."""
        n, p = self.seats, self.goats / self.seats
        centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
        half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
        return p, centre - half, centre + half

    def final(self) -> tuple[float, float]:
        mean = statistics.fmean(self.finals)
        return mean, Z * statistics.stdev(self.finals) / math.sqrt(len(self.finals))


def make(strength: str, samples: int, seconds: float) -> Player:
    if strength == "random":
        return RandomPlayer()
    if strength == "heuristic":
        return HeuristicPlayer()
    return StrongPlayer(seconds=seconds, max_samples=samples)


def play_game(players: list[Player], seed: bytes, rng: random.Random) -> dict:
    game = new_game("goat", 4, {"fish_rule": "all"}, seed)
    play_to_end(game, players, rng)
    assert game.result is not None
    return game.result


def run_pairing(a: str, b: str, games: int, samples: int, seconds: float) -> dict[str, Tally]:
    tallies = {a: Tally(), b: Tally()} if a != b else {a: Tally()}
    pa, pb = make(a, samples, seconds), make(b, samples, seconds)
    rng = random.Random(f"{a}:{b}")
    t0 = time.perf_counter()
    for g in range(games):
        seats = [pa, pb, pa, pb] if g % 2 == 0 else [pb, pa, pb, pa]
        names = [a, b, a, b] if g % 2 == 0 else [b, a, b, a]
        seed = hashlib.sha256(f"bots-{a}-{b}-{g}".encode()).digest()
        result = play_game(seats, seed, rng)
        for seat, name in enumerate(names):
            tally = tallies[name]
            tally.seats += 1
            tally.goats += seat in result["losers"]
            tally.finals.append(result["final"][seat])
        if (g + 1) % max(1, games // 10) == 0:
            print(f"  {a}:{b} {g + 1}/{games} games, {time.perf_counter() - t0:.0f}s", flush=True)
    for p in (pa, pb):
        if isinstance(p, StrongPlayer) and p.thinking:
            print(f"  strong: {p.playouts} playouts (each to the round's end, scored) in "
                  f"{p.thinking_cpu:.1f} s of CPU = {p.playouts / p.thinking_cpu:,.0f} "
                  f"playouts per CPU second ({p.playouts / p.thinking:,.0f} per wall second)")
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument(
        "--pairings", default="random:heuristic,heuristic:strong,random:strong"
    )
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; {args.games} games per pairing; strong: "
          f"{args.samples} samples per move (at most {args.seconds}s)")
    for pairing in args.pairings.split(","):
        a, b = pairing.split(":")
        t0 = time.perf_counter()
        tallies = run_pairing(a, b, args.games, args.samples, args.seconds)
        print(f"{a} vs {b} ({time.perf_counter() - t0:.0f}s):")
        for name, tally in tallies.items():
            rate, low, high = tally.goat_rate()
            mean, half = tally.final()
            print(f"  {name:9s} goat rate {rate:6.1%} [{low:.1%}, {high:.1%}]  "
                  f"average final account {mean:6.1f} +/- {half:.1f}  ({tally.seats} seats)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
