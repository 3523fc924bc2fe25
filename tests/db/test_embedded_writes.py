"""The embedded database (SQLite) does not contend with itself: snapshots of running games
saved at the same moment queue for the one writer instead of failing with "database is
locked" (WAL lets readers on meanwhile; the busy timeout bounds the wait)."""

from __future__ import annotations

import asyncio
import random

from sqlalchemy import text

from app.db.session import Database
from app.services import play
from app.services.recovery import Recovery, rounds_over
from tests.live.test_hot_state import goat_table


async def test_snapshots_saved_at_once_all_succeed(
    db: Database, redis_url: str, redis_prefix: str
) -> None:
    async with goat_table(redis_url, redis_prefix) as (store, feed, seats, table_id):
        rng = random.Random(1)
        while True:  # a round over, so that a save reads what is saved before it writes
            known = feed.latest(table_id)
            assert known is not None and known.game is not None
            game = known.game
            assert game.turn is not None
            move = rng.choice(game.legal_for(game.turn))
            change = await play.play(store, seats[game.turn].id, table_id, move["tile"],
                                     move["end"], known.version, known.table,
                                     known.take_game())
            if rounds_over(change.table) >= 1:
                break
        recovery = Recovery(store, db)
        for _ in range(10):
            await store.snapshots_due([table_id])
            saved = await asyncio.gather(
                *(recovery.save_due() for _ in range(3)),
                *(recovery.restore(table_id) for _ in range(3)),  # reads meanwhile
                *(Recovery(store, db)._save(table_id) for _ in range(6)),
                return_exceptions=True,
            )
            assert not [s for s in saved if isinstance(s, BaseException)], saved
        if db.url.startswith("sqlite"):
            async with db.engine.connect() as conn:
                mode = await conn.scalar(text("PRAGMA journal_mode"))
                waits = await conn.scalar(text("PRAGMA busy_timeout"))
            assert mode == "wal" and waits >= 5000
