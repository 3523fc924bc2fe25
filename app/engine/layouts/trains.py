"""Mexican Train's table: the engine double and the trains (RULES §5)."""

from __future__ import annotations

from typing import Any, ClassVar, Self

from app.engine.layouts.base import LEFT, RIGHT, Layout, Placed, ViewEntry
from app.engine.tiles import TileSet

MEXICAN = "mexican"


def train_end(seat: int) -> str:
    """The end name of `seat`'s personal train (PROTOCOL §3)."""
    return f"train:{seat}"



class Trains(Layout):
    """Mexican Train's table (RULES §5): the engine double in the centre, one personal train
    per seat (`train:<seat>`), the shared `mexican` train, and markers on trains.

    Every train starts at the engine's number. Which trains a seat may play on (its own,
    the Mexican, any with a marker; an open double first) is the variant's turn policy,
    not the layout's: `open` lists every train's end.
    """

    kind: ClassVar[str] = "trains"
    end_names: ClassVar[tuple[str, ...]] = (MEXICAN,)  # plus train:<seat> for each seat

    def __init__(self, ts: TileSet, players: int) -> None:
        super().__init__(ts)
        self.players = players
        self.engine: int | None = None  # tile id of the centre double
        self.trains: dict[str, list[Placed]] = {
            **{train_end(s): [] for s in range(players)},
            MEXICAN: [],
        }
        self.markers: set[int] = set()  # seats whose train carries a marker

    def knows(self, end: str) -> bool:
        return end in self.trains

    def place(self, tid: int, end: str | None) -> None:
        self._count_tile(tid)
        if end is None:
            self.engine = tid
            self.open = {e: self.ts.low[tid] for e in self.trains}
        else:
            placed = self._oriented(tid, self.open[end])
            self.trains[end].append(placed)
            self.open[end] = placed[2]
        self._opened()

    def view(self) -> list[ViewEntry]:
        if self.engine is None:
            return []
        names = self.ts.names
        n = self.ts.low[self.engine]
        entries: list[ViewEntry] = [{"tile": names[self.engine], "arm": None, LEFT: n, RIGHT: n}]
        for end, arm in self.trains.items():
            entries += [{"tile": names[t], "arm": end, "inner": a, "outer": b} for t, a, b in arm]
        return entries

    def tiles(self) -> list[int]:
        engine = [] if self.engine is None else [self.engine]
        return engine + [t for arm in self.trains.values() for t, _, _ in arm]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "engine": None if self.engine is None else self.ts.names[self.engine],
            "trains": {end: self._names(arm) for end, arm in self.trains.items()},
            "markers": sorted(self.markers),
        }

    def data_of_view(self, chain: list[ViewEntry]) -> dict[str, Any]:
        trains: dict[str, list[list[Any]]] = {}
        for e in chain[1:]:  # the engine double first
            trains.setdefault(e["arm"], []).append([e["tile"], e["inner"], e["outer"]])
        engine = chain[0]["tile"] if chain else None
        return {"kind": self.kind, "engine": engine, "trains": trains, "markers": []}

    def load(self, data: dict[str, Any]) -> None:
        if data["engine"] is not None:
            self.place(self.ts.ids[data["engine"]], None)
        for end, arm in data["trains"].items():
            self.trains[end] = self._ids(arm)
            if arm:
                self.open[end] = self.trains[end][-1][2]
        self.markers = set(data["markers"])
        self._opened()

    def _copy_arms(self, source: Self) -> None:
        self.trains = {end: list(arm) for end, arm in source.trains.items()}
        self.markers = set(source.markers)

