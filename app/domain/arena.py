"""Arena pairing (PROTOCOL §2b), a pure function: whoever waits is seated as soon as
enough players wait.

The players who have waited longest are seated first; those left over (fewer than a
table) wait for the next game to end. The seated ones are grouped by points, then rating,
so players of a similar standing meet, as in a Swiss; but no one sits with an opponent of
his last game while another player could take that place (PROTOCOL §2g: two accounts
alone in an arena meet again only when nobody else waits), nor with a player of his own
club in a team battle (PROTOCOL §2e: each plays for his club). Two players of whom one blocks
the other (PROTOCOL §2c) never sit together: one of them gives way to a player who waited
less, or waits.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

# How many swaps between tables are tried to part those who should not meet (a few
# milliseconds: an arena of hundreds whose clubs cannot all be parted gives up soon).
SEARCH_STEPS = 5_000


@dataclass(frozen=True)
class Waiting:
    id: int
    points: float
    rating: float
    since: int  # when he began to wait (ms)


def pair_waiting(waiting: Sequence[Waiting], seats: int,
                 last: Mapping[int, frozenset[int]] | None = None,
                 apart: Collection[frozenset[int]] = (),
                 clubs: Mapping[int, int] | None = None) -> list[list[int]]:
    """Tables of `seats` players from those waiting (the longest waits first).

    `last`: each player's opponents in his last game, whom he meets again only when no one
    else can take the seat (a player who waited less, left over, is seated instead).
    `clubs`: the club each player plays for in a team battle; club-mates are kept apart
    as last opponents are (only when no one else can take the seat).
    `apart`: pairs of players never seated together; a table that cannot be filled
    without such a pair is not made, and its players wait."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    full = len(waiting) - len(waiting) % seats
    if not full:
        return []
    by_wait = sorted(waiting, key=lambda w: (w.since, w.id))
    ranked = sorted(by_wait[:full], key=lambda w: (-w.points, -w.rating, w.id))
    spare = by_wait[full:]
    met = last or {}
    club_of = clubs or {}

    def rivals(a: Waiting, b: Waiting) -> bool:
        """Not last opponents, and not of one club."""
        if b.id in met.get(a.id, frozenset()) or a.id in met.get(b.id, frozenset()):
            return False
        return a.id not in club_of or club_of.get(a.id) != club_of.get(b.id)

    def allowed(table: list[Waiting], w: Waiting) -> bool:
        return not any(frozenset((t.id, w.id)) in apart for t in table)

    def fresh(table: list[Waiting], w: Waiting) -> bool:
        return allowed(table, w) and all(rivals(t, w) for t in table)

    def take(table: list[Waiting], fits: Callable[[list[Waiting], Waiting], bool]
             ) -> Waiting | None:
        """The first of the ranked, else of the spare, that `fits` the table (a spare one
        swapped in: the last of the ranked waits instead)."""
        pick = next((w for w in ranked if fits(table, w)), None)
        if pick is not None:
            ranked.remove(pick)
            return pick
        pick = next((w for w in spare if fits(table, w)), None)
        if pick is not None:
            spare.remove(pick)
            if ranked:
                spare.append(ranked.pop())
        return pick

    tables: list[list[Waiting]] = []
    while ranked:
        table = [ranked.pop(0)]
        while len(table) < seats:
            pick = take(table, fresh) or take(table, allowed)
            if pick is None:
                break
            table.append(pick)
        if len(table) == seats:
            tables.append(table)
    # A first fit may leave two who should not meet together where a swap with another
    # table parts them (the last two players of one club): such swaps are made.
    _part(tables, rivals, lambda a, b: frozenset((a.id, b.id)) not in apart)
    return [[w.id for w in table] for table in tables]


def _part(tables: list[list[Waiting]], rivals: Callable[[Waiting, Waiting], bool],
          allowed: Callable[[Waiting, Waiting], bool]) -> None:
    """Swap players between `tables` while a swap lowers the count of pairs seated
    together who are no `rivals`, never seating a pair not `allowed` (within SEARCH_STEPS
    tries: a seating that cannot be mended gives up soon)."""
    steps = SEARCH_STEPS

    def clashes(table: list[Waiting]) -> int:
        return sum(not rivals(a, b) for a, b in combinations(table, 2))

    def fits(table: list[Waiting]) -> bool:
        return all(allowed(a, b) for a, b in combinations(table, 2))

    def mend() -> bool:
        """One swap that lowers the clashes; False when there is none (or no tries left)."""
        nonlocal steps
        for t in tables:
            if not clashes(t):
                continue
            for i, x in enumerate(t):
                if all(rivals(x, o) for o in t if o is not x):
                    continue  # x clashes with nobody here
                for u in tables:
                    if u is t:
                        continue
                    before = clashes(t) + clashes(u)
                    for j, y in enumerate(u):
                        steps -= 1
                        if steps < 0:
                            return False
                        t2, u2 = [*t[:i], y, *t[i + 1:]], [*u[:j], x, *u[j + 1:]]
                        if clashes(t2) + clashes(u2) < before and fits(t2) and fits(u2):
                            t[i], u[j] = y, x
                            return True
        return False

    while mend():
        pass
