"""Reviews of finished games (PROTOCOL §2f): their CPU per variant, a worker's throughput,
the budget's stability, and the losses that the marks' thresholds are taken from.

Run: nice -n 10 .venv/bin/python benchmarks/review.py [--games 3] [--budget N]
                                                      [--variants goat,...] [--calibrate]

For each variant (players and options in `SETUPS`) --games whole games are played by the
heuristic (Steady) computer player from fixed seeds, and each is reviewed once with the
variant's budget (app/bots/review.py `BUDGETS`, or --budget), in this process on one core:
the CPU seconds of each review (median, max), and the games a worker reviews per minute
on one core over the whole mix. Then the first game of each variant is reviewed again
with another seed of the search: how far apart the two reviews are (the mean and the
largest difference of a decision's loss, the share of decisions whose mark differs, the
largest difference of a player's accuracy). With --calibrate, the losses of every decision
that had a choice are pooled per variant, and the losses that a share of them
reach (10 %, 5 % and 3 %) are printed as the variant's inaccuracy, mistake and blunder
thresholds (`MARKS`).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import HeuristicPlayer, play_to_end
from app.bots.review import Review, budget_for, review
from app.engine import start_game

SHARES = {"inaccuracy": 0.10, "mistake": 0.05, "blunder": 0.03}


@dataclass(frozen=True)
class Setup:
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    minutes_per_round: int | None = None  # General: the clock moves this much a round


SETUPS: dict[str, Setup] = {
    "goat": Setup(4),
    "classic": Setup(2),
    "fives": Setup(4),
    "mexican_train": Setup(8),
    "telephone": Setup(2),
    "sea_goat": Setup(4),
    "donkey": Setup(4),
    "sport_goat": Setup(4),
    "general": Setup(4, {"minutes": 30}, minutes_per_round=3),
}


class RoundClock:
    """A clock (epoch ms) that moves on by a fixed step each time it is read."""

    def __init__(self, minutes: int) -> None:
        self.step, self.now = minutes * 60_000, 0

    def __call__(self) -> int:
        self.now += self.step
        return self.now


def record_of(variant: str, setup: Setup, n: int) -> dict[str, Any]:
    """A whole game of the heuristic player, from the n-th seed."""
    minutes = setup.minutes_per_round
    clock = None if minutes is None else RoundClock(minutes)
    seed = f"{variant}:{n}".encode().ljust(16, b".")[:16]
    game, _ = start_game(variant, setup.players, setup.options, seed, clock)
    play_to_end(game, [HeuristicPlayer()] * setup.players, random.Random(n))
    return game.record([f"p{s}" for s in range(setup.players)])


def timed(record: dict[str, Any], seed: int, budget: int | None) -> tuple[Review, float]:
    start = time.process_time()
    found = review(record, seed, budget)
    return found, time.process_time() - start


def apart(one: Review, two: Review) -> tuple[float, float, float, float]:
    diffs = [abs(a["loss"] - b["loss"]) for a, b in zip(one["moves"], two["moves"], strict=True)
             if a["choices"] > 1]
    marks = [a["mark"] != b["mark"] for a, b in zip(one["moves"], two["moves"], strict=True)
             if a["choices"] > 1]
    accuracy = max(abs(a["accuracy"] - b["accuracy"])
                   for a, b in zip(one["players"], two["players"], strict=True))
    return (statistics.fmean(diffs) if diffs else 0.0, max(diffs, default=0.0),
            sum(marks) / max(1, len(marks)), accuracy)


def quantile(values: list[float], share: float) -> float:
    """The loss that `share` of the values reach."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * (1 - share)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--budget", type=int, default=None,
                        help="playouts per decision (default: the variant's own)")
    parser.add_argument("--variants", default=",".join(SETUPS))
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    print("| variant | seats | budget | games | decisions | CPU s per review, median | max |"
          " loss apart, mean | max | marks apart | accuracy apart |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    spent: list[float] = []
    for variant in args.variants.split(","):
        setup = SETUPS[variant]
        records = [record_of(variant, setup, n) for n in range(args.games)]
        reviews = [timed(r, 1, args.budget) for r in records]
        seconds = [s for _, s in reviews]
        spent += seconds
        again, _ = timed(records[0], 2, args.budget)
        mean_apart, max_apart, marks_apart, accuracy_apart = apart(reviews[0][0], again)
        decisions = sum(len(r["moves"]) for r, _ in reviews)
        budget = args.budget or budget_for(variant)
        print(f"| {variant} | {setup.players} | {budget} | {len(records)} | {decisions} | "
              f"{statistics.median(seconds):.1f} | {max(seconds):.1f} | {mean_apart:.2f} | "
              f"{max_apart:.2f} | {marks_apart:.1%} | {accuracy_apart:.1f} |", flush=True)
        if args.calibrate:
            losses = [m["loss"] for r, _ in reviews for m in r["moves"] if m["choices"] > 1]
            found = {mark: round(quantile(losses, share), 1) for mark, share in SHARES.items()}
            spread = {f"{q:.0%}": round(quantile(losses, q), 1) for q in (0.2, 0.1, 0.05, 0.03)}
            print(f"    {variant}: {len(losses)} decisions with a choice; thresholds "
                  f"{found}; reached by {spread}", flush=True)
    print(f"one core: {60 / statistics.fmean(spent):.1f} games reviewed per minute over the "
          f"mix; load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
