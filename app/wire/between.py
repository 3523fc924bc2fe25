"""The messages between the server's processes over pub/sub: a change's announcement
header, the lobby's and a table's notes, relayed moves and their replies, players' and
tournaments' notices, revoked sessions. app/wire/notes.py reads each channel's as one of
these; the frames to clients are in app/wire/messages.py.
"""

# No `from __future__ import annotations`: the TypedDicts' optional keys must be known at
# run time (`__required_keys__`, `__optional_keys__`) to whoever reads them.
from typing import Annotated, Literal, NotRequired, TypedDict

from pydantic import Field, JsonValue

from app.wire.messages import ChatLine, Notice, TableInfo, TableRematch, TournamentInfo


class _Views(TypedDict):
    """The views' parts an announcement carries when its writer made them for every
    process (app.services.fanout.snapshot): the seats' people, the counts the views were
    made for, and the sizes of the parts after the state."""

    players: NotRequired[list[int | None]]
    connected: NotRequired[list[int]]
    spectators: NotRequired[int]
    sizes: NotRequired[list[int]]


class ChangeFields(_Views):
    """What a writer adds to its change's header; `log`: the sizes of the state's log
    entries (None: the writer did not keep them as JSON)."""

    log: list[int] | None


class ChangeHeader(_Views):
    """The JSON line that opens a change's announcement on its table's channel (written by
    the store's scripts with the writer's `ChangeFields`); `writer`: the write's id (its
    process's writer prefix first) or "restore"; `state`: the length of the state's JSON,
    which follows the line; `answers`: the relayed move it carries out."""

    kind: Literal["change"]
    table_id: str
    v: int
    writer: str
    state: int
    log: NotRequired[list[int] | None]
    answers: NotRequired[str]


class PresenceNote(TypedDict):
    kind: Literal["presence"]
    table_id: str
    seats: list[int]


class SpectatorsNote(TypedDict):
    kind: Literal["spectators"]
    table_id: str
    count: int


class TableNotice(TypedDict):
    """A message for every watcher of a table that is not a change of it."""

    kind: Literal["notice"]
    message: TableRematch


class ChatNote(TypedDict):
    kind: Literal["chat"]
    message: ChatLine
    # the socket that said it (it has its reply already)
    origin: str


class RemovedNote(TypedDict):
    kind: Literal["removed"]
    table_id: str
    v: NotRequired[int]  # the version that removed it (not sent by an older process)


class LobbyChange(TypedDict):
    kind: Literal["update"]
    table_id: str
    v: int
    table: TableInfo


class LobbyGone(TypedDict):
    kind: Literal["remove"]
    table_id: str
    v: NotRequired[int]


class Resubscribed(TypedDict):
    """Told to every handler of a channel after a gap: read again what you serve."""

    kind: Literal["resubscribed"]


TableNote = PresenceNote | SpectatorsNote | TableNotice | ChatNote | RemovedNote | Resubscribed
LobbyNote = LobbyChange | LobbyGone | Resubscribed


class RelayedPlay(TypedDict):
    """A move sent to the process that holds its table (app.services.play.relay)."""

    kind: Literal["play"]
    rid: str
    reply_to: str
    player: int
    table_id: str
    tile: str
    end: str | None
    seq: int
    fields: dict[str, JsonValue]
    # the rate limits of the mover's message: the buckets' keys and their arguments
    charge: list[list[JsonValue]] | None


class ServiceFault(TypedDict):
    code: str
    message: str  # English
    status: int
    # its words, said in each reader's language (missing from an older process)
    key: NotRequired[str | None]
    params: NotRequired[dict[str, str | int]]


class PlayedReply(TypedDict):
    """A relayed move's answer when its change was not announced: the version written,
    the wait its rate limits ask (`refused`), or the error it was refused with."""

    kind: Literal["played"]
    rid: str
    version: NotRequired[int]
    refused: NotRequired[int]
    error: NotRequired[ServiceFault]


class PlayerNotice(TypedDict):
    players: list[int]
    message: Notice


class TournamentNote(TypedDict):
    """A tournament changed: each process that has followers of it reads it again (the
    note carries no tournament, so its size does not grow with the tournament).
    `tournament`: sent by older processes, ignored."""

    tournament_id: str
    tournament: NotRequired[TournamentInfo]


class Revoked(TypedDict):
    kind: Literal["revoked"]
    sessions: list[str]


InterProcess = Annotated[
    ChangeHeader | PresenceNote | SpectatorsNote | TableNotice | ChatNote | RemovedNote
    | LobbyChange | LobbyGone | Resubscribed | RelayedPlay | PlayedReply | Revoked,
    Field(discriminator="kind"),
]
