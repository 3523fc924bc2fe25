"""Tables the server makes with their players already seated (a seek's match, a
tournament's pairing): one way for both, and the game starts at once, as when the last
seat of a table is taken."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from app import logs
from app.engine import OptionsError, validate_options
from app.live.keys import new_table_id
from app.live.store import LiveStore
from app.services.tables.caps import RatedSeats
from app.services.tables.events import TableEvent
from app.services.tables.lobby import Deal, Terms, begin, new_table, write_new
from app.services.tables.table import Person, Step, Table
from app.services.tables.transact import Command, ServiceError, now_ms, transact

log = logging.getLogger(__name__)


def seated_start(deal: Deal) -> Command:
    """Start a table made with every seat taken: each seat's join is told, then the deal
    (dealt from `deal`). Nothing to do once it has started."""

    def apply(table: Table) -> Step | None:
        if table.status != "waiting":
            return None
        if table.free_seats():
            raise ServiceError("bad_request", "table_changed_while_made", 409)
        joins: list[TableEvent] = [{"type": "join", "round": 0, "seat": seat, "player": who.name}
                 for seat, who in enumerate(table.seats) if who is not None]
        started = begin(table, deal)
        return Step(started.table, [*joins, *started.events], started.game)

    return apply


async def seat_and_start(
    store: LiveStore,
    players: Sequence[Person],
    terms: Terms,
    *,
    table_id: str | None = None,
) -> str:
    """A new table with `players` seated (in seat order; the first is its creator), its
    game dealt and running; returns its id. `terms.seats` is the number of players.
    `table_id`: the id to use (chosen beforehand, so a tournament can record it first).
    At a rated table every person takes his rated seat first, all or none:
    `RatedGameAlready` names one who sits at another rated table (nothing is made)."""
    try:
        normalized = validate_options(terms.variant, len(players), terms.options)
    except OptionsError as error:
        raise ServiceError.of_engine("bad_request", error, 422) from error
    table = new_table(
        new_table_id() if table_id is None else table_id, players[0],
        replace(terms, seats=len(players), options=normalized), tuple(players), now_ms(),
    )
    if terms.rated:
        await RatedSeats(store).take([p.id for p in players if not p.is_bot], table.id)
    fresh = await write_new(store, table)
    change = await transact(store, table.id, seated_start(Deal.fresh()), known=fresh)
    assert change is not None
    logs.table_id.set(table.id)
    logs.game_id.set(change.table.game_id)
    log.info("game started: %s, %d players seated by the server", terms.variant, len(players))
    return table.id


async def start_seated(store: LiveStore, table_id: str) -> None:
    """Start a table made with every seat taken whose maker stopped before starting it
    (nothing to do once it has started): a full table never waits forever."""
    await transact(store, table_id, seated_start(Deal.fresh()))
