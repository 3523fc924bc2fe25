"""Tiles and sets. A tile is an immutable (low, high) pair written "low-high"."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple


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
    names: dict[str, Tile] = {}
    for t in full_set(max_pip):
        names[str(t)] = t
        names[f"{t.high}-{t.low}"] = t
    return names


def parse_tile(text: object, max_pip: int = 6) -> Tile:
    """The tile named "a-b" (either order) in a double-`max_pip` set; ValueError otherwise."""
    tile = _by_name(max_pip).get(text) if isinstance(text, str) else None
    if tile is None:
        raise ValueError(f"{text!r} is not a tile of the double-{max_pip} set")
    return tile


def value_order(max_pip: int) -> tuple[Tile, ...]:
    """Non-doubles from the highest value down: pips, ties broken by the higher half."""
    return tuple(
        sorted(
            (t for t in full_set(max_pip) if not t.is_double),
            key=lambda t: (t.pips, t.high),
            reverse=True,
        )
    )
