"""Tiles and sets. A tile is an immutable (low, high) pair written "low-high"."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import NamedTuple, TypeVar

from app.engine.errors import IllegalMove

T = TypeVar("T")


class Tile(NamedTuple):
    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    def other(self, number: int) -> int:
        """The number at the other half from `number` (which must be on the tile)."""
        return self.high if number == self.low else self.low


@cache
def full_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of a double-`max_pip` set in canonical order: 0-0, 0-1, ..., max-max."""
    return tuple(Tile(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1))


@cache
def _by_name(max_pip: int) -> dict[str, Tile]:
    return {str(t): t for t in full_set(max_pip)}


def not_a_tile(text: object, max_pip: int) -> IllegalMove:
    """Why `text` names no tile of a double-`max_pip` set: a tile is written "a-b" with
    a <= b, so "5-3" is refused like any other string (PROTOCOL, tiles)."""
    if isinstance(text, str):
        low, dash, high = text.partition("-")
        if dash and low.isdigit() and high.isdigit() and int(low) > int(high):
            return IllegalMove("tile_backwards", tile=repr(text), good=repr(f"{high}-{low}"))
    return IllegalMove("not_a_tile", tile=repr(text), max_pip=max_pip)


def parse_tile(text: object, max_pip: int = 6) -> Tile:
    """The tile named "a-b" (a <= b) in a double-`max_pip` set; ValueError otherwise."""
    tile = _by_name(max_pip).get(text) if isinstance(text, str) else None
    if tile is None:
        raise ValueError(str(not_a_tile(text, max_pip)))
    return tile


@cache
def value_order(max_pip: int) -> tuple[Tile, ...]:
    """Non-doubles from the highest value down: pips, ties broken by the higher half."""
    return tuple(
        sorted(
            (t for t in full_set(max_pip) if not t.is_double),
            key=lambda t: (t.pips, t.high),
            reverse=True,
        )
    )


class TileSet:
    """Lookup tables for one set, by tile id (the index in canonical order).

    The engine keeps hands as bit masks over tile ids: "does this hand hold a tile with a 4"
    is one AND with `suits[4]`, which is what makes random playouts cheap.
    """

    def __init__(self, max_pip: int) -> None:
        self.max_pip = max_pip
        self.tiles = full_set(max_pip)
        self.names = tuple(str(t) for t in self.tiles)
        self.low = tuple(t.low for t in self.tiles)
        self.high = tuple(t.high for t in self.tiles)
        self.pips = tuple(t.pips for t in self.tiles)
        self.ids: dict[object, int] = {}
        for i, t in enumerate(self.tiles):
            self.ids[t] = i
            self.ids[str(t)] = i  # only "a-b" with a <= b names a tile
        self.suits = tuple(
            sum(1 << i for i, t in enumerate(self.tiles) if n in (t.low, t.high))
            for n in range(max_pip + 1)
        )
        self.doubles = sum(1 << i for i, t in enumerate(self.tiles) if t.is_double)
        self.all = (1 << len(self.tiles)) - 1
        # A mask read a byte at a time: for byte b and its value v, the ids (and the names)
        # it holds. Hands are turned into lists for every state and every view.
        count = len(self.tiles)
        self._byte_ids = tuple(
            tuple(tuple(8 * b + i for i in range(8) if v >> i & 1 and 8 * b + i < count)
                  for v in range(256))
            for b in range((count + 7) // 8)
        )
        self._byte_names = tuple(
            tuple(tuple(self.names[i] for i in ids) for ids in by_value)
            for by_value in self._byte_ids
        )

    def id_of(self, tile: object) -> int:
        """The id of a Tile or a tile name ("a-b", a <= b); ValueError otherwise."""
        try:
            return self.ids[tile]
        except (KeyError, TypeError):
            raise ValueError(not_a_tile(tile, self.max_pip)) from None

    def mask(self, ids: Iterable[int]) -> int:
        """The bit mask of these tile ids."""
        m = 0
        for i in ids:
            m |= 1 << i
        return m

    def members(self, mask: int) -> list[int]:
        """The ids in `mask`, lowest first."""
        return _spread(mask, self._byte_ids)

    def tiles_of(self, mask: int) -> list[Tile]:
        return [self.tiles[i] for i in self.members(mask)]

    def names_of(self, mask: int) -> list[str]:
        return _spread(mask, self._byte_names)


def _spread(mask: int, by_byte: tuple[tuple[tuple[T, ...], ...], ...]) -> list[T]:
    """What `by_byte` holds for each byte of `mask`, lowest byte first."""
    out: list[T] = []
    b = 0
    while mask:
        if mask & 255:
            out += by_byte[b][mask & 255]
        mask >>= 8
        b += 1
    return out


@cache
def tile_set(max_pip: int) -> TileSet:
    return TileSet(max_pip)
