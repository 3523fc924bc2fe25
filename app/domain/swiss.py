"""Swiss pairing of one round at tables of `seats` (PROTOCOL §2b), a pure function.

- Players left over (`len(players) % seats`) sit the round out with a bye. A bye goes to a
  player with the fewest byes so far (so byes go to different players while possible);
  among those, the lowest in the standings.
- The others are grouped by points, then rating: the best placed player not yet seated
  opens a table and the next ones in order fill it, skipping anyone who already met one
  of its players. A search over the groupings (and over the fair choices of byes) finds
  a round without a repeat meeting whenever one exists within its budget (steps and CPU
  time: exhaustive for a club's tournament); only when none is found are repeats
  allowed, as few as a bounded search finds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, islice

# How many fair choices of byes are tried before repeats are allowed.
BYE_CHOICES = 64
# When repeats cannot be avoided, a table is filled from this many next players.
WINDOW = 12
# CPU seconds each of the two searches may take (a small tournament's is exhaustive long
# before; a large one's late rounds end the search for a round without repeats here).
SEARCH_SECONDS = 0.05


@dataclass(frozen=True)
class Entrant:
    id: int
    points: float
    rating: float
    byes: int = 0


@dataclass(frozen=True)
class Round:
    tables: list[list[int]]
    byes: list[int]
    repeats: int = 0  # pairs of players at one table who had met before


@dataclass
class _Search:
    seats: int
    met: Mapping[int, frozenset[int]]
    budget: int
    until: float = 0.0  # time.process_time() at which the search gives up
    steps: int = 0
    tables: list[list[int]] = field(default_factory=list)

    @property
    def spent(self) -> bool:
        return self.steps > self.budget or time.process_time() > self.until

    def clean(self, order: list[int]) -> bool:
        """Group `order` (best first) into tables with no repeat meeting; True when found
        (the tables in `self.tables`), False when there is none or the budget ran out."""
        if not order:
            return True
        self.steps += 1
        if self.spent:
            return False
        head = self._head(order)
        rest = [p for p in order if p != head]
        for others in self._fills(head, rest):
            self.tables.append([head, *others])
            chosen = set(others)
            if self.clean([p for p in rest if p not in chosen]):
                return True
            self.tables.pop()
            if self.spent:
                return False
        return False

    def _head(self, order: list[int]) -> int:
        """Who opens the next table: the best placed, unless someone has so few players
        left he has not met that he must be seated first (the most constrained first)."""
        seen = self.met
        free = {p: sum(q not in seen.get(p, ()) for q in order if q != p) for p in order}
        tightest = min(free.values())
        if tightest >= 4 * self.seats:
            return order[0]
        return next(p for p in order if free[p] == tightest)

    def _fills(self, head: int, rest: list[int]) -> Iterator[list[int]]:
        """The ways to fill `head`'s table from `rest` without a repeat, in order."""
        need = self.seats - 1
        free = [p for p in rest if p not in self.met.get(head, ())]

        def extend(start: int, table: list[int]) -> Iterator[list[int]]:
            if len(table) == need:
                yield list(table)
                return
            for i in range(start, len(free) - (need - len(table)) + 1):
                p = free[i]
                if any(p in self.met.get(q, ()) for q in table):
                    continue
                table.append(p)
                yield from extend(i + 1, table)
                table.pop()

        return extend(0, [])


def _conflicts(player: int, table: Sequence[int], met: Mapping[int, frozenset[int]]) -> int:
    return sum(player in met.get(q, ()) for q in table)


def _greedy(order: list[int], seats: int, met: Mapping[int, frozenset[int]]
            ) -> tuple[list[list[int]], int]:
    """Tables in order, each filled with whoever met the fewest of it so far."""
    left = list(order)
    tables: list[list[int]] = []
    repeats = 0
    while left:
        table = [left.pop(0)]
        while len(table) < seats:
            best = min(range(len(left)), key=lambda i: (_conflicts(left[i], table, met), i))
            repeats += _conflicts(left[best], table, met)
            table.append(left.pop(best))
        tables.append(table)
    return tables, repeats


def _fewest(order: list[int], seats: int, met: Mapping[int, frozenset[int]], budget: int,
            seconds: float) -> tuple[list[list[int]], int]:
    """The grouping with the fewest repeat meetings found within `budget` steps (a
    branch and bound from the greedy one; each table is filled from the next `WINDOW`
    players in order, so the search stays near the standings)."""
    best_tables, best = _greedy(order, seats, met)
    steps = 0
    until = time.process_time() + seconds
    chosen: list[list[int]] = []

    def search(left: list[int], cost: int) -> None:
        nonlocal best, best_tables, steps
        if not left:
            if cost < best:
                best, best_tables = cost, [list(t) for t in chosen]
            return
        steps += 1
        if steps > budget or time.process_time() > until:
            return
        head, rest = left[0], left[1:]
        fills = []
        for others in combinations(rest[:WINDOW], seats - 1):
            table = [head]
            added = 0
            for p in others:
                added += _conflicts(p, table, met)
                table.append(p)
            fills.append((added, table))
        fills.sort(key=lambda f: f[0])
        for added, table in fills:
            if cost + added >= best or steps > budget or time.process_time() > until:
                return
            chosen.append(table)
            taken = set(table)
            search([p for p in rest if p not in taken], cost + added)
            chosen.pop()

    search(order, 0)
    return best_tables, best


def fair_byes(players: Sequence[Entrant], count: int) -> Iterator[list[int]]:
    """Every choice of `count` players for a bye in which nobody has more byes than anyone
    left playing, the preferred first (the lowest placed of the fewest byes)."""
    if count == 0:
        yield []
        return
    order = sorted(players, key=lambda e: (e.byes, e.points, e.rating, e.id))
    boundary = order[count - 1].byes
    forced = [e.id for e in order if e.byes < boundary]
    tied = [e.id for e in order if e.byes == boundary]
    for extra in combinations(tied, count - len(forced)):
        yield forced + list(extra)


def pair_round(
    players: Sequence[Entrant],
    seats: int,
    met: Mapping[int, frozenset[int]],
    budget: int = 20_000,
    seconds: float = SEARCH_SECONDS,
) -> Round:
    """One Swiss round for `players` (those still paired) at tables of `seats`.
    `met`: whom each player already sat with. Each search stops after `budget` steps or
    `seconds` of CPU time."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    order = [e.id for e in sorted(players, key=lambda e: (-e.points, -e.rating, e.id))]
    count = len(order) % seats
    choices = list(islice(fair_byes(players, count), BYE_CHOICES))
    search = _Search(seats, met, budget, time.process_time() + seconds)
    for byes in choices:
        out = set(byes)
        search.tables = []
        if search.clean([p for p in order if p not in out]):
            return Round(search.tables, byes)
        if search.spent:
            break
    byes = choices[0]
    tables, repeats = _fewest([p for p in order if p not in set(byes)], seats, met, budget,
                              seconds)
    return Round(tables, byes, repeats)
