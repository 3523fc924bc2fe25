"""Arena pairing (PROTOCOL §2b), a pure function: whoever waits is seated as soon as
enough players wait.

The players who have waited longest are seated first; those left over (fewer than a
table) wait for the next game to end. The seated ones are grouped by points, then rating,
so players of a similar standing meet, as in a Swiss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    id: int
    points: float
    rating: float
    since: int  # when he began to wait (ms)


def pair_waiting(waiting: Sequence[Waiting], seats: int) -> list[list[int]]:
    """Tables of `seats` players from those waiting (the longest waits first)."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    full = len(waiting) - len(waiting) % seats
    if not full:
        return []
    first = sorted(waiting, key=lambda w: (w.since, w.id))[:full]
    ranked = sorted(first, key=lambda w: (-w.points, -w.rating, w.id))
    return [[w.id for w in ranked[i:i + seats]] for i in range(0, full, seats)]
