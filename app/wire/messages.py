"""Every frame the server sends to clients over the socket (PROTOCOL §2); the messages
between its processes over pub/sub are in app/wire/between.py.

They are TypedDicts: a frame is built as the dict literal it always was and serialised
by orjson, so a type costs nothing at run time (benchmarks/messages.py measures it
against pydantic models and msgspec Structs on the move path); mypy holds every builder
to its shape, and the JSON Schema made from these types (app.api.schema,
docs/protocol.schema.json) is the contract outside clients can check themselves.

The events a `table.state` carries are in app/wire/events.py beside this module.

Names and fields are PROTOCOL's, as sent: a field may be added, never renamed. Where a
part of a message is built once per version and spliced into every socket's frame as JSON
(a view, the events), its type says so: `View | Encoded` - the schema shows the view.
"""

# No `from __future__ import annotations`: the TypedDicts' optional keys must be known at
# run time (`__required_keys__`, `__optional_keys__`) to whoever reads them.
from typing import Annotated, Literal, NotRequired, TypedDict

import orjson
from pydantic import Field, InstanceOf, JsonValue
from pydantic.json_schema import SkipJsonSchema

from app.engine.options import OptionValue
from app.engine.values import PlacementDict
from app.engine.values import Result as EngineResult
from app.wire.clubs import BattleInfo
from app.wire.courtyard import CourtyardPart, CourtyardSeated, CourtyardTable
from app.wire.events import TaggedEvent
from app.wire.moderation import ModerationNotice

# The version of this protocol, sent in `welcome`: raised only by a change that breaks
# a client written for the one before (PROTOCOL: a renamed field or message).
PROTOCOL = 1

# Bytes of JSON made once and sent in many frames (orjson writes them as they are).
Encoded = SkipJsonSchema[InstanceOf[orjson.Fragment]]
# A client's `id`, echoed exactly as it was sent (any JSON value).
MessageId = JsonValue
Options = dict[str, OptionValue]
TableStatus = Literal["waiting", "playing", "finished"]

# -- PROTOCOL's `table` (§1) ---------------------------------------------------------------


class TableSeat(TypedDict):
    seat: int
    player: str | None
    bot: NotRequired[str]


class TableInfo(CourtyardTable):
    """PROTOCOL's `table`: as GET /api/tables and the lobby show it."""

    id: str
    variant: str
    options: Options
    seats: list[TableSeat]
    status: TableStatus
    turn_seconds: int
    round_pause_seconds: int
    rated: bool
    created_by: str
    game_id: str | None
    private: bool
    # PROTOCOL §2g: each player's reserve (seconds), and what a person's timeout does
    reserve_seconds: int
    on_timeout: Literal["end", "computer"]


# -- a view's result -------------------------------------------------------------------


class Result(EngineResult):
    """A view's `result`: the game's, and why a game that pays no ratings pays none."""

    unrated_reason: NotRequired[str]


# -- PROTOCOL's `view` (§2) ------------------------------------------------------------------


class ViewSeat(TypedDict):
    seat: int
    player: str | None
    connected: bool
    tiles: int
    account: int
    opened: bool
    remembered: int
    team: NotRequired[int]
    bot: NotRequired[str]
    marker: NotRequired[bool]
    # a seat a computer player holds for this person since he timed out (PROTOCOL §2g),
    # and whether he has asked for it back (he takes it at his next turn)
    stand_in_for: NotRequired[str]
    reclaiming: NotRequired[bool]


class HistoryEntry(TypedDict):
    round: int
    end: Literal["out", "fish", "timeout"]
    by: int
    points: list[int]
    credited: list[int]


class RematchOffer(TypedDict):
    offers: list[int]
    new_table_id: str | None


class Move(TypedDict):
    """An entry of `view.legal`, sent back in `play` as it is (with a variant's extra
    fields, PROTOCOL §2a)."""

    tile: str
    end: str | None
    also: NotRequired[list[PlacementDict]]
    closed: NotRequired[bool]
    open: NotRequired[str]


