"""Client -> server websocket messages of PROTOCOL §2, validated by pydantic.

Anything that does not validate (a missing or mistyped field, an unknown `type`) is a
`bad_request` and changes nothing. Extra fields are ignored; `id` is echoed by the
gateway exactly as sent, so it is read from the raw JSON, not from these models.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

TableId = Annotated[StrictStr, Field(min_length=1, max_length=64)]


class _Message(BaseModel):
    # strict: "4" is not 4, true is not 1
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: StrictStr | None = None  # None: a hello that only sets the language
    lang: Annotated[StrictStr, Field(max_length=16)] | None = None


class Rematch(_Message):
    type: Literal["rematch"]
    table_id: TableId


class Ping(_Message):
    type: Literal["ping"]


class LobbySubscribe(_Message):
    type: Literal["lobby.subscribe"]


class LobbyUnsubscribe(_Message):
    type: Literal["lobby.unsubscribe"]


class TableSubscribe(_Message):
    type: Literal["table.subscribe"]
    table_id: TableId


class TableUnsubscribe(_Message):
    type: Literal["table.unsubscribe"]
    table_id: TableId


class Play(_Message):
    # A variant's extra move fields (PROTOCOL §2a: Sea Goat's "also") travel as they were
    # sent; the play service keeps only those the table's variant names.
    model_config = ConfigDict(extra="allow", frozen=True)

    type: Literal["play"]
    table_id: TableId
    tile: Annotated[StrictStr, Field(max_length=16)]
    end: Annotated[StrictStr, Field(max_length=32)] | None = None
    seq: StrictInt

    @property
    def fields(self) -> dict[str, Any]:
        """The fields beyond PROTOCOL §2's (`id` is the gateway's)."""
        return {k: v for k, v in (self.model_extra or {}).items() if k != "id"}


class Resign(_Message):
    type: Literal["resign"]
    table_id: TableId


class SeatReclaim(_Message):
    """PROTOCOL §2g: take back, at your next turn, the seat a computer player holds for you."""

    type: Literal["seat.reclaim"]
    table_id: TableId


class TournamentSubscribe(_Message):
    type: Literal["tournament.subscribe"]
    tournament_id: TableId


class TournamentUnsubscribe(_Message):
    type: Literal["tournament.unsubscribe"]
    tournament_id: TableId


class Chat(_Message):
    type: Literal["chat"]
    table_id: TableId
    text: Annotated[StrictStr, Field(min_length=1, max_length=300)]


ClientMessage = Annotated[
    Hello
    | Ping
    | LobbySubscribe
    | LobbyUnsubscribe
    | TableSubscribe
    | TableUnsubscribe
    | Play
    | Resign
    | SeatReclaim
    | Rematch
    | Chat
    | TournamentSubscribe
    | TournamentUnsubscribe,
    Field(discriminator="type"),
]

client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

# PROTOCOL §2 error codes, in the order of precedence.
ERROR_CODES = (
    "rate_limited",
    "bad_request",
    "unauthorized",
    "muted",
    "not_found",
    "not_seated",
    "game_over",
    "stale",
    "not_your_turn",
    "illegal_move",
)
