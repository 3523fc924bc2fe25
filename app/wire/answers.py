"""The HTTP answers of PROTOCOL §1 and §2b that are not a socket message's part: a
table's log, a seat taken or left, a seek, a tournament as listed. With the parts they
share with the socket's messages (`TableInfo`, `TournamentInfo`, `RematchOffer`, in
app.wire.messages), they are every answer the HTTP routes send, as TypedDicts: built as
the dict literals they always were, held to their shapes by mypy, free at run time.

A finished game's record (domino-record/1, PROTOCOL §3) and its replay positions are the
engine's format (app.engine.records), not defined here.
"""

# No `from __future__ import annotations`: optional keys are read at run time.
from typing import Literal, NotRequired, TypedDict

from pydantic import JsonValue

from app.engine.events import Event
from app.wire.messages import Options, RematchOffer, TableInfo, TournamentInfo


class TableLog(TypedDict):
    """GET /api/tables/{id}/log: the current game's events from its start, up to the
    table's `version` (`game_id` None before the game has one)."""

    table_id: str
    version: int
    game_id: str | None
    events: list[Event]


class Seated(TypedDict):
    seat: int


class SeatedBot(TypedDict):
    seat: int
    table: TableInfo


class Left(TypedDict):
    left: bool
    table: TableInfo | None  # None: the table was emptied and removed


class RematchAnswer(RematchOffer):
    """A rematch offer's answer; `started`: this offer was the last, and the new table
    started (the caller announces it once)."""

    started: bool


class SeekInfo(TypedDict):
    """A seek as GET /api/seeks lists it."""

    id: str
    player: str
    variant: str
    seats: int
    options: Options
    turn_seconds: int
    reserve_seconds: int
    on_timeout: Literal["end", "computer"]
    rated: bool
    rating: int
    rating_range: list[float] | None
    created_at: int
    expires_at: int


class SeekOpened(SeekInfo):
    """POST /api/seeks: the seek, and the table it completed, if it did."""

    table_id: NotRequired[str]


class ReplayPositions(TypedDict):
    """GET /api/games/{id}/positions: every position of a finished game as the engine
    replays it (app.engine.records), and each seat's bot strength (None: a person)."""

    game_id: str
    positions: list[dict[str, JsonValue]]
    bots: list[str | None]


class TournamentListed(TournamentInfo):
    """GET /api/tournaments: a tournament without its tables, and how many play."""

    player_count: int
