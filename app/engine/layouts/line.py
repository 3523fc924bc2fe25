"""The line of play with two ends (RULES §1-§3, §7, §12)."""

from __future__ import annotations

from typing import Any, ClassVar, Self

from app.engine.layouts.base import LEFT, RIGHT, Layout, Placed, ViewEntry
from app.engine.tiles import TileSet


class Line(Layout):
    """One line of play with two ends (Goat, Classic, Sea Goat, Sport Goat, General).

    The lead `a-b` shows a on the left and b on the right (PROTOCOL §3). Kept as two arms
    from the lead: the right arm starts with the lead, the left arm grows leftward; each
    entry is (tile id, number on its left, number on its right) in the line's own reading.
    """

    kind: ClassVar[str] = "line"
    end_names: ClassVar[tuple[str, ...]] = (LEFT, RIGHT)

    def __init__(self, ts: TileSet) -> None:
        super().__init__(ts)
        self.left_arm: list[Placed] = []
        self.right_arm: list[Placed] = []

    def place(self, tid: int, end: str | None) -> None:
        lo, hi = self.ts.low[tid], self.ts.high[tid]
        self.size += 1  # _count_tile, inlined: this is the hot path of every game
        if lo != hi:
            self.on_table[lo] += 1
            self.on_table[hi] += 1
        if end is None:
            self.right_arm.append((tid, lo, hi))
            self.open = {LEFT: lo, RIGHT: hi}
        elif end == LEFT:
            shown = self.open[LEFT]
            outer = hi if lo == shown else lo
            self.left_arm.append((tid, outer, shown))
            self.open[LEFT] = outer
        else:
            shown = self.open[RIGHT]
            outer = hi if lo == shown else lo
            self.right_arm.append((tid, shown, outer))
            self.open[RIGHT] = outer
        suits = self.ts.suits
        self.fits_all = suits[self.open[LEFT]] | suits[self.open[RIGHT]]

    @property
    def line(self) -> list[Placed]:
        """The line left to right: (tile id, number on its left, number on its right)."""
        return self.left_arm[::-1] + self.right_arm

    def _leftmost(self) -> int:
        return self.left_arm[-1][0] if self.left_arm else self.right_arm[0][0]

    def count(self) -> int:
        if self.size == 0:
            return 0
        if not self.left_arm and len(self.right_arm) == 1:
            return self.ts.pips[self.right_arm[0][0]]  # a lone lead counts once, both halves
        left = self.left_arm[-1] if self.left_arm else self.right_arm[0]
        # The left end entry reads (tid, outer, inner); turn it to (tid, inner, outer).
        return self._end_value((left[0], left[2], left[1])) + self._end_value(self.right_arm[-1])

    def view(self) -> list[ViewEntry]:
        names = self.ts.names
        return [{"tile": names[t], LEFT: a, RIGHT: b} for t, a, b in self.line]

    def tiles(self) -> list[int]:
        return [t for t, _, _ in self.line]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self._names(self.line)}

    def data_of_view(self, chain: list[ViewEntry]) -> dict[str, Any]:
        return {"kind": self.kind, "line": [[e["tile"], e[LEFT], e[RIGHT]] for e in chain]}

    def load(self, data: dict[str, Any]) -> None:
        # The arms need not be split where the lead was: the right arm may hold it all.
        self.left_arm = []
        self.right_arm = self._ids(data["line"])
        if self.right_arm:
            self.open = {LEFT: self.right_arm[0][1], RIGHT: self.right_arm[-1][2]}
        self._opened()

    def _copy_arms(self, source: Self) -> None:
        self.left_arm = list(source.left_arm)
        self.right_arm = list(source.right_arm)

