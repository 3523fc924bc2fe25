"""Donkey's cross: a spinner open on all four sides at once, with face-down doubles
(RULES §8)."""

from __future__ import annotations

from typing import Any, NamedTuple, Self

from app.engine.layouts.base import DOWN, LEFT, RIGHT, UP, ViewEntry
from app.engine.layouts.spinner import Spinner
from app.engine.tiles import TileSet


class ClosedDouble(NamedTuple):
    """A double laid face down (Donkey, RULES §8): its tile, the seat that laid it, the end
    it was laid on (the name its owner opens it by) and every end it blocks."""

    tid: int
    owner: int
    end: str
    blocks: tuple[str, ...]


class Cross(Spinner):
    """Donkey's table (RULES §8): a line whose first double is a cross, open on all four
    sides at once (no waiting for its long sides, unlike the Fives spinner), and doubles
    that may lie face down ("closed").

    A closed double is an ordinary placed tile for the line's geometry: the ends beyond it
    stay in `open` with the number they will show, and `blocked` says whose they are. Only
    the game decides who may use which end (`ends_for`): nobody plays past a closed double
    but its owner, and he only by opening it. The first double is the cross whether it lies
    closed or not; laid closed it blocks its outer long side and both short sides.
    """

    def __init__(self, ts: TileSet) -> None:
        super().__init__(ts)
        self.closed: dict[str, ClosedDouble] = {}  # by the end each was laid on
        self.blocked: dict[str, int] = {}  # every blocked end -> the seat that may open it

    @property
    def spinning(self) -> bool:
        return self.spinner is not None

    def close(self, tid: int, end: str, owner: int) -> ClosedDouble:
        """Turn the double `tid`, just placed on `end`, face down."""
        blocks = (end, UP, DOWN) if tid == self.spinner and end in (LEFT, RIGHT) else (end,)
        closed = self.closed[end] = ClosedDouble(tid, owner, end, blocks)
        self._reblock()
        return closed

    def reopen(self, end: str) -> ClosedDouble:
        """Turn the closed double laid on `end` face up; its ends open for everyone."""
        closed = self.closed.pop(end)
        self._reblock()
        return closed

    def _reblock(self) -> None:
        self.blocked = {e: c.owner for c in self.closed.values() for e in c.blocks}

    def free_ends(self, seat: int | None) -> dict[str, int]:
        """The ends `seat` may play on: every open end but those behind another seat's
        closed double (its own stay listed: it may open them). None: nobody's own."""
        blocked = self.blocked
        if not blocked:
            return self.open
        return {e: n for e, n in self.open.items() if blocked.get(e, seat) == seat}

    def view(self) -> list[ViewEntry]:
        entries = super().view()
        if not self.closed:
            return entries
        # A closed double is hidden information (RULES §8): face, numbers and all.
        hidden = {self.ts.names[c.tid]: c for c in self.closed.values()}
        for entry in entries:
            closed = hidden.get(entry["tile"])
            if closed is not None:
                for key in (LEFT, RIGHT, "inner", "outer"):
                    if key in entry:
                        entry[key] = None
                entry.update(tile=None, closed=True, owner=closed.owner, end=closed.end)
        return entries

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "closed": [[self.ts.names[c.tid], c.owner, c.end] for c in self.closed.values()],
        }

    def data_of_view(self, chain: list[ViewEntry]) -> dict[str, Any]:
        """A face-down double shows no face, but it is no secret to anyone who watched it
        laid: it is the double of the number its neighbour shows it (an end is matched)."""
        chain = [dict(e) for e in chain]
        line = [e for e in chain if e.get("arm") is None]
        closed: list[list[Any]] = []
        for i, e in enumerate(line):
            if e.get("closed"):
                before = line[i - 1][RIGHT] if i else None
                n = before if before is not None else line[i + 1][LEFT]
                e.update(tile=f"{n}-{n}", left=n, right=n)
                closed.append([e["tile"], e["owner"], e["end"]])
        centre = next((e[LEFT] for e in line if e.get("spinner")), None)
        for end in (UP, DOWN):
            shown = centre
            for e in (e for e in chain if e.get("arm") == end):
                if e.get("closed"):
                    e.update(tile=f"{shown}-{shown}", inner=shown, outer=shown)
                    closed.append([e["tile"], e["owner"], e["end"]])
                shown = e["outer"]
        return {**super().data_of_view(chain), "closed": closed}

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        for name, owner, end in data.get("closed", []):
            self.close(self.ts.ids[name], end, owner)

    def _copy_arms(self, source: Self) -> None:
        super()._copy_arms(source)
        self.closed = dict(source.closed)
        self.blocked = dict(source.blocked)

