"""Tables to try commands on, made by the services' own pure functions (no store)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from app.services.tables.bot_seats import bot_entry
from app.services.tables.lobby import Deal, Terms, new_table, seating
from app.services.tables.table import Person, Step, Table
from app.services.tables.transact import Command, seal

NOW = 1_700_000_000_000
PEOPLE = [Person(n + 1, f"p{n + 1}") for n in range(4)]
DEAL = Deal(b"\x07" * 32, "game-1", NOW)


def written(current: Table, step: Step | object, now: int = NOW) -> Table:
    """The table `step` makes of `current`, as `transact` would store it."""
    assert isinstance(step, Step), step
    return seal(current, step, now).table


def applied(current: Table, command: Command, now: int = NOW) -> Table:
    return written(current, command(current), now)


def waiting(terms: Terms | None = None, taken: int = 1) -> Table:
    """A waiting table made by p1 (goat for four unless `terms` say), with p1.. in the first
    `taken` seats, as stored (version 1, then one more a seat)."""
    terms = terms or Terms("goat", seats=4, options={}, rated=False, on_timeout="end",
                           reserve_seconds=0)
    table = new_table("t1", PEOPLE[0], terms, (PEOPLE[0], *[None] * (terms.seats - 1)), NOW)
    table = replace(table, version=1)
    for n in range(1, taken):
        table = applied(table, seating(_always(PEOPLE[n]), None, DEAL))
    return table


def _always(who: Person) -> Callable[[int], Person]:
    return lambda _seat: who


def playing(terms: Terms | None = None, bots: tuple[int, ...] = ()) -> Table:
    """A table whose game has just begun (every seat taken; bots in the seats `bots`)."""
    table = waiting(terms)
    for seat in range(1, table.players):
        who = bot_entry("heuristic", seat) if seat in bots else PEOPLE[seat]
        table = applied(table, seating(_always(who), seat, DEAL))
    assert table.status == "playing"
    return table
