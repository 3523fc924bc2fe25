"""Where an open seek is filed in its pool's index, and where a new seek looks.

Two seeks fit when each one's rating lies inside the other's range. The pool's index is a
segment tree over ratings kept as sorted sets: ratings are cut into cells `CELL` points
wide, and a node `level:i` stands for cells `i·2^level ... (i+1)·2^level - 1`. A seek is
filed in the few nodes that together cover its range (`cover`, at most 2·LEVELS of them),
each a sorted set scored by the seek's rating. A new seek of rating r looks in the nodes
that hold r's cell, one per level (`stab`): a seek is in one of those exactly when its
range covers r's cell, and the part of each node inside the new seek's own range is one
ZRANGEBYSCORE. So a seek's add reads only seeks that fit it both ways (up to the cells at
its ranges' ends, checked exactly), never the pool.

A rating or a range end outside the cells' span counts in the first or the last cell (the
exact check decides); a range of any rating covers the root alone.
"""

from __future__ import annotations

# Rating points per cell, and the levels of the tree: the cells span
# [-CELL·2^(LEVELS-1), CELL·2^(LEVELS-1)), ratings and range ends (0-5000) well inside.
CELL = 16
LEVELS = 10
SPAN = 1 << LEVELS


def cell(rating: float) -> int:
    """The cell of a rating (clamped to the span)."""
    return min(SPAN - 1, max(0, int(rating // CELL) + SPAN // 2))


def stab(rating: float) -> list[str]:
    """The nodes that hold the cell of `rating`, one per level (the root last)."""
    at = cell(rating)
    return [f"{level}:{at >> level}" for level in range(LEVELS + 1)]


def cover(lo: float, hi: float) -> list[str]:
    """The fewest nodes that together cover the cells from `lo`'s to `hi`'s."""
    nodes: list[str] = []
    start, end, level = cell(lo), cell(hi) + 1, 0
    if start >= end:
        return nodes
    while start < end:
        if start & 1:
            nodes.append(f"{level}:{start}")
            start += 1
        if end & 1:
            end -= 1
            nodes.append(f"{level}:{end}")
        start >>= 1
        end >>= 1
        level += 1
    return nodes
