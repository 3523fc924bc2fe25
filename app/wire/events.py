"""The events of a table's change (PROTOCOL §2 `table.state.events`), which clients animate:
the game's own (app.engine.events) and the table's, defined here: a seat taken or left, a
rematch offered, a computer player taking over a seat (and its person taking it back), a
round resumed, a turn's clock restarted. Every other message the server sends is in
app/wire/messages.py.
"""

# No `from __future__ import annotations`: the TypedDicts' optional keys must be known at
# run time (`__required_keys__`, `__optional_keys__`) to whoever reads them.
from typing import Annotated, Literal, NotRequired, TypedDict

from pydantic import Field

from app.engine.events import Event
from app.wire.courtyard import CourtyardEvent, QueueEvent


class JoinEvent(TypedDict):
    type: Literal["join"]
    round: int
    seat: int
    player: str


class LeaveEvent(TypedDict):
    type: Literal["leave"]
    round: int
    seat: int
    player: str


class RematchEvent(TypedDict):
    """`seat` offered a rematch: every seat that has (`offers`), and the new table once all
    the people at this one have."""

    type: Literal["rematch"]
    round: int
    seat: int
    offers: list[int]
    new_table_id: str | None


class BotTakeoverEvent(TypedDict):
    """A computer player (`bot`: its strength) took over the seat of `player`, who ran out
    of time; `unrated` says why a rated game no longer pays ratings."""

    type: Literal["bot_takeover"]
    round: int
    seat: int
    player: str
    bot: str
    unrated: NotRequired[str]


class SeatReclaimEvent(TypedDict):
    """`player`, whose seat a computer player holds since he timed out, asked for it back
    (`returned` False: he takes it at his next turn) or has it again (`returned` True)."""

    type: Literal["seat_reclaim"]
    round: int
    seat: int
    player: str
    returned: bool


class RoundResumeEvent(TypedDict):
    """The pause between rounds is over: `turn` leads."""

    type: Literal["round_resume"]
    round: int
    turn: int


class ClockEvent(TypedDict):
    """The turn's clock started again: `paused_ms` passed while no move could be made."""

    type: Literal["clock"]
    round: int
    seat: int
    paused_ms: int


TableEvent = (
    Event | JoinEvent | LeaveEvent | RematchEvent | BotTakeoverEvent | RoundResumeEvent
    | ClockEvent | SeatReclaimEvent | QueueEvent | CourtyardEvent
)
# As the schema tells them apart: by `type`.
TaggedEvent = Annotated[TableEvent, Field(discriminator="type")]
