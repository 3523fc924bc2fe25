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

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

# How many players the search for an all-fresh seating tries at a table before it gives up
# (a few milliseconds: an arena of hundreds whose clubs cannot all be parted gives up soon).
SEARCH_STEPS = 5_000


class _Spent(Exception):
    """The search for an all-fresh seating took too many steps."""


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

    # Those due to sit all at fresh tables if they can be (a first fit could leave the last
    # two club-mates together where another grouping parts them); else the first fit,
    # with the spare players swapped in and, last, the soft rules given up.
    parted = _fresh_tables(ranked, seats, fresh)
    if parted is not None:
        return [[w.id for w in table] for table in parted]
    tables: list[list[int]] = []
    while ranked:
        table = [ranked.pop(0)]
        while len(table) < seats:
            pick = take(table, fresh) or take(table, allowed)
            if pick is None:
                break
            table.append(pick)
        if len(table) == seats:
            tables.append([w.id for w in table])
    return tables


def _fresh_tables(ranked: list[Waiting], seats: int,
                  fits: Callable[[list[Waiting], Waiting], bool]) -> list[list[Waiting]] | None:
    """`ranked` (a whole number of tables) seated at tables that each `fit`, found by a
    search that tries the ranked order first (so it is the first fit whenever that one
    works); None when there is no such seating, or none within SEARCH_STEPS."""
    steps = [SEARCH_STEPS]

    def tables_of(table: list[Waiting], rest: list[Waiting], start: int
                  ) -> Iterator[list[Waiting]]:
        if len(table) == seats:
            yield table
            return
        for i in range(start, len(rest)):
            steps[0] -= 1
            if steps[0] < 0:
                raise _Spent
            if fits(table, rest[i]):
                yield from tables_of([*table, rest[i]], rest, i + 1)

    def seat(rest: list[Waiting]) -> list[list[Waiting]] | None:
        if not rest:
            return []
        for table in tables_of([rest[0]], rest, 1):
            others = seat([w for w in rest if w not in table])
            if others is not None:
                return [table, *others]
        return None

    try:
        return seat(list(ranked))
    except _Spent:
        return None
