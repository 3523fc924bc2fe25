"""A line with a spinner: the first double opens its short sides too (RULES §4)."""

from __future__ import annotations

from typing import Any, ClassVar, Self

from app.engine.layouts.base import DOWN, LEFT, RIGHT, UP, Placed, ViewEntry
from app.engine.layouts.line import Line
from app.engine.tiles import TileSet


class Spinner(Line):
    """A line whose first double is a spinner (Fives, Telephone's house, Donkey's cross).

    Once both long sides of the spinner are covered, its short sides `up` and `down` open
    too (RULES §4). `count_rule` is how the spinner counts once both long sides are
    covered: "gambler" (it no longer counts; only tiles played on it do) or "full" (each
    uncovered short side counts its number).
    """

    kind: ClassVar[str] = "spinner"
    end_names: ClassVar[tuple[str, ...]] = (LEFT, RIGHT, UP, DOWN)

    def __init__(self, ts: TileSet, count_rule: str = "gambler") -> None:
        super().__init__(ts)
        self.count_rule = count_rule
        self.spinner: int | None = None  # tile id of the spinner once a double is down
        self.up_arm: list[Placed] = []  # outward from the spinner: (tid, inner, outer)
        self.down_arm: list[Placed] = []

    @property
    def spinning(self) -> bool:
        """Whether both long sides of the spinner are covered (its short sides are open)."""
        s = self.spinner
        return s is not None and s != self._leftmost() and s != self.right_arm[-1][0]

    def place(self, tid: int, end: str | None) -> None:
        if end in (UP, DOWN):
            self._count_tile(tid)
            arm = self.up_arm if end == UP else self.down_arm
            placed = self._oriented(tid, self.open[end])
            arm.append(placed)
            self.open[end] = placed[2]
            self._opened()
            return
        super().place(tid, end)
        if self.spinner is None and self.ts.low[tid] == self.ts.high[tid]:
            self.spinner = tid
        if UP not in self.open and self.spinning:
            n = self.ts.low[self.spinner]  # type: ignore[index]
            self.open[UP] = n
            self.open[DOWN] = n
        if UP in self.open:
            self._opened()

    def count(self) -> int:
        total = super().count()
        if UP in self.open:
            n = self.ts.low[self.spinner]  # type: ignore[index]
            for arm in (self.up_arm, self.down_arm):
                if arm:
                    total += self._end_value(arm[-1])
                elif self.count_rule == "full":
                    total += n
        return total

    def view(self) -> list[ViewEntry]:
        entries = super().view()
        if self.spinner is not None:
            spinner = self.ts.names[self.spinner]
            for entry in entries:
                if entry["tile"] == spinner:
                    entry["spinner"] = True
        names = self.ts.names
        for end, arm in ((UP, self.up_arm), (DOWN, self.down_arm)):
            entries += [{"tile": names[t], "arm": end, "inner": a, "outer": b} for t, a, b in arm]
        return entries

    def tiles(self) -> list[int]:
        return super().tiles() + [t for t, _, _ in self.up_arm + self.down_arm]

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "spinner": None if self.spinner is None else self.ts.names[self.spinner],
            UP: self._names(self.up_arm),
            DOWN: self._names(self.down_arm),
        }

    def data_of_view(self, chain: list[ViewEntry]) -> dict[str, Any]:
        line = [e for e in chain if e.get("arm") is None]
        spinner = next((e["tile"] for e in line if e.get("spinner")), None)
        arms = {
            end: [[e["tile"], e["inner"], e["outer"]] for e in chain if e.get("arm") == end]
            for end in (UP, DOWN)
        }
        return {**super().data_of_view(line), "spinner": spinner, **arms}

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        self.spinner = None if data["spinner"] is None else self.ts.ids[data["spinner"]]
        self.up_arm = self._ids(data[UP])
        self.down_arm = self._ids(data[DOWN])
        if self.spinning:
            n = self.ts.low[self.spinner]  # type: ignore[index]
            self.open[UP] = self.up_arm[-1][2] if self.up_arm else n
            self.open[DOWN] = self.down_arm[-1][2] if self.down_arm else n
        self._opened()

    def _copy_arms(self, source: Self) -> None:
        super()._copy_arms(source)
        self.up_arm = list(source.up_arm)
        self.down_arm = list(source.down_arm)

