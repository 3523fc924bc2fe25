"""Finishing in-process: services play a game to its end; the result is written exactly
once, after failures too, and a fresh process picks up what is left."""

from __future__ import annotations

import random
import secrets
from pathlib import Path

import pytest

from app.db.session import Database, migrate
from app.live.store import LiveStore, connect
from app.services.accounts.credentials import PlayerRef, register
from app.services.durable.finish import Finisher
from app.services.durable.results import written_game_ids
from app.services.play import moves
from app.services.tables import lobby
from app.services.tables.transact import ServiceError, build_view, game_of, load


async def test_a_finished_game_is_written_once_even_after_failures(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'finish.db'}"
    await migrate(url)
    db = Database(url)
    store = LiveStore(connect(redis_url), f"{redis_prefix}_finish_{secrets.token_hex(3)}")
    broken = Database("postgresql+asyncpg://nobody@127.0.0.1:1/nothing")
    try:
        async with db.session() as session:
            players: list[PlayerRef] = [
                await register(session, f"f{secrets.token_hex(4)}", "password123")
                for _ in range(2)
            ]
        table = await lobby.create_table(
            store, players[0], lobby.Terms("goat", seats=2, turn_seconds=60, rated=True))
        await lobby.join(store, players[1], table["id"])
        rng = random.Random(7)
        finished = False
        while not finished:
            current = await load(store, table["id"])
            assert current is not None
            game = game_of(current)
            assert game is not None and game.turn is not None
            view = build_view(current, game, game.turn, set())
            move = rng.choice(view["legal"])
            change = await moves.play(
                store, players[game.turn].id, table["id"], move["tile"], move["end"],
                current.version,
            )
            finished = change.finished
        game_id = change.table.game_id
        assert game_id is not None
        assert await store.unwritten() == [table["id"]]
        assert await Finisher(store, broken).write(table["id"]) is False
        assert await store.unwritten() == [table["id"]]  # kept for the next attempt
        # A new process (a restart) sweeps what is left.
        await Finisher(store, db).sweep()
        assert await store.unwritten() == []
        assert await written_game_ids(db, [game_id]) == {game_id}
        with pytest.raises(ServiceError) as refused:
            await moves.play(store, players[0].id, table["id"], "1-1", None, change.version)
        assert refused.value.code == "game_over"
    finally:
        await broken.dispose()
        await db.dispose()
        await store.close()
