"""A courtyard table's next game (PROTOCOL §2d).

The write that ends a game decides the next one's four (app.services.tables.rotation, from
`seal`). The next game starts once the round pause is over and the game that ended is in
the database: the results writer, once it has written it, and the clock, at the pause's end,
both try `next_game`, by compare-and-set on the ended game's id, so it starts once whoever
gets there (and the finished game is never overwritten before it is written).

A next game that waits for a player (a seat nobody came for) waits as long as a new table
may (`waiting_table_seconds`, app.services.tables.caps): its `deadline` says until when,
and the clock then removes it (`lapsed`), as the caps' sweep removes a new table nobody
filled. Without it a courtyard whose people stay at it, fewer than four, would wait forever.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from app.config import settings
from app.live.store import LiveStore
from app.services.tables.deal import Deal, begin
from app.services.tables.table import REMOVE, Remove, Step, Table
from app.services.tables.transact import Change, Command, ServiceError, now_ms, transact

log = logging.getLogger(__name__)


def next_game(game_id: str, now: int, deal: Deal, written: bool = False) -> Command:
    """The next game of a courtyard table whose game `game_id` ended: it starts with the
    four the end decided once the round pause is over and that game is in the database
    (`written`: the results writer says so, which is kept). A seat nobody came for leaves
    the table waiting for a player to join; nobody at all, and the table goes. Nothing for
    any other table, or once the next game has started."""
    waits_until = now + int(settings.waiting_table_seconds * 1000)

    def apply(table: Table) -> Step | Remove | None:
        yard = table.courtyard
        if yard is None or table.game_id != game_id or table.status != "finished" \
                or yard.next is None:
            return None
        done = yard.written or written
        due = table.next_round_at is None or table.next_round_at <= now
        if not done or not due:
            if done == yard.written:
                return None
            return Step(replace(table, courtyard=replace(yard, written=True)), [],
                        clock="keep")
        seats = yard.next
        people = [who for who in seats if who is not None]
        if not people and not yard.queue:
            return REMOVE
        fresh = replace(yard, next=None, written=False)
        table = replace(table, seats=seats, courtyard=fresh, game=None, game_id=None,
                        started_at=None, finished_at=None, rematch=None, unrated_reason=None,
                        next_round_at=None, deadline=None, stand_ins=(), moved=None,
                        reserve_ms=None, status="waiting")
        if len(people) < table.players:  # it waits for a player, not for ever
            return Step(replace(table, deadline=waits_until), [])
        # every reserve whole again: nothing of the last game's clock is carried over
        return replace(begin(table, deal), clock="restart")

    return apply


def lapsed(now: int) -> Command:
    """A courtyard waiting again for a player after a game goes once its wait is over (its
    `deadline`, set by `next_game`); nothing before, or at any other table."""

    def apply(table: Table) -> Remove | None:
        if table.courtyard is None or table.status != "waiting" or table.deadline is None \
                or table.deadline > now:
            return None
        return REMOVE

    return apply


async def start_next(store: LiveStore, table_id: str, game_id: str, written: bool
                     ) -> Change | None:
    """Apply `next_game` (the results writer: `written`); the change when one was made."""
    try:
        change = await transact(store, table_id, next_game(game_id, now_ms(), Deal.fresh(),
                                                           written))
    except ServiceError as error:
        if error.code == "not_found":
            return None
        raise
    if change is None or not change.written:
        return None
    if change.table.status == "playing":
        log.info("courtyard table %s: game %s started", table_id,
                 change.table.courtyard.games if change.table.courtyard else "?")
    return change
