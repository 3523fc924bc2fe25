"""A running game's snapshot writes each round that is over once, not again at every later
round's start, and a table the live store lost comes back from it with every round."""

from __future__ import annotations

import random

from sqlalchemy import select, update

from app.db.models import LiveSnapshotRound
from app.db.session import Database
from app.services.durable.recovery import Recovery, rounds_over
from app.services.play import moves
from app.services.tables.transact import full_game_dict, load
from tests.live.test_hot_state import goat_table


async def saved_rounds(db: Database, table_id: str) -> list[tuple[int, dict[str, object]]]:
    async with db.session() as session:
        rows = await session.execute(
            select(LiveSnapshotRound.number, LiveSnapshotRound.data)
            .where(LiveSnapshotRound.table_id == table_id)
            .order_by(LiveSnapshotRound.number))
        return [(number, data) for number, data in rows]


async def test_each_round_over_is_saved_once_and_a_lost_table_comes_back_with_all(
    db: Database, redis_url: str, redis_prefix: str
) -> None:
    async with goat_table(redis_url, redis_prefix) as (store, feed, seats, table_id):
        recovery = Recovery(store, db)
        rng = random.Random(5)
        over = 0
        while over < 3:
            known = feed.latest(table_id)
            assert known is not None and known.game is not None
            game = known.game
            assert game.status == "playing" and game.turn is not None, "a game of 4 rounds"
            move = rng.choice(game.legal_for(game.turn))
            change = await moves.play(store, seats[game.turn].id, table_id, move["tile"],
                                     move["end"], known.version, known.table,
                                     known.take_game())
            await recovery.save_due()
            if rounds_over(change.table) > over:
                over = rounds_over(change.table)
                archive = await store.archived_rounds(table_id)
                saved = [(n, {k: v for k, v in data.items() if k != "kept"})
                         for n, data in await saved_rounds(db, table_id)]
                assert saved == list(enumerate(archive))
                if over == 1:
                    # Were a later snapshot to write the first round again, this mark would go.
                    async with db.session() as session, session.begin():
                        await session.execute(
                            update(LiveSnapshotRound).where(LiveSnapshotRound.number == 0)
                            .values(data={**archive[0], "kept": True}))
        rows = await saved_rounds(db, table_id)
        assert [n for n, _ in rows] == [0, 1, 2]
        assert rows[0][1].get("kept") is True
        # The store loses the table right after the snapshot of the fourth round's deal.
        latest = await load(store, table_id)
        assert latest is not None and latest.game is not None
        before = await full_game_dict(store, table_id, latest.game)
        await store.redis.delete(store.keys.table(table_id), store.keys.rounds(table_id))
        async with db.session() as session, session.begin():
            await session.execute(
                update(LiveSnapshotRound).where(LiveSnapshotRound.number == 0)
                .values(data=before["rounds"][0]))
        assert await recovery.restore(table_id)
        restored = await load(store, table_id)
        assert restored is not None and restored.game is not None
        after = await full_game_dict(store, table_id, restored.game)
        assert after == before
        assert len(after["rounds"]) == 4


async def test_a_new_games_first_snapshot_drops_the_rounds_of_the_tables_last_game(
    db: Database, redis_url: str, redis_prefix: str
) -> None:
    async with goat_table(redis_url, redis_prefix) as (store, _feed, _seats, table_id):
        async with db.session() as session, session.begin():
            session.add(LiveSnapshotRound(table_id=table_id, game_id="the-last-game", number=0,
                                          data={"moves": []}))
        assert len(await saved_rounds(db, table_id)) == 1
        assert await Recovery(store, db).save_due() == 1  # the new game's first copy
        assert await saved_rounds(db, table_id) == []
