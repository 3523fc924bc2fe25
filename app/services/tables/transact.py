"""A live table's public shapes (`table`, `view`) and the one way to change it, `transact`.

The table itself (`Table`, the JSON the store keeps) is in app.services.tables.table. Every
command that changes a table is a function `Table -> Step` (pure: no I/O, no clock of its
own) that `transact` applies to the table as read and writes by compare-and-set on the
version read, again on a fresher read when another change came first.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from app.engine import VARIANTS, Game, game_from_dict
from app.live.ratelimit import Charge
from app.live.store import Announcer, LiveStore, Write, dumps
from app.services.errors import ServiceError as ServiceError  # imported from here too
from app.services.tables.bot_seats import seat_returned, wake_at
from app.services.tables.events import TableEvent
from app.services.tables.fairness import ABORTED, with_reason
from app.services.tables.rotation import after_game, courtyard_fields, courtyard_view
from app.services.tables.table import LogEntry, Person, Remove, Step, Table
from app.services.tables.turn_clock import all_moved, moved_after, spent, turn_deadline
from app.wire.messages import OwnView, PublicView, TableInfo, TableSeat, View, ViewSeat

# What a finished round keeps in the hot state; the rest is in the round archive.
ARCHIVED = "archived"
_ROUND_DETAIL = ("hands", "bazaar", "moves")

# Finished tables stay in the lobby this long (then lobby.remove) ...
FINISHED_IN_LOBBY_MS = 60_000
# ... and readable by GET / table.subscribe this long after their result is written.
FINISHED_KEEP_SECONDS = 3600
# How many changes' events a state remembers, so a socket that skipped some still gets them.
LOG_LENGTH = 16


def not_found(table_id: str) -> ServiceError:
    return ServiceError("not_found", "no_table", 404, table=table_id)


def now_ms() -> int:
    return int(time.time() * 1000)


def pause_remaining(table: Table, now: int | None = None) -> int:
    """Milliseconds left of the pause between two rounds (0: no pause now)."""
    until = table.next_round_at
    return 0 if until is None else max(0, until - (now_ms() if now is None else now))


def game_of(table: Table) -> Game | None:
    """The table's game, reading the server's clock (`now_ms`) where its rules need the
    time (General, RULES §12)."""
    return None if table.game is None else game_from_dict(table.game, clock=now_ms)


def _table_seat(seat: int, who: Person | None) -> TableSeat:
    if who is None:
        return {"seat": seat, "player": None}
    if who.bot is None:
        return {"seat": seat, "player": who.name}
    return {"seat": seat, "player": who.name, "bot": who.bot}


def public_table(table: Table) -> TableInfo:
    """PROTOCOL's `table`: names as plain strings, nothing of the game itself."""
    info: TableInfo = {
        "id": table.id,
        "variant": table.variant,
        "options": table.options,
        "seats": [_table_seat(s, who) for s, who in enumerate(table.seats)],
        "status": table.status,
        "turn_seconds": table.turn_seconds,
        "round_pause_seconds": table.round_pause_seconds,
        "rated": table.rated,
        "created_by": table.created_by.name,
        "game_id": table.game_id,
        "private": table.private,
        "reserve_seconds": table.reserve_seconds,
        "on_timeout": table.on_timeout,
    }
    courtyard_fields(table, info)
    return info


def _waiting_view(table: Table) -> PublicView:
    """The public view of a table whose game has not started: the same shape, nothing dealt."""
    return {
        "table_id": table.id,
        "game_id": None,
        "deadline": None,
        "next_round_at": None,
        "rematch": None,
        "spectators": 0,
        "variant": table.variant,
        "options": table.options,
        "status": "waiting",
        "turn": None,
        "round": 0,
        "layout": VARIANTS[table.variant].layout,
        "ends": {},
        "chain": [],
        "bazaar": 0,
        "seats": [
            {"seat": s, "player": None, "connected": False, "tiles": 0, "account": 0,
             "opened": False, "remembered": 0}
            for s in range(table.players)
        ],
        "carry": 0,
        "history": [],
        "commitment": None,
        "seed": None,
        "result": None,
        "clock": {"reserve_ms": table.reserves()},
    }


