"""Arena pairing (PROTOCOL §2b), a pure function: whoever waits is seated as soon as
enough players wait.

The players who have waited longest are seated first; those left over (fewer than a
table) wait for the next game to end. The seated ones are grouped by points, then rating,
so players of a similar standing meet, as in a Swiss; but no one sits with an opponent of
his last game while another player could take that place (PROTOCOL §2g: two accounts
alone in an arena meet again only when nobody else waits).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    id: int
    points: float
    rating: float
    since: int  # when he began to wait (ms)


def pair_waiting(waiting: Sequence[Waiting], seats: int,
                 last: Mapping[int, frozenset[int]] | None = None) -> list[list[int]]:
    """Tables of `seats` players from those waiting (the longest waits first); `last`: each
    player's opponents in his last game, whom he meets again only when no one else can
    take the seat (a player who waited less, left over, is seated instead)."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    full = len(waiting) - len(waiting) % seats
    if not full:
        return []
    by_wait = sorted(waiting, key=lambda w: (w.since, w.id))
    ranked = sorted(by_wait[:full], key=lambda w: (-w.points, -w.rating, w.id))
    spare = by_wait[full:]
    met = last or {}

    def fits(table: list[Waiting], w: Waiting) -> bool:
        return all(w.id not in met.get(t.id, frozenset()) and t.id not in met.get(w.id, frozenset())
                   for t in table)

    tables: list[list[int]] = []
    while ranked:
        table = [ranked.pop(0)]
        while len(table) < seats:
            pick = next((w for w in ranked if fits(table, w)), None)
            if pick is not None:
                ranked.remove(pick)
            else:
                pick = next((w for w in spare if fits(table, w)), None)
                if pick is not None:  # swapped in: the one he replaces waits instead
                    spare.remove(pick)
                    if ranked:
                        spare.append(ranked.pop())
                else:
                    pick = ranked.pop(0)
            table.append(pick)
        tables.append([w.id for w in table])
    return tables
