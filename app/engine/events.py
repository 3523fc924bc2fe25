"""The events a game's moves cause (PROTOCOL §2 `table.state.events`): what the server
sends to every seat and spectator so that clients can animate a change.

Each is a plain dict typed by its `type`; `Event` is any of them. No event shows a tile
of a hand or of the bazaar of a round in play: `draw` gives a count, a closed double's
`play` no tile (Donkey, RULES §8), and only `round_end` lays the hands open.
"""

# No `from __future__ import annotations`: the TypedDicts' optional keys must be known at
# run time (`__required_keys__`, `__optional_keys__`) to whoever reads them.
from typing import Literal, NotRequired, TypedDict

from app.engine.values import PlacementDict, Result, RoundEnd


class StartEvent(TypedDict):
    """The game began: the seed's commitment (RULES 10) and how many play."""

    type: Literal["start"]
    round: int
    commitment: str | None
    players: int


class RedealEvent(TypedDict):
    """The deal of `round` was collected and dealt again (its `attempt`-th redeal)."""

    type: Literal["redeal"]
    round: int
    attempt: int


class RoundStartEvent(TypedDict):
    """A round was dealt: who leads it and how many tiles the bazaar holds."""

    type: Literal["round_start"]
    round: int
    turn: int
    bazaar: int


class PlayEvent(TypedDict):
    """A seat placed a tile (`end` None on a lead), with the variant's extra fields."""

    type: Literal["play"]
    round: int
    seat: int
    tile: NotRequired[str]  # left out for a double laid face down (Donkey's `closed`)
    end: str | None
    also: NotRequired[list[PlacementDict]]  # further tiles of the same turn (Sea Goat)
    closed: NotRequired[bool]  # Donkey: the double lies face down
    open: NotRequired[str]  # Donkey: the end of the closed double this move opens


class DrawEvent(TypedDict):
    """A seat drew `count` tiles from the bazaar (how many only, never which)."""

    type: Literal["draw"]
    round: int
    seat: int
    count: int


class KnockEvent(TypedDict):
    """A seat could not place a tile and passed."""

    type: Literal["knock"]
    round: int
    seat: int


class ScoreEvent(TypedDict):
    """Points scored during play (Fives, Telephone: RULES §4, §6): the open ends' `count`."""

    type: Literal["score"]
    round: int
    seat: int
    points: int
    count: int


class OpenEvent(TypedDict):
    """Donkey (RULES §8): a seat turned its closed double on `end` face up."""

    type: Literal["open"]
    round: int
    seat: int
    end: str
    tile: str


class EngineEvent(TypedDict):
    """Mexican Train (RULES §5): the engine double was put in the centre by `seat`."""

    type: Literal["engine"]
    round: int
    seat: int
    number: int


class MarkerEvent(TypedDict):
    """Mexican Train (RULES §5): a marker was put on (`on`) or taken off a seat's train."""

    type: Literal["marker"]
    round: int
    seat: int
    on: bool


class RoundEndEvent(TypedDict):
    """A round ended (`end` as in PROTOCOL §3); every hand is shown, and the standings
    after it (the per-round fields of a record: `scores` always, the others by variant)."""

    type: Literal["round_end"]
    round: int
    end: RoundEnd
    hands: list[list[str]]
    scores: list[int]
    remembered: NotRequired[list[int]]
    carry: NotRequired[int]
    play_points: NotRequired[list[int]]


class TimeoutEvent(TypedDict):
    """A seat ran out of time or resigned (`reason`: "timeout" or "resign", RULES 1.10)."""

    type: Literal["timeout"]
    round: int
    seat: int
    reason: str


class GameEndEvent(TypedDict):
    """The game is over: its result (PROTOCOL §2 `view.result`)."""

    type: Literal["game_end"]
    round: int
    result: Result


Event = (
    StartEvent
    | RedealEvent
    | RoundStartEvent
    | PlayEvent
    | DrawEvent
    | KnockEvent
    | ScoreEvent
    | OpenEvent
    | EngineEvent
    | MarkerEvent
    | RoundEndEvent
    | TimeoutEvent
    | GameEndEvent
)