def public_view(
    table: Table,
    game: Game | None,
    connected: set[int],
    spectators: int = 0,
) -> PublicView:
    """What every seat's view and every spectator's has in common (`build_view` adds the
    seat's own part); built once for all the views of one version."""
    # The engine's part of the view; the table's fields are set here.
    view = _waiting_view(table) if game is None else cast(PublicView, game.public_view())
    view["table_id"] = table.id
    view["game_id"] = table.game_id
    view["status"] = table.status
    view["deadline"] = table.deadline if table.status == "playing" else None
    view["next_round_at"] = table.next_round_at
    view["rematch"] = None if table.rematch is None else table.rematch.to_dict()
    view["spectators"] = spectators
    view["result"] = with_reason(view.get("result"), table)
    view["clock"] = {"reserve_ms": table.reserves()}
    if table.courtyard is not None:
        view["courtyard"] = courtyard_view(table.courtyard)
    if view["next_round_at"] is not None:
        # Between rounds nobody moves and no clock runs: the new deal waits for the pause.
        view["deadline"] = None
    for entry in view["seats"]:
        who = table.seats[entry["seat"]]
        entry["player"] = None if who is None else who.name
        bot = None if who is None else who.bot
        entry["connected"] = entry["seat"] in connected or bot is not None
        if bot is not None:
            entry["bot"] = bot
    for stand_in in table.stand_ins:
        _stood_in(view["seats"][stand_in.seat], stand_in.person.name, stand_in.back)
    return view


def _stood_in(entry: ViewSeat, name: str, back: bool) -> None:
    """A seat a computer player holds for `name` (PROTOCOL §2g): whose it is, and whether
    he has asked for it back."""
    entry["stand_in_for"] = name
    entry["reclaiming"] = back


def build_view(
    table: Table,
    game: Game | None,
    seat: int | None,
    connected: set[int],
    spectators: int = 0,
    public: PublicView | None = None,
) -> View:
    """PROTOCOL's `view` for `seat` (None: a spectator): the engine's view plus the table's.

    `game` is `game_of(table)`, loaded once by the caller for all the views it builds, and
    `public` its `public_view`, when the caller has it.
    """
    if public is None:
        public = public_view(table, game, connected, spectators)
    own = own_view(game, seat, public)
    return cast(View, {**public, **own})


def own_view(game: Game | None, seat: int | None, public: PublicView) -> OwnView:
    """The part of `seat`'s view that is his alone (`you`, `hand`, `legal`), beside the
    `public_view` of the same version."""
    own: OwnView = {"you": seat, "hand": [], "legal": []} if game is None \
        else cast(OwnView, game.own_view(seat))
    if public["next_round_at"] is not None:
        own["legal"] = []
    return own


def events_since(table: Table, version: int, last_sent: int) -> list[TableEvent]:
    """The events of the changes after `last_sent` up to `version` (those still logged)."""
    if last_sent <= 0:
        return []
    log = table.log
    # Newest last: only the entries after `last_sent` are looked at (one, as a rule).
    first = len(log)
    while first and log[first - 1].v > last_sent:
        first -= 1
    return [event for entry in log[first:] if entry.v <= version for event in entry.events]


def split_rounds(game: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`game` (a `Game.to_dict()`) with every round before the current one reduced to its
    summary, and the rounds newly reduced so (to archive), in order."""
    rounds = game["rounds"]
    fresh = [rd for rd in rounds[:-1] if not rd.get(ARCHIVED)]
    if not fresh:
        return game, []
    kept = [
        rd if rd.get(ARCHIVED) else {
            **{k: v for k, v in rd.items() if k not in _ROUND_DETAIL}, "moves": [], ARCHIVED: True
        }
        for rd in rounds[:-1]
    ]
    return {**game, "rounds": [*kept, rounds[-1]]}, fresh


async def full_game_dict(store: LiveStore, table_id: str, game: dict[str, Any]
                         ) -> dict[str, Any]:
    """`game` as stored in the table, with its archived rounds joined back in."""
    if not any(rd.get(ARCHIVED) for rd in game["rounds"]):
        return game
    archive = await store.archived_rounds(table_id)
    rounds = [
        archive[r] if rd.get(ARCHIVED) else rd for r, rd in enumerate(game["rounds"])
    ]
    return {**game, "rounds": rounds}


def _lobby_fields(table: Table) -> tuple[object, ...]:
    """The table's fields that `public_table` shows: a change that leaves them all equal (a
    move, as a rule) leaves the lobby's entry as it was."""
    return (table.seats, table.status, table.game_id, table.options, table.turn_seconds,
            table.round_pause_seconds, table.rated, table.on_timeout, table.reserve_seconds,
            table.variant, table.created_by, table.private, table.courtyard)


