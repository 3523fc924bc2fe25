"""The courtyard table (PROTOCOL §2d): its queue, and a player who leaves it.

Four play in two teams and up to `waiting_max` wait. The write that ends a game decides
the next one's four (app.services.tables.rotation, from `seal`). Joining and leaving the
queue are changes like any other (`transact`).

The next game: app.services.tables.next_game.

A rated courtyard table holds the rated seat (PROTOCOL §2g) of everyone at it: seated,
waiting or coming in. A player takes it when he joins the queue (refused while he sits at
another rated table) and has it for as long as he waits and plays there; it is free
again once he has left the queue and sits no more (`Table.holds`).

A waiting player who comes in for the next game is told so as state: a kept notice,
`courtyard.seated` (app.services.fanout.notices), sent again at every hello until he is at
the table (`tell_seated`, after every change that decides the next four).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Protocol

from app.live.store import LiveStore
from app.services.tables import seated
from app.services.tables.caps import RatedSeats
from app.services.tables.events import QueueEvent, TableEvent
from app.services.tables.rotation import refilled, without
from app.services.tables.table import Person, Remove, Step, Table
from app.services.tables.transact import (
    Change,
    Command,
    ServiceError,
    loaded,
    now_ms,
    transact,
)
from app.wire.courtyard import CourtyardSeated


def _round(table: Table) -> int:
    return int((table.game or {}).get("round", 0))


def _yard(table: Table) -> None:
    if table.courtyard is None:
        raise ServiceError("bad_request", "courtyard_only", 409)


def _everyone(table: Table) -> list[Person]:
    """Everyone at a courtyard table: seated (for its game, or coming in) and waiting."""
    yard = table.courtyard
    assert yard is not None
    people = [*table.seats, *(yard.next or ()), *yard.queue]
    return [who for who in people if who is not None and table.holds(who.id)]


def queue_in(person: Person, apart: Collection[int] = ()) -> Command:
    """`person` joins the back of the queue: 409 when it is full, when he is at the table
    already (seated, waiting or coming in) and while a seat is free (he takes it instead);
    403 when someone at the table blocks him or is blocked by him (PROTOCOL §2c)."""

    def apply(table: Table) -> Step:
        _yard(table)
        yard = table.courtyard
        assert yard is not None
        if table.holds(person.id):
            raise ServiceError("bad_request", "courtyard_in_already", 409)
        if any(who.id in apart for who in _everyone(table)):
            raise ServiceError("bad_request", "people_forbidden", 403)
        if table.status == "waiting" and table.free_seats():
            raise ServiceError("bad_request", "courtyard_seat_free", 409)
        if len(yard.queue) >= yard.waiting_max:
            raise ServiceError("bad_request", "courtyard_queue_full", 409, n=yard.waiting_max)
        queue = (*yard.queue, person)
        gone = tuple(p for p in yard.gone if p != person.id)
        # between two games, a seat of the next one nobody came for is his at once
        table, rotated = refilled(
            replace(table, courtyard=replace(yard, queue=queue, gone=gone)), _round(table))
        event: QueueEvent = {"type": "queue", "round": _round(table), "player": person.name,
                             "joined": True, "position": _place(table, person.id)}
        events: list[TableEvent] = [event] if rotated is None else [event, rotated]
        return Step(table, events, clock="keep")

    return apply


def queue_out(player: Person) -> Callable[[Table], Step]:
    """`player` leaves the queue (or, once the last game has decided the next one's four,
    his place among them, which the first waiting takes). 409 when he waits for nothing."""

    def apply(table: Table) -> Step:
        _yard(table)
        yard = table.courtyard
        assert yard is not None
        if not yard.queued(player.id) and not yard.coming(player.id):
            raise ServiceError("bad_request", "courtyard_not_queued", 409)
        out, rotated = without(table, player.id, _round(table))
        event: QueueEvent = {"type": "queue", "round": _round(table), "player": player.name,
                             "joined": False, "position": None}
        events: list[TableEvent] = [event] if rotated is None else [event, rotated]
        return Step(out, events, clock="keep")

    return apply


async def join_queue(store: LiveStore, person: Person, table_id: str,
                     apart: Collection[int] = ()) -> tuple[int, Change]:
    """Apply `queue_in`; his place in the queue (1: first; 0: a seat of the next game was
    free, he sits it) and the change. At a rated table
    his rated seat is taken first (and given back if he does not get in)."""
    table = await loaded(store, table_id)
    rated = RatedSeats(store) if table.rated and not table.holds(person.id) else None
    if rated is not None:
        await rated.take([person.id], table_id)
    try:
        change = await transact(store, table_id, queue_in(person, apart))
    except ServiceError:
        if rated is not None and not (await loaded(store, table_id)).holds(person.id):
            await rated.give_up(person.id, table_id)
        raise
    assert change is not None
    await seated.note(store, [person], table_id, now_ms())
    return _place(change.table, person.id), change


def _place(table: Table, player_id: int) -> int:
    """His place in the courtyard's queue (1: first); 0 among the next game's four."""
    yard = table.courtyard
    assert yard is not None
    if yard.coming(player_id):
        return 0
    return 1 + [who.id for who in yard.queue].index(player_id)


async def leave_queue(store: LiveStore, player: Person, table_id: str) -> Change:
    change = await transact(store, table_id, queue_out(player))
    assert change is not None
    return change


def withdrawal(player: Person, resigns: Command) -> Command:
    """A player leaves a courtyard table (`POST .../leave`): during its game he resigns
    (`resigns`) and sits neither the next game nor waits; after it, he leaves his place
    among the next four or in the queue. Before the first game, as at any table."""

    def apply(table: Table) -> Step | Remove | None:
        yard = table.courtyard
        assert yard is not None
        if table.status == "playing" and table.seat_of(player.id) is not None:
            step = resigns(table)
            assert isinstance(step, Step)
            gone = replace(yard, gone=(*yard.gone, player.id),
                           queue=tuple(w for w in yard.queue if w.id != player.id))
            return replace(step, table=replace(step.table, courtyard=gone))
        return queue_out(player)(table)

    return apply


def coming_in(table: Table) -> list[Person]:
    """Who sits down at a courtyard's next game, decided by the last one's end, and did not
    sit that one: the waiting who come in (each sat down, `since`, at the next game)."""
    yard = table.courtyard
    if yard is None or yard.next is None or table.status != "finished":
        return []
    return [who for seat, who in enumerate(yard.next)
            if who is not None and yard.since[seat] == yard.games + 1]


def sits_there(table: Table | None, player_id: int) -> bool:
    """Whether `player_id` sits a courtyard's game: the next one, once the last has decided
    it, else the one being played (or waited for)."""
    if table is None or table.courtyard is None or not table.holds(player_id):
        return False
    people = table.seats if table.courtyard.next is None else table.courtyard.next
    return any(who is not None and who.id == player_id for who in people)


class Teller(Protocol):
    """Keeps a notice for players and sends it to their sockets on every process
    (app.services.fanout.notices.PlayerNotices)."""

    async def tell(self, player_ids: list[int], message: CourtyardSeated) -> None: ...


async def tell_seated(notices: Teller, table: Table,
                      names: Collection[str] | None = None) -> None:
    """Tell those coming in for a courtyard's next game (`coming_in`; those of `names`
    only, when given) that their table is ready: kept until each is at it. Telling again
    is harmless (the same notice)."""
    people = [who for who in coming_in(table) if names is None or who.name in names]
    if people:
        assert table.courtyard is not None
        await notices.tell([who.id for who in people], {
            "type": "courtyard.seated", "table_id": table.id, "game": table.courtyard.games + 1})


async def tell_rotated(notices: Teller, change: Change | None) -> None:
    """`tell_seated` after a change that decided a courtyard's next four anew (its
    `courtyard` event): between two games one of them gave his place up, or a seat nobody
    came for was free, and the first waiting took it. A game's end is told by the results
    writer, which every game's end reaches (a leave that ends one tells it here too)."""
    if change is None or not change.written or not change.table.log:
        return
    coming = [name for event in change.table.log[-1].events if event["type"] == "courtyard"
              for name in event["coming"]]
    if coming:  # (those it brought in, not the others again)
        await tell_seated(notices, change.table, coming)
