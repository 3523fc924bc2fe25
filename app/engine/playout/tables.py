"""The per-set lookups the simulation core's hot loops read (plain tuples by tile id)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from app.engine.game import Game
from app.engine.tiles import TileSet, tile_set

CHUNK = 14
CHUNK_MASK = (1 << CHUNK) - 1


class Tables:
    """Per-set lookups in the shapes the hot loops want (plain tuples indexed by id)."""

    def __init__(self, ts: TileSet) -> None:
        self.ts = ts
        self.low, self.high, self.suits = ts.low, ts.high, ts.suits
        self.max_pip = ts.max_pip
        self.pips_of = ts.pips
        self.bits = tuple(1 << i for i in range(len(ts.tiles)))
        self.id_of_bit = {bit: i for i, bit in enumerate(self.bits)}
        self.pips_of_bit = {bit: ts.pips[i] for i, bit in enumerate(self.bits)}
        self.plain = tuple(s & ~ts.doubles for s in ts.suits)  # non-doubles per number
        self.count = len(ts.tiles)
        # Pips of a hand by 14-bit chunks of its mask: two lookups for a double-six hand.
        self.pip_tables = tuple(
            tuple(
                sum(ts.pips[base + b] for b in range(CHUNK) if m >> b & 1 and base + b < self.count)
                for m in range(1 << CHUNK)
            )
            for base in range(0, self.count, CHUNK)
        )

    def pips(self, mask: int) -> int:
        total = 0
        for table in self.pip_tables:
            total += table[mask & CHUNK_MASK]
            mask >>= CHUNK
        return total


@cache
def tables(max_pip: int) -> Tables:
    return Tables(tile_set(max_pip))


def special_points(game: Game) -> Callable[[int], int]:
    """`game.hand_points`, memoised. A variant counts a hand differently from its pips only
    when it holds 0-0 (id 0): the core counts every other hand by table lookups and asks
    the variant (through this) about those."""
    return lru_cache(maxsize=1 << 14)(game.hand_points)