def lobby_entry_changed(before: Table | None, after: Table) -> TableInfo | None:
    """The lobby's `table` for `after` if it differs from `before`'s (None: unchanged, or a
    private table, which the lobby never shows)."""
    if after.private:
        return None
    if before is not None and _lobby_fields(before) == _lobby_fields(after):
        return None
    entry = public_table(after)
    return None if before is not None and public_table(before) == entry else entry


async def load(store: LiveStore, table_id: str) -> Table | None:
    """The table as stored now, at its version; None if there is none."""
    current = await store.load(table_id)
    return None if current is None else Table.from_dict(current.state, current.version)


async def loaded(store: LiveStore, table_id: str) -> Table:
    """`load`, refusing with `not_found` when there is no such table."""
    table = await load(store, table_id)
    if table is None:
        raise not_found(table_id)
    return table


@dataclass(frozen=True, slots=True)
class Change:
    """A change that was stored: the table as written (at its new version), whether it
    ended the game, and the game as it is now (so the writer's process need not parse the
    table again). `written`: False when the command had nothing to change (then `table`
    is the table as read). `published`: whether the change was announced to other
    processes."""

    table: Table
    finished: bool = False
    game: Game | None = None
    written: bool = True
    published: bool = False

    @property
    def version(self) -> int:
        return self.table.version


# A command: what it makes of the table as read. A `Step` is written; `REMOVE` deletes a
# waiting table; None changes nothing. It raises `ServiceError` to refuse.
Command = Callable[[Table], Step | Remove | None]

# A command loses a compare-and-set only to another change of the same table; it then
# reads again and tries again, a bounded number of times.
ATTEMPTS = 20


@dataclass(frozen=True, slots=True)
class Sealed:
    """A step made ready to write: the table to store and what the write carries."""

    table: Table
    archive: list[dict[str, Any]]
    finished: bool
    started: bool


def seal(current: Table, step: Step, now: int) -> Sealed:
    """The table `step` makes of `current`, as it is stored: the game's new position, the
    status, the reserves and the deadline of the player now on turn (app.services.tables.
    turn_clock), a seat given back to its person at his turn, the seats that have moved,
    and the event log, at the next version. A game that just ended is marked finished in
    this same write, which also queues its result for the database writer; one that ended
    before every seat had moved is aborted (it pays nothing)."""
    table = step.table
    game = step.game
    events = list(step.events)
    rule = step.clock
    archive: list[dict[str, Any]] = []
    status = table.status
    finished_at = table.finished_at
    finished = False
    stored_game = table.game
    if game is not None:
        stored_game, archive = split_rounds(game.to_dict())
        if game.status == "finished" and current.status != "finished":
            finished = True
            status = "finished"
            finished_at = now
        elif game.status == "playing":
            status = "playing"
    turn = game.turn if game is not None else (stored_game or {}).get("turn")
    if status == "playing":
        table, back = seat_returned(table, turn, game.round if game is not None else 0)
        if back is not None:
            events.append(back)
            rule = "run"  # his turn begins (a computer player's time counted against nobody)
    if rule == "run":
        table = replace(table, reserve_ms=spent(current, now))
    moved = moved_after(table.moved, events)
    unrated = table.unrated_reason
    if finished and not all_moved(moved, table.players):
        unrated = ABORTED
    next_round_at = None
    deadline: int | None = None
    pause = table.round_pause_seconds
    yard = table.courtyard
    if finished and yard is not None and game is not None:
        # PROTOCOL §2d: the write that ends a courtyard's game decides the next one's four;
        # it starts after the round pause (app.services.tables.courtyard.next_game).
        losers = [] if game.result is None else game.result["losers"]
        table, rotated = after_game(table, losers, game.round)
        events.append(rotated)
        next_round_at = deadline = now + pause * 1000
    elif status == "finished" and yard is not None and yard.next is not None:
        next_round_at = deadline = current.next_round_at
    elif status == "playing" and rule == "keep":
        next_round_at, deadline = current.next_round_at, current.deadline
    elif status == "playing" and pause and any(e["type"] == "round_end" for e in events):
        # A pause between rounds: the clock wakes at its end (play.expire then starts the
        # first turn's clock), so everyone can look at the round that was just played.
        next_round_at = deadline = now + pause * 1000
    elif status == "playing":
        deadline = turn_deadline(table, turn, now)
    elif status == "waiting" and yard is not None:
        deadline = table.deadline  # a courtyard waiting again: when it goes (next_game)
    version = current.version + 1
    # The log's older entries were serialised by the changes that made them: between two
    # moves of a table they have left the caches, and serialising them again was half the
    # cost of the state's JSON at 250 busy tables (31-38 -> 19-24 us a move); the new one, here.
    entry = LogEntry(version, events)
    log_json = current.log_json
    if log_json is None:
        log_json = tuple(dumps(e.to_dict()) for e in current.log)
    sealed = replace(
        table, game=stored_game, status=status, finished_at=finished_at,
        next_round_at=next_round_at, deadline=deadline, moved=moved, unrated_reason=unrated,
        log=(*current.log, entry)[-LOG_LENGTH:],
        version=version,
        log_json=(*log_json, dumps(entry.to_dict()))[-LOG_LENGTH:],
    )
    # A game that starts, and every new round of it, is copied to the database soon after
    # (app.services.durable.recovery), so a lost live store costs at most the round being played.
    started = status == "playing" and current.status != "playing"
    return Sealed(sealed, archive, finished, started)


