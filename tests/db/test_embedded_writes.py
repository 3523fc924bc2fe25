"""The embedded database (SQLite) does not contend with itself: snapshots of running games
saved at the same moment queue for the one writer instead of failing with "database is
locked" (WAL lets readers on meanwhile; the busy timeout bounds the wait)."""

from __future__ import annotations

import asyncio
import random

from sqlalchemy import text

from app.db.models import Player
from app.db.session import Database
from app.services.durable.recovery import Recovery, rounds_over
from app.services.gathering import tournaments
from app.services.play import moves
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
            change = await moves.play(store, seats[game.turn].id, table_id, move["tile"],
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


async def test_players_joining_a_tournament_at_once_all_get_in(db: Database) -> None:
    """Each join reads the tournament (open? full?) before it adds its player: on SQLite a
    join that began as a reader fails ("database is locked") when another join commits
    between its read and its write, unless every such transaction is the writer from the
    start (`Database.writing`)."""
    async with db.session() as session, session.begin():
        players = [Player(name=f"j{n}", name_key=f"j{n}", password_hash="-") for n in range(12)]
        session.add_all(players)
    made = await tournaments.create(db, players[0], tournaments.TournamentRequest(
        name="At once", variant="classic", options={}, seats=2, format="swiss", minutes=None,
        rounds=3, turn_seconds=60, round_pause_seconds=0, rated=False, starts_at=None,
        max_players=64, private=False), "embedded")
    for _ in range(3):
        joined = await asyncio.gather(
            *(tournaments.join(db, p, made["id"]) for p in players), return_exceptions=True)
        assert not [j for j in joined if isinstance(j, BaseException)], joined
        assert len((await tournaments.describe(db, made["id"]))["players"]) == len(players)
        left = await asyncio.gather(
            *(tournaments.leave(db, p, made["id"]) for p in players), return_exceptions=True)
        assert not [j for j in left if isinstance(j, BaseException)], left
