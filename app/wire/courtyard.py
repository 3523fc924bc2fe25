"""The courtyard table's shapes (PROTOCOL §2d): its events and its answers."""

# No `from __future__ import annotations`: the TypedDicts' keys must be known at run time.
from typing import Literal, NotRequired, TypedDict

from pydantic import JsonValue


class QueueEvent(TypedDict):
    """`player` joined the courtyard's queue (`joined`) at `position` (1: first), or left
    it (`position` null)."""

    type: Literal["queue"]
    round: int
    player: str
    joined: bool
    position: int | None


class CourtyardEvent(TypedDict):
    """The game that ended decided the next one's four (`next`, by seat; null: a seat
    nobody waits for): `leaving` gave way, `coming` sit down; `game` is its number."""

    type: Literal["courtyard"]
    round: int
    leaving: list[str]
    coming: list[str]
    next: list[str | None]
    game: int


class CourtyardView(TypedDict):
    """A courtyard table's part of every `view` (PROTOCOL §2d: the `table` object's fields),
    so a table's page follows its queue with its states."""

    queue: list[str]
    waiting_max: int
    games: int
    next: list[str | None] | None


class CourtyardTable(TypedDict):
    """PROTOCOL §2d's fields of a `table` object, a courtyard's only: who waits (first
    first), how many may, how many games it has started, and the next game's four once
    the last one has decided them."""

    courtyard: NotRequired[bool]
    queue: NotRequired[list[str]]
    waiting_max: NotRequired[int]
    games: NotRequired[int]
    next: NotRequired[list[str | None] | None]


class CourtyardPart(TypedDict):
    """A view's part at a courtyard table."""

    courtyard: NotRequired[CourtyardView]


class Queued(TypedDict):
    """`POST /api/tables/{id}/queue`: the place taken in the queue (1: first)."""

    position: int


class CourtyardSeated(TypedDict):
    """To every socket of a player who waited at a courtyard and sits its next game, `game`
    (PROTOCOL §2d): kept for him, like a pairing, until he is at the table (subscribes to
    it), leaves it, or is not among its four any more."""

    id: NotRequired[JsonValue]
    type: Literal["courtyard.seated"]
    table_id: str
    game: int