async def commit(
    store: LiveStore, current: Table, step: Step, charge: Charge | None = None,
    answers: str | None = None,
) -> Change | None:
    """Write what `step` makes of `current` if nobody changed the table meanwhile (None:
    the compare-and-set lost). `charge`: the rate limits of the message that makes the
    change, taken by the same write (`Refused` when they are spent: nothing is written).
    `answers`: the relayed request the change carries out (see `Write.answers`)."""
    now = now_ms()
    sealed = seal(current, step, now)
    table = sealed.table
    # The game object still holds the rounds just archived in full; the table holds their
    # summaries. Whoever needs the game after this write parses the table, as stored.
    game = None if sealed.archive else step.game
    announcer: Announcer | None = store.announcer
    prepared = None if announcer is None else announcer.prepare(table, game)
    written = await store.written(Write(
        table.id,
        current.version,
        table.to_json(),
        table.created_at,
        # a bot's turn wakes the clock when the bot should move, well before the deadline
        deadline_ms=wake_at(table, step.game, now),
        finished=sealed.finished,
        # a private table was never in the lobby: nothing to take out of it
        # (a courtyard's game is followed by the next: it stays)
        retire_at_ms=(now + FINISHED_IN_LOBBY_MS if sealed.finished and not table.private
                      and table.courtyard is None else None),
        listed=step.listed and not table.private,
        lobby_entry=lobby_entry_changed(current, table),
        archive=sealed.archive,
        snapshot=table.status == "playing" and (sealed.started or bool(sealed.archive)),
        announcement=None if prepared is None else prepared.announcement(),
        answers=answers,
        fresh_archive=sealed.started,
    ), charge)
    if written is None:
        return None
    if announcer is not None:
        announcer.written(prepared, written.published)
    return Change(table, sealed.finished, game, published=written.published)


async def transact(
    store: LiveStore,
    table_id: str,
    change: Command,
    *,
    known: Table | None = None,
    charge: Charge | None = None,
    retry: bool = True,
    answers: str | None = None,
) -> Change | None:
    """The one way to change a table: read it, apply `change`, write what it made by
    compare-and-set on the version read; when another change came first, read again and
    apply `change` again (a bounded number of times).

    `known`: the table as this process holds it; `change` is tried on it first without a
    read (the compare-and-set still decides), and a refusal (or nothing to do) is checked
    against a fresh read. `retry`: False for a command chosen at one version (a move): a lost
    compare-and-set is then `stale`. `charge` and `answers`: see `commit`.

    Returns the change; for a command that changed nothing, the table as read
    (`written` False); None when the command removed the table.
    """
    for _ in range(ATTEMPTS):
        if known is not None:
            current, known = known, None
            try:
                step = change(current)
            except ServiceError:
                continue
            if step is None:  # nothing to do, as far as the held table says: look again
                continue
        else:
            current = await loaded(store, table_id)
            step = change(current)
        if step is None:
            return Change(current, written=False)
        if isinstance(step, Remove):
            # a private table was never in the lobby: its removal is not told there
            if await store.delete(table_id, current.version, listed=not current.private):
                return None
        else:
            done = await commit(store, current, step, charge, answers)
            if done is not None:
                return done
        if not retry:
            raise ServiceError("stale", "table_changed", 409)
    raise ServiceError("bad_request", "table_busy", 409)