class ViewClock(TypedDict):
    """`view.clock` (PROTOCOL §2g): what is left of each seat's reserve (ms) as of the
    current turn's start; the player on turn's `deadline` already counts his."""

    reserve_ms: list[int]


class PublicView(CourtyardPart):
    """What every seat's view and a spectator's share (built once per version); a
    variant adds fields of its own (`target`, `count`, `engine`, `closed`, ...)."""

    table_id: str
    game_id: str | None
    variant: str
    options: Options
    status: TableStatus
    turn: int | None
    deadline: int | None
    next_round_at: int | None
    round: int
    layout: str
    ends: dict[str, int]
    # the layout as the variant draws it (PROTOCOL: "your representation")
    chain: list[JsonValue]
    bazaar: int
    seats: list[ViewSeat]
    carry: int
    history: list[HistoryEntry]
    commitment: str | None
    seed: str | None
    result: Result | None
    rematch: RematchOffer | None
    spectators: int
    clock: ViewClock
    rules: NotRequired[int]


class OwnView(TypedDict):
    """The part of a view that is one seat's alone."""

    you: int | None
    hand: list[str]
    legal: list[Move]


class View(PublicView, OwnView):
    """PROTOCOL's `view`: what one seat (or a spectator) may know, never more."""


# -- server -> client frames (PROTOCOL §2) -------------------------------------------------


class _Frame(TypedDict):
    """A frame to a client: a reply carries the `id` of the message it answers."""

    id: NotRequired[MessageId]


class PlayerInfo(TypedDict):
    id: int
    name: str


class Welcome(_Frame):
    type: Literal["welcome"]
    player: PlayerInfo
    protocol: int


class Error(_Frame):
    type: Literal["error"]
    code: str
    message: str
    retry_ms: NotRequired[int]


class Pong(_Frame):
    type: Literal["pong"]


class TableState(_Frame):
    type: Literal["table.state"]
    table_id: str
    seq: int
    view: View | Encoded
    events: list[TaggedEvent] | Encoded
    # the server's clock, so a client whose own clock is off counts down correctly
    server_time: int


class PresenceSeat(TypedDict):
    seat: int
    player: str | None
    connected: bool


class TablePresence(_Frame):
    type: Literal["table.presence"]
    table_id: str
    seq: int
    seats: list[PresenceSeat]
    spectators: int


class TableHeartbeat(_Frame):
    type: Literal["table.heartbeat"]
    tables: dict[str, int]


class TableRemoved(_Frame):
    type: Literal["table.removed"]
    table_id: str


class TableRematch(_Frame):
    type: Literal["table.rematch"]
    table_id: str
    new_table_id: str | None
    offers: list[int]


class RematchReply(_Frame):
    type: Literal["rematch"]
    table_id: str
    offers: list[int]
    new_table_id: str | None


class Lobby(_Frame):
    type: Literal["lobby"]
    tables: list[TableInfo]


class LobbyUpdate(_Frame):
    type: Literal["lobby.update"]
    table: TableInfo


class LobbyRemove(_Frame):
    type: Literal["lobby.remove"]
    table_id: str


# (`from` is a keyword: the class syntax cannot name it)
ChatLine = TypedDict("ChatLine", {
    "type": Literal["chat"], "table_id": str, "from": str, "text": str, "at": int,
    "id": NotRequired[MessageId],
})


class SeekMatched(_Frame):
    type: Literal["seek.matched"]
    seek_id: str
    table_id: str


# Why a seek ended without a table: time up, no socket of its owner, or he sat down elsewhere.
SeekEndReason = Literal["expired", "no_socket", "rated_game"]


class SeekEnded(_Frame):
    """A seek of yours ended without a table (not by your cancel)."""

    type: Literal["seek.ended"]
    seek_id: str
    reason: SeekEndReason


