"""Tables and seats: create, list, join and leave; a table starts its game when it fills."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, Protocol

from app import logs
from app.config import settings
from app.engine import OptionsError, in_two_teams, validate_options
from app.live.keys import new_table_id
from app.live.store import LiveStore, Write
from app.services.play import moves
from app.services.tables import seated
from app.services.tables.bot_seats import DEFAULT_PACE_MS
from app.services.tables.caps import RatedGameAlready, RatedSeats
from app.services.tables.courtyard import withdrawal
from app.services.tables.deal import Deal as Deal  # imported from here too
from app.services.tables.deal import begin as begin
from app.services.tables.events import RematchEvent, TableEvent
from app.services.tables.fairness import has_bots
from app.services.tables.table import (
    REMOVE,
    Courtyard,
    OnTimeout,
    Person,
    Rematch,
    Remove,
    Step,
    Table,
)
from app.services.tables.transact import (
    Change,
    Command,
    ServiceError,
    loaded,
    lobby_entry_changed,
    now_ms,
    public_table,
    transact,
)
from app.wire.answers import RematchAnswer
from app.wire.messages import TableInfo, TableRematch

# Seconds between a round's end and the next deal when a request does not say (PROTOCOL
# §2a); a table made here without saying has no pause.
DEFAULT_ROUND_PAUSE = 5
# Each player's reserve for the whole game (RULES 1.10, PROTOCOL §2g), and its bounds.
DEFAULT_RESERVE = 60
MAX_RESERVE = 600

log = logging.getLogger(__name__)


class Player(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


def _who(player: Player) -> Person:
    return Person(player.id, player.name)


@dataclass(frozen=True, slots=True)
class Terms:
    """What a new table is made with (PROTOCOL §1).

    `reserve_seconds`: each player's reserve for the whole game, spent once his turn time
    is (RULES 1.10). `on_timeout`: "computer", a bot plays on for a player who times out,
    instead of the game ending (RULES 1.10); casual tables only, since it changes how a game
    can end; None: the default, "computer" at a casual table and "end" at a rated one
    (a tournament asks for "end" at every table, PROTOCOL §2g). `bot_pace_ms`:
    how long the bots at this table wait before they place a tile. `round_pause_seconds`:
    how long the next deal waits after a round's end (PROTOCOL §2a). `private`: never
    listed in the lobby; joined and watched by its id (PROTOCOL §2b)."""

    variant: str
    seats: int = 4
    options: dict[str, Any] | None = None
    turn_seconds: int = 30
    rated: bool = True
    on_timeout: OnTimeout | None = None
    bot_pace_ms: int = DEFAULT_PACE_MS
    round_pause_seconds: int = 0
    private: bool = False
    reserve_seconds: int = DEFAULT_RESERVE
    waiting_max: int | None = None

    @classmethod
    def of(cls, table: Table) -> Terms:
        """The terms `table` was made with (a courtyard's, but for the courtyard)."""
        return cls(table.variant, table.players, table.options, table.turn_seconds,
                   table.rated, table.on_timeout, table.bot_pace_ms,
                   table.round_pause_seconds, table.private, table.reserve_seconds)

    def timeout_rule(self) -> OnTimeout:
        """What a timeout does at a table of these terms; a rated table asking a computer
        player to play on is refused."""
        if self.rated:
            if self.on_timeout == "computer":
                raise ServiceError("bad_request", "takeover_casual_only", 422)
            return "end"
        return self.on_timeout or "computer"


async def create_table(
    store: LiveStore,
    player: Player,
    terms: Terms,
    admit: Callable[[str], Awaitable[None]] | None = None,
) -> TableInfo:
    """A new waiting table with its creator in seat 0 (or a game at once for one seat).

    `admit`: called with the new table's id before it is stored; it may refuse (a cap) by
    raising.
    """
    try:
        normalized = validate_options(terms.variant, terms.seats, terms.options)
    except OptionsError as error:
        raise ServiceError.of_engine("bad_request", error, 422) from error
    if terms.waiting_max is not None and not in_two_teams(terms.variant, terms.seats,
                                                          normalized):
        # the variant's own declaration says whether these options seat two teams
        raise ServiceError("bad_request", "courtyard_teams_only", 422)
    table = new_table(
        new_table_id(), _who(player), replace(terms, options=normalized),
        (_who(player), *[None] * (terms.seats - 1)), now_ms(),
    )
    if admit is not None:
        await admit(table.id)
    await write_new(store, table)
    return public_table(table)


def new_table(
    table_id: str, creator: Person, terms: Terms, seats: tuple[Person | None, ...], now: int
) -> Table:
    """A waiting table, not stored yet (`terms.options` validated already)."""
    return Table(
        id=table_id,
        variant=terms.variant,
        options=dict(terms.options or {}),
        players=len(seats),
        seats=seats,
        status="waiting",
        turn_seconds=terms.turn_seconds,
        round_pause_seconds=terms.round_pause_seconds,
        rated=terms.rated,
        on_timeout=terms.timeout_rule(),
        bot_pace_ms=terms.bot_pace_ms,
        created_by=creator,
        created_at=now,
        private=terms.private,
        reserve_seconds=terms.reserve_seconds,
        courtyard=None if terms.waiting_max is None else Courtyard(terms.waiting_max),
    )


class TableExists(ServiceError):
    """A new table's id is taken: the store already holds a table of that id."""

    def __init__(self) -> None:
        super().__init__("bad_request", "table_not_created", 409)


async def write_new(store: LiveStore, table: Table) -> Table:
    """Store a table made by `new_table` (version 0: never there before); the table as
    stored, at its first version. `TableExists` if its id is taken."""
    version = await store.write(Write(
        table.id, 0, table.to_json(), table.created_at,
        # a private table stays out of the lobby's index
        listed=not table.private,
        lobby_entry=lobby_entry_changed(None, table),
    ))
    if version is None:  # a 64-bit random id collided: vanishingly rare, but never overwrite
        raise TableExists()
    await seated.note(store, table.seats, table.id, table.created_at)
    return replace(table, version=version)


async def list_tables(store: LiveStore, limit: int | None = None) -> list[TableInfo]:
    """Open and running tables (finished ones are only readable by id): the waiting ones
    first (they can be joined), newest first; at most `limit` (None: the configured
    lobby size)."""
    limit = settings.lobby_max_tables if limit is None else limit
    tables = [Table.from_dict(t.state, t.version) for t in await store.listed()]
    # (a courtyard between two games too: it goes on, PROTOCOL §2d)
    shown = [t for t in tables if (t.status in ("waiting", "playing") or t.courtyard is not None)
             and not t.private]
    shown.sort(key=lambda t: (t.status != "waiting", -t.created_at))
    return [public_table(table) for table in shown[:limit]]


async def get_table(store: LiveStore, table_id: str) -> TableInfo:
    return public_table(await loaded(store, table_id))


def seating(
    who: Callable[[int], Person], seat: int | None, deal: Deal,
    check: Callable[[Table], None] = lambda table: None,
) -> Command:
    """Seat `who(seat)` (in `seat`, or the first free one) after `check(table)` has had its
    say. The last seat starts the game, dealt from `deal`."""

    def apply(table: Table) -> Step:
        check(table)
        if table.status != "waiting":
            raise ServiceError("bad_request", "game_started", 409)
        free = table.free_seats()
        if not free:
            raise ServiceError("bad_request", "table_full", 409)
        if seat is None:
            chosen = free[0]
        elif not 0 <= seat < table.players:
            raise ServiceError("bad_request", "no_seat", 409, seat=seat)
        elif seat not in free:
            raise ServiceError("bad_request", "seat_taken", 409, seat=seat)
        else:
            chosen = seat
        seated = who(chosen)
        table = table.with_seat(chosen, seated)
        yard = table.courtyard
        if yard is not None:  # he sits down for the courtyard's next game (the draw rule)
            since = list(yard.since)
            since[chosen] = yard.games + 1
            table = replace(table, courtyard=replace(yard, since=tuple(since)))
        events: list[TableEvent] = [
            {"type": "join", "round": 0, "seat": chosen, "player": seated.name}
        ]
        if table.free_seats():
            return Step(table, events)
        started = begin(table, deal)
        return Step(started.table, [*events, *started.events], started.game)

    return apply


def joined_seat(change: Change) -> int:
    """The seat a `seating` change filled (its first event says)."""
    first = change.table.log[-1].events[0]
    assert first["type"] == "join"
    return first["seat"]


async def join(
    store: LiveStore, player: Player, table_id: str, seat: int | None = None,
    apart: Collection[int] = (),
) -> tuple[int, Change]:
    """Seat `player` (in `seat`, or the first free one); the last seat starts the game.
    `apart`: players he may not sit beside (blocks, PROTOCOL §2c): 403 if one is seated."""

    def check(table: Table) -> None:
        if table.seat_of(player.id) is not None:
            raise ServiceError("bad_request", "seated_already", 409)
        if any(who is not None and who.id in apart for who in table.seats):
            raise ServiceError("bad_request", "people_forbidden", 403)

    # A rated seat is taken before the seat itself, and given back if the seat is not had.
    table = await loaded(store, table_id)
    rated = RatedSeats(store) if table.rated and table.seat_of(player.id) is None else None
    if rated is not None:
        await rated.take([player.id], table_id)
    try:
        return await take_seat(store, table_id, lambda _seat: _who(player), seat, check=check)
    except ServiceError:
        if rated is not None:
            await rated.give_up(player.id, table_id)
        raise


async def take_seat(
    store: LiveStore,
    table_id: str,
    who: Callable[[int], Person],
    seat: int | None,
    *,
    check: Callable[[Table], None],
) -> tuple[int, Change]:
    """Apply `seating`; returns the seat taken and the change."""
    change = await transact(store, table_id, seating(who, seat, Deal.fresh(), check))
    assert change is not None
    taken = joined_seat(change)
    await seated.note(store, [change.table.seats[taken]], table_id, now_ms())
    if change.table.status == "playing":
        logs.table_id.set(table_id)
        logs.game_id.set(change.table.game_id)
        log.info("game started: %s, %d players", change.table.variant, change.table.players)
    return taken, change


def _seat(table: Table, player_id: int) -> int:
    seat = table.seat_of(player_id)
    if seat is None:
        raise ServiceError("not_seated", "not_seated_here", 409)
    return seat


def rematch_offer(player_id: int, new_table_id: str) -> Command:
    """`player_id` offers to play again at a finished table; the offer that completes them
    all names the new table (`new_table_id`). Nothing changes for an offer made already."""

    def apply(table: Table) -> Step | None:
        seat = _seat(table, player_id)
        if table.courtyard is not None:  # its next game starts by itself (PROTOCOL §2d)
            raise ServiceError("bad_request", "courtyard_no_rematch", 409)
        if table.status != "finished":
            raise ServiceError("bad_request", "rematch_after_game", 409)
        offer = table.rematch or Rematch()
        offers = tuple(sorted({*offer.offers, seat}))
        if offer.new_table_id is not None or offers == offer.offers:
            return None
        # Bots always play again; every person at the table must say so.
        people = {s for s, who in enumerate(table.seats) if who is not None and not who.is_bot}
        new = Rematch(offers, new_table_id if people <= set(offers) else None)
        event: RematchEvent = {"type": "rematch", "round": 0, "seat": seat,
                               "offers": list(new.offers), "new_table_id": new.new_table_id}
        # A finished table stays out of the lobby: this change only tells its watchers.
        return Step(replace(table, rematch=new), [event], listed=False)

    return apply


async def rematch(store: LiveStore, player: Player, table_id: str) -> RematchAnswer:
    """`player` offers to play again at a finished table; when every seat has offered, a
    new table with the same variant, options, seats and clocks starts at once.

    Returns PROTOCOL's `{"offers", "new_table_id"}` and, as "started", whether this offer
    started the new table (so the caller announces it once).
    """
    new_id = new_table_id()
    change = await transact(store, table_id, rematch_offer(player.id, new_id))
    assert change is not None
    table = change.table
    assert table.rematch is not None
    offer = table.rematch.to_dict()
    started = change.written and table.rematch.new_table_id == new_id
    if started:
        # Every seat is taken at once, so the new table starts as a last join would.
        # The new table is rated only among people (app.services.tables.fairness), and
        # only if none of them sits at another rated table meanwhile (then it is casual).
        rated = table.rated and not has_bots(table.seats)
        if rated:
            try:
                await RatedSeats(store).take([p.id for p in table.people()], new_id)
            except RatedGameAlready:
                rated = False
        terms = replace(Terms.of(table), rated=rated)
        fresh = await write_new(store, new_table(
            new_id, table.created_by, terms, table.seats, now_ms()))
        deal = Deal.fresh()
        await transact(store, new_id, lambda waiting: begin(waiting, deal), known=fresh)
        note: TableRematch = {"type": "table.rematch", "table_id": table_id,
                              "offers": offer["offers"], "new_table_id": offer["new_table_id"]}
        await store.publish_table(table_id, {"kind": "notice", "message": note})
    return {"offers": offer["offers"], "new_table_id": offer["new_table_id"], "started": started}


def departure(player: Player) -> Command:
    """Before the start: the seat freed (an emptied table is removed). During play: a
    resignation, which RULES 1.10 treats exactly as a timeout."""
    resigns = moves.resignation(player.id)
    leaves_yard = withdrawal(_who(player), resigns)

    def apply(table: Table) -> Step | Remove | None:
        if table.courtyard is not None and table.status != "waiting":
            return leaves_yard(table)
        seat = _seat(table, player.id)
        if table.status == "playing":
            return resigns(table)
        if table.status == "finished":
            raise ServiceError("game_over", "game_is_over", 409)
        table = table.with_seat(seat, None)
        if not table.people():  # nobody left
            return REMOVE
        return Step(table, [{"type": "leave", "round": 0, "seat": seat, "player": player.name}])

    return apply


async def leave(store: LiveStore, player: Player, table_id: str) -> Change | None:
    """Apply `departure`; None when the table was removed."""
    return await transact(store, table_id, departure(player))
