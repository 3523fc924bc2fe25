"""Arena pairing (PROTOCOL §2b), a pure function: whoever waits is seated as soon as
enough players wait.

The players who have waited longest are seated first; those left over (fewer than a
table) wait for the next game to end. The seated ones are grouped by points, then rating,
so players of a similar standing meet, as in a Swiss.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    id: int
    points: float
    rating: float
    since: int  # when he began to wait (ms)


def pair_waiting(waiting: Sequence[Waiting], seats: int,
                 apart: Collection[frozenset[int]] = ()) -> list[list[int]]:
    """Tables of `seats` players from those waiting (the longest waits first).

    `apart`: pairs of players never seated together (one blocks the other, PROTOCOL §2c);
    such a pair's second player gives way to a player who waited less, or waits."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    full = len(waiting) - len(waiting) % seats
    if not full:
        return []
    by_wait = sorted(waiting, key=lambda w: (w.since, w.id))
    ranked = sorted(by_wait[:full], key=lambda w: (-w.points, -w.rating, w.id))
    groups = [[w.id for w in ranked[i:i + seats]] for i in range(0, full, seats)]
    if not apart or not any(_clash(group, apart) for group in groups):
        return groups
    # Each in turn (the standings' order, then those who waited less) sits at the first
    # table with room and nobody he is kept apart from.
    tables: list[list[int]] = []
    for w in [*ranked, *by_wait[full:]]:
        table = next((t for t in tables if len(t) < seats and not _clash([*t, w.id], apart)),
                     None)
        if table is None:
            tables.append([w.id])
        else:
            table.append(w.id)
    return [t for t in tables if len(t) == seats][:full // seats]


def _clash(group: Sequence[int], apart: Collection[frozenset[int]]) -> bool:
    return any(frozenset((a, b)) in apart for i, a in enumerate(group) for b in group[i + 1:])