class TournamentStanding(TypedDict):
    id: int
    name: str
    points: float
    games: int
    byes: int
    place: int | None
    withdrawn: bool
    # The tie-breaks after points (PROTOCOL §2b): the sum of the opponents' points, once
    # per game against each, and the games won outright.
    opponents_points: float
    wins: int
    club: int | None  # the club he plays for in a team battle (PROTOCOL §2e)


class TournamentTableInfo(TypedDict):
    table_id: str
    round: int | None
    seats: list[int]
    status: str
    points: list[float] | None
    created_at: int | None
    finished_at: int | None
    game_id: str | None  # the written game (GET /api/games/{id}); None until it is written


class TournamentInfo(TypedDict):
    """A tournament as PROTOCOL §2b shows it."""

    id: str
    name: str
    variant: str
    options: Options
    seats: int
    format: str  # "arena" | "swiss"
    status: str  # "waiting" | "running" | "finished" | "cancelled"
    cancel_reason: str | None  # "creator" | "operator" | "too_few" when cancelled
    creator: str | None
    starts_at: int | None
    started_at: int | None
    ends_at: int | None
    finished_at: int | None
    round: int | None
    rounds: int | None
    minutes: int | None
    turn_seconds: int
    round_pause_seconds: int
    reserve_seconds: int
    rated: bool
    private: bool
    max_players: int | None
    winner: str | None
    players: list[TournamentStanding]
    tables: list[TournamentTableInfo]
    # PROTOCOL §2e: the club whose members alone may join, and a team battle's clubs
    club: int | None
    battle: BattleInfo | None


class TournamentUpdate(_Frame):
    """A followed tournament: whole in the subscribe answer; then at each change every
    field, but `players` and `tables` only the entries new or changed since the previous
    update on this socket (`changes_only`), and `players_gone` the ids no longer in it."""

    type: Literal["tournament.update"]
    tournament: TournamentInfo
    changes_only: bool  # False in the subscribe answer: the whole tournament
    players_gone: list[int]


class TournamentPairing(_Frame):
    type: Literal["tournament.pairing"]
    tournament_id: str
    table_id: str


class FriendInfo(TypedDict):
    """A friend (or a request) as PROTOCOL §2c shows it."""

    name: str
    status: Literal["requested", "friends", "none"]
    online: bool
    table_id: str | None


class FriendUpdate(_Frame):
    type: Literal["friend.update"]
    friend: FriendInfo


ChallengeStatus = Literal["open", "accepted", "declined", "withdrawn", "expired"]

ChallengeInfo = TypedDict("ChallengeInfo", {
    "id": str, "from": str, "to": str, "variant": str, "seats": int, "options": Options,
    "turn_seconds": int, "rated": bool, "status": ChallengeStatus, "table_id": str | None,
    "expires_at": int, "created_at": int,
})


class ChallengeNew(_Frame):
    type: Literal["challenge.new"]
    challenge: ChallengeInfo


class ChallengeUpdate(_Frame):
    type: Literal["challenge.update"]
    challenge: ChallengeInfo


class BlockUpdate(_Frame):
    """To the blocker's own sockets: whom he blocks now (his sockets drop their chat)."""

    type: Literal["block.update"]
    blocked: list[str]


# Those a player must be told, kept until he has acted on them (app.services.fanout.notices).
KeptNotice = SeekMatched | SeekEnded | TournamentPairing | CourtyardSeated
# Every message for a player, whichever tables he watches.
Notice = KeptNotice | FriendUpdate | ChallengeNew | ChallengeUpdate | BlockUpdate \
    | ModerationNotice

ServerMessage = Annotated[
    Welcome | Error | Pong | TableState | TablePresence | TableHeartbeat | TableRemoved
    | TableRematch | RematchReply | Lobby | LobbyUpdate | LobbyRemove | ChatLine
    | SeekMatched | SeekEnded | TournamentUpdate | TournamentPairing | FriendUpdate
    | ChallengeNew | ChallengeUpdate | BlockUpdate | ModerationNotice | CourtyardSeated,
    Field(discriminator="type"),
]
