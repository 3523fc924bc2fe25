"""The reviews' queue in the database (app/db/reviews.py): one row per game, a lease that a
dead worker's review is taken again after, and a result stored only by the lease's holder."""

from __future__ import annotations

from app.db import reviews
from app.db.session import Database
from tests.reviewed import finished_record, store_finished


async def test_a_lapsed_lease_goes_to_another_worker_and_the_first_stores_nothing(
    db: Database,
) -> None:
    game_id = await store_finished(db, finished_record("classic", ["a", "b"], 4), [None, None])
    async with db.writing() as session:
        await reviews.ask(session, game_id, 1_000)
        await reviews.ask(session, game_id, 2_000)  # asked twice: still one review
    async with db.writing() as session:
        assert await reviews.take(session, "first", 10_000, 5_000) == (game_id, 1)
    async with db.writing() as session:  # held: nobody else takes it
        assert await reviews.take(session, "second", 14_000, 5_000) is None
        assert await reviews.renew(session, game_id, "first", 1, 0.5, 20_000)
    async with db.writing() as session:  # its lease runs out: taken again
        assert await reviews.take(session, "second", 20_001, 5_000) == (game_id, 2)
    async with db.writing() as session:
        assert not await reviews.renew(session, game_id, "first", 1, 0.7, 30_000)
        assert not await reviews.store(session, game_id, "first", 1, {"late": True}, 21_000)
        assert await reviews.store(session, game_id, "second", 2, {"found": True}, 22_000)
    async with db.session() as session:
        row = await reviews.find(session, game_id)
        assert row is not None
        assert (row.status, row.progress, row.attempts, row.result) == (
            "done", 1.0, 2, {"found": True})
        assert await reviews.waiting(session) == 0
    async with db.writing() as session:  # a done review is never taken again
        assert await reviews.take(session, "third", 10**12, 5_000) is None


async def test_a_stopping_worker_gives_its_review_back(db: Database) -> None:
    game_id = await store_finished(db, finished_record("classic", ["a", "b"], 5), [None, None])
    async with db.writing() as session:
        await reviews.ask(session, game_id, 1_000)
    async with db.writing() as session:
        assert await reviews.take(session, "first", 10_000, 60_000) == (game_id, 1)
        await reviews.give_back(session, game_id, "first", 1)
    async with db.writing() as session:
        assert await reviews.take(session, "second", 10_001, 60_000) == (game_id, 2)
