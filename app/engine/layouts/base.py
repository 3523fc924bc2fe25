"""What every layout is: the open ends, fitting and placing, the count, views and
serialisation (the kinds: app/engine/layouts/)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Self

from app.engine.tiles import TileSet

LEFT, RIGHT, UP, DOWN = "left", "right", "up", "down"
Placed = tuple[int, int, int]  # (tile id, inner number, outer number)
ViewEntry = dict[str, Any]


class Layout(ABC):
    """The tiles on the table and the ends open for the next one.

    `open` maps each end a tile may be played on now to the number it shows, in a fixed
    order; it is kept up to date by `place`, because move generation reads it on every turn.
    `on_table[n]` counts the non-doubles showing n that are down (Goat's fish test, §1.4).
    """

    kind: ClassVar[str]
    # Every end name this layout can ever open (for a readable error on a misspelt end).
    end_names: ClassVar[tuple[str, ...]]

    def __init__(self, ts: TileSet) -> None:
        self.ts = ts
        self.open: dict[str, int] = {}
        self.on_table = [0] * (ts.max_pip + 1)
        self.size = 0  # tiles on the table
        self.fits_all = 0  # bit mask of every tile that fits an open end (kept by place)

    @property
    def empty(self) -> bool:
        return self.size == 0

    def knows(self, end: str) -> bool:
        """Whether `end` names an end of this kind of layout (open now or not)."""
        return end in self.end_names

    def fits(self, tid: int, ends: dict[str, int] | None = None) -> list[str]:
        """The ends (of `ends`, default all open ones) that tile `tid` can be played on."""
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        return [e for e, n in (self.open if ends is None else ends).items() if n in (lo, hi)]

    def fits_mask(self, ends: dict[str, int] | None = None) -> int:
        """The bit mask of every tile that fits one of `ends` (default: all open ends)."""
        if ends is None or ends is self.open:
            return self.fits_all
        return self._mask_of(ends)

    def _mask_of(self, ends: dict[str, int]) -> int:
        suits, mask = self.ts.suits, 0
        for n in ends.values():
            mask |= suits[n]
        return mask

    def _opened(self) -> None:
        """The open ends changed other than by a line's two ends: recompute `fits_all`."""
        self.fits_all = self._mask_of(self.open)

    def _count_tile(self, tid: int) -> None:
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        self.size += 1
        if lo != hi:
            self.on_table[lo] += 1
            self.on_table[hi] += 1

    def _oriented(self, tid: int, number: int) -> Placed:
        """Tile `tid` played onto an end showing `number`: (tid, number, the other half)."""
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        return tid, number, hi if lo == number else lo

    def _end_value(self, entry: Placed) -> int:
        """What an end counts: its number, both halves for a double placed crosswise."""
        tid, _, outer = entry
        return 2 * outer if self.ts.low[tid] == self.ts.high[tid] else outer

    @abstractmethod
    def place(self, tid: int, end: str | None) -> None:
        """Put tile `tid` on `end` (None: the first tile of the round); the caller has
        checked that it fits."""

    def count(self) -> int:
        """The sum of the open ends by RULES §4 (0 for a layout that is never counted)."""
        return 0

    @abstractmethod
    def view(self) -> list[ViewEntry]:
        """The tiles on the table for PROTOCOL's `view.chain` (JSON-safe)."""

    @abstractmethod
    def tiles(self) -> list[int]:
        """Every tile id on the table."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        ...

    @abstractmethod
    def load(self, data: dict[str, Any]) -> None:
        """Restore `to_dict()`'s output into this fresh layout."""

    def load_view(self, chain: list[ViewEntry]) -> None:
        """Restore this fresh layout from its `view()` (a seat's `view.chain`): what a search
        rebuilds a position from. Anything the view keeps from the layout (which tile was
        the lead, the trains' markers) is not needed to play on."""
        self.load(self.data_of_view(chain))

    @abstractmethod
    def data_of_view(self, chain: list[ViewEntry]) -> dict[str, Any]:
        """`view()`'s entries in the shape of `to_dict()`."""

    def copy(self) -> Self:
        """An independent copy (placing on it leaves this one alone)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.open = dict(self.open)
        clone.on_table = list(self.on_table)
        clone._copy_arms(self)
        return clone

    @abstractmethod
    def _copy_arms(self, source: Self) -> None:
        """Give this copy its own lists of placed tiles."""

    def _names(self, arm: list[Placed]) -> list[list[Any]]:
        names = self.ts.names
        return [[names[t], a, b] for t, a, b in arm]

    def _ids(self, arm: list[list[Any]]) -> list[Placed]:
        ids = self.ts.ids
        placed = [(ids[name], a, b) for name, a, b in arm]
        for tid, _, _ in placed:
            self._count_tile(tid)
        return placed

