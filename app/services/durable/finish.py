"""Writing finished games to the database, at least once and in the end exactly once.

The live write that ends a game also puts its table in the store's "finished, not yet
written" set. This writer stores the record (`write_result`, idempotent on the game id)
and only then takes the table out of the set; a failure leaves it there for the next
sweep, and a restarted process picks up whatever is left.

A courtyard's game goes on (PROTOCOL §2d): those its end brought in for the next game are
told first (a kept notice), and the next game may start once this one is written.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime

from app import logs, metrics
from app.db.session import Database
from app.engine import game_from_dict
from app.live.store import LiveStore
from app.services.durable.results import FinishedGame, write_result
from app.services.tables.courtyard import Teller, tell_seated
from app.services.tables.fairness import pays_ratings, with_reason
from app.services.tables.next_game import start_next
from app.services.tables.transact import FINISHED_KEEP_SECONDS, full_game_dict, load

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


def _when(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


class Finisher:
    def __init__(self, store: LiveStore, db: Database, notices: Teller | None = None) -> None:
        self.store = store
        self.db = db
        # who comes in for a courtyard's next game is told (None: nobody is, in some tests)
        self.notices = notices
        self._tasks: set[asyncio.Task[bool]] = set()
        self._next_try: dict[str, float] = {}

    def kick(self, table_id: str) -> None:
        """Write this table's game now, in the background (the sweep retries failures)."""
        metrics.games_finished.inc()
        task = asyncio.create_task(self.write(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def write(self, table_id: str) -> bool:
        try:
            table = await load(self.store, table_id)
            stored = None if table is None else table.game
            if table is None or stored is None or table.status != "finished" \
                    or table.game_id is None:
                if table is not None and table.courtyard is not None:
                    # its game was written and the next one started (PROTOCOL §2d)
                    await self.store.redis.srem(self.store.keys.unwritten, table_id)
                    return False
                log.error("unwritten table %s has no finished game; dropping it", table_id)
                await self.store.redis.srem(self.store.keys.unwritten, table_id)
                return False
            if self.notices is not None:  # every game's end, at least once (a courtyard's)
                await tell_seated(self.notices, table)
            seats = [who for who in table.seats if who is not None]
            if len(seats) != table.players:
                raise ValueError(f"finished table {table_id} has an empty seat")
            logs.table_id.set(table_id)
            logs.game_id.set(table.game_id)
            game = game_from_dict(await full_game_dict(self.store, table_id, stored))
            record = game.record([who.name for who in seats])
            record["result"] = with_reason(record.get("result"), table)
            await write_result(self.db, FinishedGame(
                game_id=table.game_id,
                table_id=table_id,
                record=record,
                # only a game among people pays ratings and leaderboard points
                rated=pays_ratings(table),
                # a bot's seat is nobody's: it is never paid and never rated
                player_ids=[None if who.is_bot else who.id for who in seats],
                started_at=_when(table.started_at),
                finished_at=_when(table.finished_at) or datetime.now(UTC),
            ))
            if table.courtyard is not None:
                # A courtyard goes on: its next game may start now that this one is written
                # (PROTOCOL §2d), and the table is kept.
                await start_next(self.store, table_id, table.game_id, written=True)
                await self.store.mark_written(table_id, None)
            else:
                await self.store.mark_written(table_id, FINISHED_KEEP_SECONDS)
            log.info("game result written")
            self._next_try.pop(table_id, None)
            return True
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if metrics.count_error(error):  # a store is away: expected, retried, no traceback
                log.warning("writing the result of table %s failed (%r); will retry",
                            table_id, error)
            else:
                log.exception("writing the result of table %s failed; will retry", table_id)
            self._next_try[table_id] = time.monotonic() + RETRY_SECONDS
            return False

    async def sweep(self) -> None:
        """Write every finished game still waiting (after a failure, a crash, a restart)."""
        now = time.monotonic()
        for table_id in await self.store.unwritten():
            if self._next_try.get(table_id, 0.0) <= now:
                await self.write(table_id)

    async def stop(self) -> None:
        for task in list(self._tasks):
            try:
                await asyncio.wait_for(asyncio.shield(task), 5)
            except Exception:
                task.cancel()
