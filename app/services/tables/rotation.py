"""A courtyard table's rotation as the write that ends a game makes it (PROTOCOL §2d):
the next game's four decided by app.domain.courtyard, and the table's `courtyard` fields
the table object shows."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from app.domain.courtyard import Rotation, fill, rotate
from app.services.tables.events import CourtyardEvent
from app.services.tables.table import Courtyard, Person, Table
from app.wire.courtyard import CourtyardView
from app.wire.messages import TableInfo


def _people(table: Table, yard: Courtyard) -> list[Person | None]:
    """The seats of the game that ended by whose they are: a computer player holding a
    person's seat holds it for him; a player who left the table has none."""
    stood_in = {s.seat: s.person for s in table.stand_ins}
    seats = [stood_in.get(seat, who) for seat, who in enumerate(table.seats)]
    return [None if who is None or who.id in yard.gone else who for who in seats]


def _names(people: Collection[Person | None]) -> list[str | None]:
    return [None if who is None else who.name for who in people]


def after_game(table: Table, losers: Collection[int], round_: int
               ) -> tuple[Table, CourtyardEvent]:
    """The finished game's table with the next game's four decided (`courtyard.next`), the
    queue after it, and the event that tells it."""
    yard = table.courtyard
    assert yard is not None
    turned = rotate(_people(table, yard), yard.queue, losers, yard.since, yard.games + 1)
    return _decided(table, yard, turned, round_)


def _decided(table: Table, yard: Courtyard, turned: Rotation[Person], round_: int
             ) -> tuple[Table, CourtyardEvent]:
    decided = replace(yard, queue=turned.queue, since=turned.since, next=turned.seats,
                      written=yard.written, gone=())
    event: CourtyardEvent = {
        "type": "courtyard", "round": round_,
        "leaving": [who.name for who in turned.leaving],
        "coming": [who.name for who in turned.coming],
        "next": _names(turned.seats), "game": yard.games + 1,
    }
    return replace(table, courtyard=decided), event


def without(table: Table, player_id: int, round_: int
            ) -> tuple[Table, CourtyardEvent | None]:
    """The courtyard table without `player_id` in its queue or among the next game's four
    (whose seat the first waiting then takes); the event when the next four changed."""
    yard = table.courtyard
    assert yard is not None
    queue = tuple(who for who in yard.queue if who.id != player_id)
    if yard.next is None or not yard.coming(player_id):
        return replace(table, courtyard=replace(yard, queue=queue)), None
    seats = [None if who is not None and who.id == player_id else who for who in yard.next]
    turned = fill(seats, queue, yard.since, yard.games + 1)
    return _decided(table, replace(yard, queue=queue), turned, round_)


def refilled(table: Table, round_: int) -> tuple[Table, CourtyardEvent | None]:
    """Between two games, the seats of the next game nobody holds taken by the first
    waiting; the event when the next four changed."""
    yard = table.courtyard
    assert yard is not None
    if yard.next is None or None not in yard.next or not yard.queue:
        return table, None
    return _decided(table, yard, fill(yard.next, yard.queue, yard.since, yard.games + 1),
                    round_)


def courtyard_view(yard: Courtyard) -> CourtyardView:
    """A courtyard's queue, games and next four, as its `table` and its views show them."""
    return {"queue": [who.name for who in yard.queue], "waiting_max": yard.waiting_max,
            "games": yard.games, "next": None if yard.next is None else _names(yard.next)}


def courtyard_fields(table: Table, info: TableInfo) -> None:
    """PROTOCOL §2d's fields of a courtyard table's `table` object, added to `info`."""
    yard = table.courtyard
    if yard is None:
        return
    shown = courtyard_view(yard)
    info["courtyard"] = True
    info["queue"] = shown["queue"]
    info["waiting_max"] = shown["waiting_max"]
    info["games"] = shown["games"]
    info["next"] = shown["next"]
