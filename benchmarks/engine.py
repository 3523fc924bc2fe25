"""Random-playout throughput of app/engine against the `dominoes` package (PyPI).

Run: .venv/bin/python benchmarks/engine.py [--reps 5] [--seconds 1.5] [--profile]

Measures, each as the median of --reps timed repetitions in one run:
- complete 4-player Goat rounds per second (4 x 7 deal, no bazaar), random legal moves,
  counted inside complete games so that each round pays for one deal;
- the same for the `dominoes` package's own 4-player game (dominoes.Game.new(), 4 x 7 deal),
  random valid moves until its round ends; and the ratio (target: ours >= 5x theirs);
- complete 4-player Goat games (to 101) per second;
- legal-move generations per second (list(game.legal_moves()) on mid-round positions).
--profile prints a cProfile of our round playout (where the time goes).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dominoes

from app.engine import new_game


def seed_for(i: int) -> bytes:
    return hashlib.sha256(b"bench-%d" % i).digest()


def our_rounds(i: int, rng: random.Random) -> int:
    """A complete 4-player Goat game with random legal moves; returns the rounds it took.

    Counting rounds inside whole games makes each round pay for exactly one deal (the
    seeded SHA-256 shuffle of PROTOCOL §4), as each of the package's rounds pays for one.
    """
    game = new_game("goat", 4, {"fish_rule": "all"}, seed_for(i))
    while game.status == "playing":
        move = rng.choice(list(game.legal_moves()))
        game.play(game.turn, move.tile, move.end)
    return game.round + 1


def our_game(i: int, rng: random.Random) -> int:
    """One complete 4-player Goat game (until someone's account reaches 101)."""
    our_rounds(i, rng)
    return 1


def their_round(i: int, rng: random.Random) -> int:
    """One complete round of the `dominoes` package's 4-player game (4 x 7, no bazaar)."""
    game = dominoes.Game.new()
    while game.result is None:
        d, left = rng.choice(game.valid_moves)
        game.make_move(d, left)
    return 1


def rate(work: Callable[[int, random.Random], int], seconds: float, start: int) -> float:
    """Units of `work` (what each call returns) per second over about `seconds`."""
    rng = random.Random(start)
    done = calls = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        done += work(start + calls, rng)
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - t0)


def median_rate(work: Callable[[int, random.Random], int], reps: int, seconds: float) -> float:
    return statistics.median(rate(work, seconds, 10_000 * r) for r in range(reps))


def mid_round_positions(count: int) -> list:
    rng = random.Random(7)
    games = []
    for i in range(count):
        game = new_game("goat", 4, {}, seed_for(100_000 + i))
        for _ in range(rng.randrange(1, 20)):
            if game.round != 0:
                break
            move = rng.choice(list(game.legal_moves()))
            game.play(game.turn, move.tile, move.end)
        if game.round == 0 and game.status == "playing":
            games.append(game)
    return games


def legal_rate(reps: int, seconds: float) -> float:
    games = mid_round_positions(200)
    results = []
    for _ in range(reps):
        done = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds
        while time.perf_counter() < deadline:
            for game in games:
                list(game.legal_moves())
            done += len(games)
        results.append(done / (time.perf_counter() - t0))
    return statistics.median(results)


def profile_round(rounds: int) -> None:
    rng = random.Random(1)
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(rounds // 10):
        our_rounds(i, rng)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.5, help="per repetition")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    print(
        f"python {sys.version.split()[0]}, dominoes {getattr(dominoes, '__version__', '?')}, "
        f"{args.reps} reps x {args.seconds}s, medians"
    )
    ours = median_rate(our_rounds, args.reps, args.seconds)
    print(f"app.engine  goat 4p rounds/s : {ours:10.1f}")
    theirs = median_rate(their_round, args.reps, args.seconds)
    print(f"dominoes    4p rounds/s      : {theirs:10.1f}")
    ratio = ours / theirs
    verdict = "OK" if ratio >= 5 else "BELOW TARGET"
    print(f"ratio ours/theirs            : {ratio:10.2f}x  (target >= 5x: {verdict})")
    games = median_rate(our_game, args.reps, args.seconds)
    print(f"app.engine  goat 4p games/s  : {games:10.1f}")
    legal = legal_rate(args.reps, args.seconds / 2)
    print(f"app.engine  legal_moves()/s  : {legal:10.0f}")
    deals = median_rate(lambda i, rng: bool(new_game("goat", 4, {}, seed_for(i))), args.reps, 0.3)
    print(
        f"app.engine  new_game()/s     : {deals:10.0f}  ({1e6 / deals:.0f} us: deal, redeal "
        f"check, lead; every round pays one)"
    )
    if args.profile:
        profile_round(2000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
