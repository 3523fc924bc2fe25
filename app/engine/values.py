"""The values a game hands out and takes: moves and placements, a round's end, the
standings, a result, a variant's description; the record format and the rule editions."""

# No `from __future__ import annotations`: the TypedDicts' optional keys must be known at
# run time (`__required_keys__`, `__optional_keys__`) to whoever reads them.
from collections.abc import Callable
from typing import Any, NamedTuple, NotRequired, TypedDict, cast

from app.engine.options import OptionValue
from app.engine.tiles import Tile

RECORD_FORMAT = "domino-record/1"
# Editions of the rule book. A game plays by the current one; a record of a game finished
# under the first (before RULES.md pinned the points its first edition left open) says
# `"rules": 1` and is replayed by the readings of then (`Game.rules`).
FIRST_RULES = 1
RULES = 2
# The server's clock as the engine may read it: epoch milliseconds. The engine never reads
# a clock of its own; a variant whose rules depend on time (General, RULES §12) is handed
# one by whoever runs it live, and a replay uses the times the record wrote instead.
Clock = Callable[[], int]
TIMEOUT_REASONS = ("timeout", "resign")


class RoundEnd(TypedDict):
    """How a round ended (PROTOCOL §3 `end`)."""

    kind: str  # "out" | "fish" | "timeout"
    by: int
    points: list[int]
    credited: list[int]


class Standings(TypedDict):
    """The standings after a round (PROTOCOL §3 per-round output fields): `scores` by
    seat always; Goat's `remembered` and `carry`; points scored during play (Fives)."""

    scores: list[int]
    remembered: NotRequired[list[int]]
    carry: NotRequired[int]
    play_points: NotRequired[list[int]]


class Result(TypedDict):
    """A finished game's result (PROTOCOL §2 `view.result`, §3 `result`)."""

    reason: str
    losers: list[int]
    winners: list[int]
    final: list[int]
    rating: list[int]


class VariantInfo(TypedDict):
    """A variant as GET /api/variants lists it (PROTOCOL §2a)."""

    name: str
    title: str
    players: list[int]  # [min, max]
    options: dict[str, dict[str, Any]]  # name -> {"default", "allowed"}
    layout: str  # "line" | "spinner" | "trains"
    wins: str  # "higher" | "lower"
    teams: bool
    # the option that makes it a game of two teams (None: always, when `teams`)
    team_option: str | None
    loser: str | None  # what the loser of a game is called ("goat"), if anything
    target: int | None  # the score every game of the variant is played to, if fixed


class Placement(NamedTuple):
    """One more tile placed in the same turn (`Move.also`)."""

    tile: Tile
    end: str


class PlacementDict(TypedDict):
    """A `Placement` as moves, events and records write it."""

    tile: str
    end: str


class MoveFlags(TypedDict, total=False):
    """The variants' extra move fields (`Game.move_fields`) as they travel in `view.legal`,
    in `play` and in records: Donkey's `closed` and `open` (RULES §8)."""

    closed: bool  # the double is laid face down
    open: str  # the end of the mover's closed double that this move opens


class MoveDict(MoveFlags):
    """A move as `view.legal` lists it and `play` sends it back (PROTOCOL §2, §2a)."""

    tile: str
    end: str | None  # None on a lead
    also: NotRequired[list[PlacementDict]]  # further tiles of the same turn (Sea Goat)


class Move(NamedTuple):
    """A move: a tile on an end (None on a lead), any further tiles the variant lets the
    same turn place (`also`), and the variant's extra fields (`flags`, e.g. ("closed", True)).
    """

    tile: Tile
    end: str | None = None
    also: tuple[Placement, ...] = ()
    flags: tuple[tuple[str, OptionValue], ...] = ()

    def __str__(self) -> str:
        text = f"{self.tile}@{self.end}" if self.end else str(self.tile)
        for p in self.also:
            text += f"+{p.tile}@{p.end}"
        return text

    def to_dict(self) -> MoveDict:
        """The move as `view.legal` lists it and `play` sends it back (PROTOCOL §2, §2a)."""
        out: MoveDict = {"tile": str(self.tile), "end": self.end}
        if self.also:
            out["also"] = [{"tile": str(p.tile), "end": p.end} for p in self.also]
        if self.flags:  # the variant's checks made them its `MoveFlags`
            out.update(cast(MoveFlags, dict(self.flags)))
        return out
