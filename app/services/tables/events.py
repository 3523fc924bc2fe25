"""The events a table's changes tell its clients (PROTOCOL §2 `table.state.events`): the
game's own (app/engine/events.py) and the table's, defined beside every message the
server sends, in app/wire/events.py."""

from app.wire.events import (
    BotTakeoverEvent,
    ClockEvent,
    CourtyardEvent,
    JoinEvent,
    LeaveEvent,
    QueueEvent,
    RematchEvent,
    RoundResumeEvent,
    SeatReclaimEvent,
    TableEvent,
)

__all__ = [
    "BotTakeoverEvent",
    "ClockEvent",
    "CourtyardEvent",
    "JoinEvent",
    "LeaveEvent",
    "QueueEvent",
    "RematchEvent",
    "RoundResumeEvent",
    "SeatReclaimEvent",
    "TableEvent",
]
