"""The strong computer player against the heuristic one, per variant, on duplicate deals.

Run: nice -n 10 .venv/bin/python benchmarks/bots.py [--deals 200] [--budget 24]
                                                    [--variants goat,classic,...]

For each variant (players and options in `SETUPS`) and each of --deals seeds, two whole
games are played on the full engine from the same seed, so with the same deals in every
round: once with the strong player in one set of seats and the heuristic in the other, once
with the seats swapped (duplicate deals, colours swapped). Every move is chosen from the
seat's own view only. A game scores each seat 1 as a winner, 0 as a loser, 1/2 in a draw
(nobody loses); the strong side's edge in a game is its seats' mean score less the
heuristic seats' mean, from -1 to 1, 0 being even. The two games of a deal are one
observation (their mean edge), so the luck of the deal cancels within it; the figure is
the mean edge over the deals with its 95 % interval (normal, from the deals' spread), and
the strong side's share of the points, (1 + edge) / 2.

The strong player searches a fixed number of playouts per move (shared among its legal
moves, at least one deal of the unseen tiles each), never a time: its strength does not
depend on how busy the machine is. The number is --budget unless the variant's `Setup`
names its own: the whole run must fit a shared machine, so the variants whose games are
long get fewer (Mexican Train, 13 rounds of a double-twelve set, also cuts its playouts
after a few moves and scores the hands as a block), and Goat and Sport Goat more (with
24 and 12 a move the strong player is even with the heuristic there). General is played
against a clock that moves 3 minutes a round (a game of 30 minutes is 10 rounds unless a
team leads by 3 Generals first).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import HeuristicPlayer, Player, StrongPlayer, play_to_end
from app.engine import Result, start_game

Z = 1.96  # 95%


@dataclass(frozen=True)
class Setup:
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    # The seats of one side (the other side has the rest); partners sit opposite.
    side: tuple[int, ...] = (0,)
    # The strong player's playouts per move here, if not --budget, and where its playouts
    # stop and score the hands as they are (None: at the end of the round).
    budget: int | None = None
    depth: int | None = None
    # A game played against the clock (General) reads this clock: each reading is this
    # many minutes after the one before, one round's length.
    minutes_per_round: int | None = None


SETUPS: dict[str, Setup] = {
    # Goat's rounds are long and its heuristic good: 24 playouts a move are even with it.
    "goat": Setup(4, {"fish_rule": "all"}, (0, 2), budget=100),
    "classic": Setup(2),
    "fives": Setup(2),
    "telephone": Setup(2),
    # 13 rounds of up to 91 tiles: short playouts, few a move, keep it within the run.
    "mexican_train": Setup(2, budget=4, depth=8),
    "sea_goat": Setup(2, budget=12),
    "sport_goat": Setup(4, {"rounds": 8}, (0, 2), budget=48),  # even with it at 12
    "general": Setup(4, {"minutes": 30}, (0, 2), budget=12, minutes_per_round=3),
    "donkey": Setup(2),  # 12 a move: +0.085 [-0.009, +0.179]
}


def score(result: Result, seat: int) -> float:
    if seat in result["winners"]:
        return 1.0
    if seat in result["losers"]:
        return 0.0
    return 0.5


def edge(result: Result, strong: tuple[int, ...], players: int) -> float:
    """The strong seats' mean score less the others' (-1 to 1)."""
    weak = [s for s in range(players) if s not in strong]
    return statistics.fmean(score(result, s) for s in strong) - statistics.fmean(
        score(result, s) for s in weak
    )


class RoundClock:
    """A clock (epoch ms) that moves on by a fixed step each time it is read."""

    def __init__(self, minutes: int) -> None:
        self.step = minutes * 60_000
        self.now = 0

    def __call__(self) -> int:
        self.now += self.step
        return self.now


def play_game(
    variant: str, setup: Setup, seed: bytes, seats: list[Player], rng: random.Random
) -> Result:
    minutes = setup.minutes_per_round
    clock = None if minutes is None else RoundClock(minutes)
    game, _ = start_game(variant, setup.players, setup.options, seed, clock)
    play_to_end(game, seats, rng)
    assert game.result is not None
    return game.result


def interval(edges: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval."""
    mean = statistics.fmean(edges)
    return mean, Z * statistics.stdev(edges) / math.sqrt(len(edges)) if len(edges) > 1 else math.inf


def run_variant(variant: str, deals: int, budget: int) -> dict[str, Any]:
    setup = SETUPS[variant]
    budget = setup.budget or budget
    strong = StrongPlayer(seconds=None, budget=budget, depth=setup.depth)
    heuristic = HeuristicPlayer()
    first = setup.side
    second = tuple(s for s in range(setup.players) if s not in first)
    edges: list[float] = []
    rng = random.Random(f"bots-{variant}")
    t0 = time.perf_counter()
    for d in range(deals):
        seed = hashlib.sha256(f"bots-{variant}-{d}".encode()).digest()
        pair = []
        for strong_seats in (first, second):
            seats: list[Player] = [
                strong if s in strong_seats else heuristic for s in range(setup.players)
            ]
            result = play_game(variant, setup, seed, seats, rng)
            pair.append(edge(result, strong_seats, setup.players))
        edges.append(statistics.fmean(pair))
        if (d + 1) % max(1, deals // 10) == 0:
            mean, half = interval(edges)
            print(f"  {variant} {d + 1}/{deals} deals, {time.perf_counter() - t0:.0f}s, "
                  f"edge so far {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]",
                  flush=True)
    mean, half = interval(edges)
    return {
        "variant": variant,
        "games": 2 * deals,
        "edge": mean,
        "low": mean - half,
        "high": mean + half,
        "share": (1 + mean) / 2,
        "seconds": time.perf_counter() - t0,
        "budget": budget,
        "depth": setup.depth,
        "playouts_per_cpu_second": strong.playouts / max(strong.thinking_cpu, 1e-9),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="seeds per variant (2 games each)")
    parser.add_argument("--budget", type=int, default=24, help="playouts per strong move")
    parser.add_argument("--variants", default=",".join(SETUPS))
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; load {os.getloadavg()[0]:.1f}; {args.deals} "
          f"duplicate deals ({2 * args.deals} games) per variant; strong: {args.budget} "
          "playouts per move", flush=True)
    rows = []
    for variant in args.variants.split(","):
        rows.append(run_variant(variant, args.deals, args.budget))
        r = rows[-1]
        print(f"{variant}: edge {r['edge']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}], "
              f"strong share {r['share']:.1%} ({r['games']} games, {r['seconds']:.0f}s, "
              f"{r['playouts_per_cpu_second']:,.0f} playouts/CPU s; load "
              f"{os.getloadavg()[0]:.1f})", flush=True)
    print()
    print("| variant | players | games | playouts a move | strong's edge (95 %) | "
          "strong's share of points |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        clear = "clear" if r["low"] > 0 else ("worse" if r["high"] < 0 else "even")
        depth = "" if r["depth"] is None else f" of {r['depth']} moves"
        print(f"| {r['variant']} | {SETUPS[r['variant']].players} | {r['games']} | "
              f"{r['budget']}{depth} | "
              f"{r['edge']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}] ({clear}) | "
              f"{r['share']:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
