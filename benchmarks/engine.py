"""Random-playout throughput of app/engine against the `dominoes` package (PyPI).

Run: .venv/bin/python benchmarks/engine.py [--reps 5] [--seconds 1.5] [--profile]

Measures, each as the median of --reps timed repetitions in one run, all in CPU time of
this process (other processes on a busy machine do not count); the three round rates are
measured interleaved (fast, package, full engine; again; ...) so that a change in the
machine's load hits them alike, and each repetition's ratio is printed:
- complete random 4-player Goat rounds per second on the simulation core
  (app/engine/playout.py, what search uses): a random deal (4 x 7, no bazaar) with the
  redeal rule, the lead (1-1 first), random legal moves to the round's end, every hand's
  points;
- the same for the `dominoes` package's own 4-player game (dominoes.Game.new(), 4 x 7 deal),
  random valid moves until its round ends (its result carries the points); the ratio of the
  two is the target (ours >= 5x theirs);
- complete 4-player Goat rounds per second on the full engine (`Game.play`: events, records,
  names), counted inside complete games so that each round pays for one seeded deal;
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
from app.engine.playout import Dealer, random_round, scratch_game


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


DEALER = Dealer(scratch_game("goat", 4, {"fish_rule": "all"}))


def fast_round(i: int, rng: random.Random) -> int:
    """One complete random 4-player Goat round on the simulation core, points included."""
    random_round(DEALER, rng).points()
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
    t0 = time.process_time()
    deadline = t0 + seconds
    while True:
        done += work(start + calls, rng)
        calls += 1
        now = time.process_time()
        if now >= deadline:
            return done / (now - t0)


def interleaved_rates(
    works: list[Callable[[int, random.Random], int]], seconds: float, start: int, slices: int = 20
) -> list[float]:
    """Each of `works`' rate per second of this process's CPU time over about `seconds` of
    it, measured in alternating short slices so that a change in the machine's load during
    the repetition hits them all alike. CPU time, not wall time: on a shared machine the
    time other processes take is not counted against whichever work happened to run."""
    rngs = [random.Random(start) for _ in works]
    done = [0] * len(works)
    spent = [0.0] * len(works)
    calls = [0] * len(works)
    clock = time.process_time
    for _ in range(slices):
        for k, work in enumerate(works):
            t0 = clock()
            deadline = t0 + seconds / slices
            while True:
                done[k] += work(start + calls[k], rngs[k])
                calls[k] += 1
                now = clock()
                if now >= deadline:
                    break
            spent[k] += now - t0
    return [d / s for d, s in zip(done, spent, strict=True)]


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
        t0 = time.process_time()
        deadline = t0 + seconds
        while time.process_time() < deadline:
            for game in games:
                list(game.legal_moves())
            done += len(games)
        results.append(done / (time.process_time() - t0))
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
    fast_rates, their_rates, full_rates, ratios = [], [], [], []
    for r in range(args.reps):
        fast_r, their_r, full_r = interleaved_rates(
            [fast_round, their_round, our_rounds], args.seconds, 10_000 * r
        )
        fast_rates.append(fast_r)
        their_rates.append(their_r)
        full_rates.append(full_r)
        ratios.append(fast_rates[-1] / their_rates[-1])
        print(
            f"  pair {r + 1}: core {fast_rates[-1]:9.0f}/s  dominoes {their_rates[-1]:8.0f}/s  "
            f"ratio {ratios[-1]:5.2f}x  (full engine {full_rates[-1]:8.0f}/s)"
        )
    fast, theirs = statistics.median(fast_rates), statistics.median(their_rates)
    print(f"playout core goat 4p rounds/s: {fast:10.1f}")
    print(f"dominoes    4p rounds/s      : {theirs:10.1f}")
    ratio = statistics.median(ratios)
    verdict = "OK" if ratio >= 5 else "BELOW TARGET"
    print(f"ratio core/dominoes (median) : {ratio:10.2f}x  (target >= 5x: {verdict})")
    ours = statistics.median(full_rates)
    print(f"app.engine  goat 4p rounds/s : {ours:10.1f}  (full engine, {ours / theirs:.2f}x)")
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
