"""CPU time of the tournament pairings (app/domain/arena.py, app/domain/swiss.py).

- arena: one pairing of `--arena` waiting players (all at once, the worst case: an arena's
  start) at tables of `--seats`, repeated `--repeat` times;
- Swiss: a whole tournament of `--swiss` players at tables of `--seats` over `--rounds`
  rounds, every game's places drawn at random, each round's pairing timed.

Prints the median and the largest CPU milliseconds (time.process_time) of each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from app.domain.arena import Waiting, pair_waiting
from app.domain.swiss import Entrant, pair_round


def _cpu_ms(work: object) -> float:
    started = time.process_time()
    work()  # type: ignore[operator]
    return (time.process_time() - started) * 1000


def arena(players: int, seats: int, repeat: int, rng: random.Random) -> list[float]:
    times = []
    for _ in range(repeat):
        waiting = [Waiting(i, rng.randrange(0, 40) / 2, rng.gauss(1500, 200), rng.randrange(10**6))
                   for i in range(players)]
        times.append(_cpu_ms(lambda w=waiting: pair_waiting(w, seats)))
    return times


def swiss(players: int, seats: int, rounds: int, rng: random.Random) -> tuple[list[float], int]:
    points = dict.fromkeys(range(players), 0.0)
    byes = dict.fromkeys(range(players), 0)
    ratings = {p: rng.gauss(1500, 200) for p in range(players)}
    met: dict[int, set[int]] = {p: set() for p in range(players)}
    times, repeats = [], 0
    for _ in range(rounds):
        entrants = [Entrant(p, points[p], ratings[p], byes[p]) for p in range(players)]
        frozen = {p: frozenset(q) for p, q in met.items()}
        result = None

        def pair(e: list[Entrant] = entrants, f: dict[int, frozenset[int]] = frozen) -> None:
            nonlocal result
            result = pair_round(e, seats, f)

        times.append(_cpu_ms(pair))
        assert result is not None
        repeats += result.repeats
        for p in result.byes:
            points[p] += (seats - 1) / 2
            byes[p] += 1
        for table in result.tables:
            places = list(range(seats))
            rng.shuffle(places)
            for p, place in zip(table, places, strict=True):
                points[p] += seats - 1 - place
                met[p] |= set(table) - {p}
    return times, repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--arena", type=int, default=1000)
    parser.add_argument("--swiss", type=int, default=64)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    a = arena(args.arena, args.seats, args.repeat, rng)
    print(f"arena, {args.arena} players at {args.seats} seats: CPU ms per pairing "
          f"median {statistics.median(a):.2f}, max {max(a):.2f} ({args.repeat} pairings)")
    s, repeats = swiss(args.swiss, args.seats, args.rounds, rng)
    print(f"swiss, {args.swiss} players at {args.seats} seats, {args.rounds} rounds: CPU ms per "
          f"round median {statistics.median(s):.2f}, max {max(s):.2f}; by round "
          f"{' '.join(f'{x:.1f}' for x in s)}; repeat meetings {repeats}")


if __name__ == "__main__":
    main()
