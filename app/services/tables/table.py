"""A live table as the services read and change it: typed, and the JSON the store keeps.

`Table.to_dict()` is exactly the JSON object the live store holds for a table (and the
database's snapshot of a running game), `Table.from_dict()` reads it back; fields added
later (`round_pause_seconds`, `on_timeout`, `bot_pace_ms`, `next_round_at`, `rematch`,
`private`, `unrated_reason`, `reserve_seconds`, `reserve_ms`, `moved`, `stand_ins`,
`courtyard`) have
defaults, so a state written before them still loads (a state that says `bot_takeover`,
the flag `on_timeout` replaced, is read as `on_timeout: "computer"`).

The table holds the current round only: when a round is over and the next one dealt, the
finished round (its deal and moves) is appended once to the store's round archive, and the
state keeps just its `end` and standings (what views and the variants' rules need), marked
`"archived": true`. `tables.full_game_dict` joins them again for a record.

A table also carries, outside its JSON, the version it was read at (`version`) and its
event log's entries as JSON when the process that made them kept them (`log_json`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple, cast

import orjson

from app.engine import Game
from app.services.tables.events import TableEvent
from app.wire.bytes import log_sizes, logged, with_log
from app.wire.messages import RematchOffer

# Default pause before a bot places a tile, so that a table of bots looks like people.
DEFAULT_PACE_MS = 1500

Status = Literal["waiting", "playing", "finished"]
# What a person's timeout does (PROTOCOL §2g): end the game (RULES 1.10), or a computer
# player takes his seat and the game goes on (casual tables only).
OnTimeout = Literal["end", "computer"]
# How a change treats the turn clock (see `Step.clock`).
ClockRule = Literal["run", "restart", "keep"]


@dataclass(frozen=True, slots=True)
class Person:
    """Who sits in a seat (or made the table): a player, or a bot (`bot`: its strength).

    A bot's id is `-1 - seat`, never a player's (player ids are positive), so no person
    can act for it and no rating row is ever touched for it."""

    id: int
    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None

    def to_dict(self) -> dict[str, Any]:
        if self.bot is None:
            return {"id": self.id, "name": self.name}
        return {"id": self.id, "name": self.name, "bot": self.bot}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Person:
        return cls(data["id"], data["name"], data.get("bot"))


@dataclass(frozen=True, slots=True)
class Rematch:
    """The offers to play again at a finished table (seats), and the new table once all
    have offered."""

    offers: tuple[int, ...] = ()
    new_table_id: str | None = None

    def to_dict(self) -> RematchOffer:
        return {"offers": list(self.offers), "new_table_id": self.new_table_id}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rematch:
        return cls(tuple(data["offers"]), data["new_table_id"])


@dataclass(frozen=True, slots=True)
class StandIn:
    """A computer player holds `seat` for `person`, who timed out at a casual table; `back`:
    he has asked for it again, and takes it at his next turn (PROTOCOL §2g)."""

    seat: int
    person: Person
    back: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "person": self.person.to_dict(), "back": self.back}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StandIn:
        return cls(data["seat"], Person.from_dict(data["person"]), data.get("back", False))


@dataclass(frozen=True, slots=True)
class Courtyard:
    """A courtyard table's own state (PROTOCOL §2d): four play, up to `waiting_max` wait.

    `queue`: who waits, first first. `games`: how many games the table has started.
    `since`: by seat, the number of the game at which its player sat down (the draw rule).
    `next`: the next game's seats, decided by the write that ended the last one (None while
    a game is played or before the first); `written`: that game is in the database (the
    next one may start, and overwrite it, only then). `gone`: players who left the table
    during the game that ended: they neither sit the next one nor wait."""

    waiting_max: int
    queue: tuple[Person, ...] = ()
    games: int = 0
    since: tuple[int, ...] = (1, 1, 1, 1)
    next: tuple[Person | None, ...] | None = None
    written: bool = False
    gone: tuple[int, ...] = ()

    def queued(self, player_id: int) -> bool:
        return any(who.id == player_id for who in self.queue)

    def coming(self, player_id: int) -> bool:
        """Whether `player_id` sits the next game (once it is decided)."""
        return self.next is not None and any(
            who is not None and who.id == player_id for who in self.next)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "waiting_max": self.waiting_max,
            "queue": [who.to_dict() for who in self.queue],
            "games": self.games,
            "since": list(self.since),
            "written": self.written,
            "gone": list(self.gone),
        }
        if self.next is not None:
            data["next"] = [None if who is None else who.to_dict() for who in self.next]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Courtyard:
        upcoming = data.get("next")
        return cls(
            waiting_max=data["waiting_max"],
            queue=tuple(Person.from_dict(who) for who in data["queue"]),
            games=data["games"],
            since=tuple(data["since"]),
            next=None if upcoming is None else tuple(
                None if who is None else Person.from_dict(who) for who in upcoming),
            written=data.get("written", False),
            gone=tuple(data.get("gone", ())),
        )


class LogEntry(NamedTuple):
    """The events of the change that made version `v` (a tuple: a table's log is read back
    whole by every process its changes are announced to)."""

    v: int
    events: Sequence[TableEvent]

    def to_dict(self) -> dict[str, Any]:
        return {"v": self.v, "events": self.events}


@dataclass(frozen=True, slots=True)
class Table:
    id: str
    variant: str
    # the variant's options as the engine validated them
    options: dict[str, Any]
    # how many seats
    players: int
    seats: tuple[Person | None, ...]
    status: Status
    turn_seconds: int
    rated: bool
    created_by: Person
    created_at: int
    game_id: str | None = None
    started_at: int | None = None
    finished_at: int | None = None
    # when the player on turn times out (epoch ms; None: no clock runs)
    deadline: int | None = None
    # the engine's `Game.to_dict()`, its finished rounds reduced to their summaries
    game: dict[str, Any] | None = None
    log: tuple[LogEntry, ...] = ()
    round_pause_seconds: int = 0
    on_timeout: OnTimeout = "end"
    bot_pace_ms: int = DEFAULT_PACE_MS
    # the end of the pause between two rounds (epoch ms; None: no pause now)
    next_round_at: int | None = None
    rematch: Rematch | None = None
    # kept out of the lobby, reached by its id (PROTOCOL §2b)
    private: bool = False
    # Why a game made rated pays no rating after all (app.services.tables.fairness); None: no
    # such reason has come up during the game.
    unrated_reason: str | None = None
    # Each player's reserve for the whole game, in seconds (RULES 1.10), and what is left of
    # it by seat when the current turn began (None: all of it, for every seat).
    reserve_seconds: int = 0
    reserve_ms: tuple[int, ...] | None = None
    # The seats that have made a move in this game (None: a game started before they were
    # counted, taken as all of them): a game that ends before all have is aborted.
    moved: tuple[int, ...] | None = None
    # The seats computer players hold for people who timed out (casual tables).
    stand_ins: tuple[StandIn, ...] = ()
    # A courtyard table's queue and rotation (PROTOCOL §2d); None: an ordinary table.
    courtyard: Courtyard | None = None
    # Not stored: the version this table was read at (0: not stored yet), and its log's
    # entries as JSON, in order, when the process that made them kept them.
    version: int = field(default=0, compare=False)
    log_json: tuple[bytes, ...] | None = field(default=None, compare=False, repr=False)

    # -- seats -----------------------------------------------------------------------------

    def seat_of(self, player_id: int | None) -> int | None:
        if player_id is None:
            return None
        for seat, who in enumerate(self.seats):
            if who is not None and who.id == player_id:
                return seat
        return None

    def people(self) -> list[Person]:
        return [who for who in self.seats if who is not None and not who.is_bot]

    def holds(self, player_id: int) -> bool:
        """Whether `player_id` is at this table for its game, or its next: seated at a
        table not finished, or at a courtyard seated, waiting or coming in."""
        yard = self.courtyard
        if yard is not None and player_id in yard.gone:
            return False
        if yard is not None and (yard.queued(player_id) or yard.coming(player_id)):
            return True
        if self.seat_of(player_id) is None and (yard is None
                                                 or self.stand_in_for(player_id) is None):
            return False  # (a computer player holding his seat at a courtyard holds it for him)
        return self.status != "finished"

    def free_seats(self) -> list[int]:
        return [seat for seat, who in enumerate(self.seats) if who is None]

    def reserves(self) -> list[int]:
        """What is left of each seat's reserve (ms), as of the current turn's start."""
        if self.reserve_ms is None:
            return [self.reserve_seconds * 1000] * self.players
        return list(self.reserve_ms)

    def stand_in_for(self, player_id: int) -> StandIn | None:
        """The seat a computer player holds for this person, if any."""
        return next((s for s in self.stand_ins if s.person.id == player_id), None)

    def with_seat(self, seat: int, who: Person | None) -> Table:
        seats = list(self.seats)
        seats[seat] = who
        return replace(self, seats=tuple(seats))

    # -- the store's JSON ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = self._fields()
        data["log"] = [entry.to_dict() for entry in self.log]
        return data

    def to_json(self) -> bytes:
        """`to_dict()` as the store keeps it: each log entry serialised once, by the change
        that made it (`log_json`), when that is known."""
        if self.log_json is None:
            return orjson.dumps(self.to_dict())
        return with_log(self._fields(), self.log_json)

    def _fields(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "variant": self.variant,
            "options": self.options,
            "players": self.players,
            "seats": [None if who is None else who.to_dict() for who in self.seats],
            "status": self.status,
            "turn_seconds": self.turn_seconds,
            "round_pause_seconds": self.round_pause_seconds,
            "rated": self.rated,
            "on_timeout": self.on_timeout,
            "reserve_seconds": self.reserve_seconds,
            "bot_pace_ms": self.bot_pace_ms,
            "created_by": self.created_by.to_dict(),
            "game_id": self.game_id,
            "created_at": self.created_at,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "deadline": self.deadline,
            "game": self.game,
            "next_round_at": self.next_round_at,
            "private": self.private,
        }
        if self.rematch is not None:
            data["rematch"] = self.rematch.to_dict()
        if self.unrated_reason is not None:
            data["unrated_reason"] = self.unrated_reason
        if self.reserve_ms is not None:
            data["reserve_ms"] = list(self.reserve_ms)
        if self.moved is not None:
            data["moved"] = list(self.moved)
        if self.stand_ins:
            data["stand_ins"] = [s.to_dict() for s in self.stand_ins]
        if self.courtyard is not None:
            data["courtyard"] = self.courtyard.to_dict()
        return data

    def log_sizes(self) -> list[int] | None:
        """The length of each log entry's JSON at the end of `to_json()`'s output (None when
        the entries are not kept as JSON): enough to find them there again (`logged`)."""
        return None if self.log_json is None else log_sizes(self.log_json)

    @staticmethod
    def logged(state: bytes, sizes: list[int]) -> tuple[bytes, ...] | None:
        """The log entries' JSON as they lie in `state` (a `to_json()` of a table whose
        entries have these sizes: app.wire.bytes.logged). None when `state` does not hold
        them there."""
        return logged(state, sizes)

    @classmethod
    def from_dict(cls, data: dict[str, Any], version: int = 0,
                  log_json: tuple[bytes, ...] | None = None) -> Table:
        """The table `data` holds (`to_dict()`), read at `version`; `log_json`: its log's
        entries as JSON, when the reader has them (see `logged`)."""
        rematch = data.get("rematch")
        return cls(
            id=data["id"],
            variant=data["variant"],
            options=data["options"],
            players=data["players"],
            seats=tuple(None if who is None else Person.from_dict(who) for who in data["seats"]),
            status=cast(Status, data["status"]),
            turn_seconds=data["turn_seconds"],
            rated=data["rated"],
            created_by=Person.from_dict(data["created_by"]),
            created_at=data["created_at"],
            game_id=data.get("game_id"),
            started_at=data.get("started_at"),
            finished_at=data.get("finished_at"),
            deadline=data.get("deadline"),
            game=data.get("game"),
            log=tuple(LogEntry(entry["v"], entry["events"]) for entry in data.get("log", ())),
            round_pause_seconds=data.get("round_pause_seconds", 0),
            on_timeout=cast(OnTimeout, data.get("on_timeout")
                            or ("computer" if data.get("bot_takeover") else "end")),
            bot_pace_ms=data.get("bot_pace_ms", DEFAULT_PACE_MS),
            next_round_at=data.get("next_round_at"),
            rematch=None if rematch is None else Rematch.from_dict(rematch),
            private=data.get("private", False),
            unrated_reason=data.get("unrated_reason"),
            reserve_seconds=data.get("reserve_seconds", 0),
            reserve_ms=None if (left := data.get("reserve_ms")) is None else tuple(left),
            moved=None if (moved := data.get("moved")) is None else tuple(moved),
            stand_ins=tuple(StandIn.from_dict(s) for s in data.get("stand_ins", ())),
            courtyard=None if (yard := data.get("courtyard")) is None
            else Courtyard.from_dict(yard),
            version=version,
            log_json=log_json,
        )


@dataclass(frozen=True, slots=True)
class Step:
    """What a command makes of a table: the table to write and the events that say what
    happened. `game`: the game in its new position when the command played on it (its
    serialised form becomes the table's); `listed`: False for a change of a table that
    must stay out of the lobby's index. `clock`: "run" (a turn taken: the time since the
    last change counts against the player who was on turn, and the clock of whoever is on
    turn now starts), "restart" (that time does not count: the store was away; the clock
    starts again) or "keep" (nobody's turn changed: the clock goes on as it was)."""

    table: Table
    events: Sequence[TableEvent]
    game: Game | None = None
    listed: bool = True
    clock: ClockRule = "run"


@dataclass(frozen=True, slots=True)
class Remove:
    """What a command makes of a waiting table the last person left: it goes."""


REMOVE = Remove()
