"""A player's move through `Route`, the one service the gateway calls for it: applied
where the table is held (relayed there when the mover's socket is on another process,
answered with the version the holder wrote) or here; and a change that ends the game
wakes the results writer, wherever it was made.

Two feeds on two stores of one Redis prefix are two processes here, as in
test_announcements; the database is a real one (SQLite), with real accounts.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.db.session import Database, migrate
from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.services.accounts.credentials import PlayerRef, register
from app.services.durable.finish import Finisher
from app.services.durable.results import written_game_ids
from app.services.fanout.feed import Feed
from app.services.play.relay import Relay
from app.services.play.route import Route
from app.services.tables import lobby
from app.services.tables.transact import ServiceError, game_of, load
from tests.services.test_announcements import Socket, counted, settle


@dataclass
class Process:
    store: LiveStore
    feed: Feed
    relay: Relay
    finisher: Finisher
    route: Route


@pytest.fixture
async def setting(tmp_path: Path, redis_url: str, redis_prefix: str
                  ) -> AsyncIterator[tuple[list[Process], Database]]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'route.db'}"
    await migrate(url)
    db = Database(url)
    prefix = f"{redis_prefix}_route_{secrets.token_hex(3)}"
    made = []
    for n in range(2):
        store = LiveStore(connect(redis_url), prefix)
        hub = Hub(store)
        feed = Feed(store, hub, f"process-{n}")
        await feed.start()
        finisher = Finisher(store, db)
        relay = Relay(store, hub, feed, finisher)
        await relay.start()
        made.append(Process(store, feed, relay, finisher, Route(store, feed, relay, finisher)))
    yield made, db
    for process in made:
        await process.finisher.stop()
        await process.relay.stop()
        await process.feed.stop()
        await process.store.close()
    await db.engine.dispose()


async def test_a_move_is_applied_where_its_table_is_held_and_a_game_it_ends_is_written(
    setting: tuple[list[Process], Database],
) -> None:
    """Seat 0's socket is on the process that holds the table, seat 1's on the other: seat
    0's moves are made where they arrive (answered with the state they made), seat 1's
    are relayed to the holder (answered with the version it wrote; the relaying process
    parses nothing). A stale move is refused, whichever way it goes. The resignation that
    ends the game wakes the results writer at once: the game is in the database with no
    sweep of the unwritten tables."""
    (holder, relaying), db = setting
    async with db.session() as session:
        people: list[PlayerRef] = [
            await register(session, f"r{secrets.token_hex(4)}", "password123")
            for _ in range(2)
        ]
    made = await lobby.create_table(holder.store, people[0],
                                    lobby.Terms("goat", seats=2, options={}, rated=False))
    table_id = made["id"]
    sockets = [Socket(people[0].id), Socket(people[1].id)]
    await holder.feed.subscribe_table(sockets[0], table_id)
    await relaying.feed.subscribe_table(sockets[1], table_id)
    await lobby.join(holder.store, people[1], table_id, 1)
    await counted([holder, relaying], table_id, {0, 1}, 0)
    relayed = here = 0
    while relayed < 2 or here < 2:
        current = await load(holder.store, table_id)
        assert current is not None
        await settle(sockets, current.version)
        game = game_of(current)
        assert game is not None and game.turn is not None and game.status == "playing"
        choice = game.legal_for(game.turn)[0]
        process = holder if game.turn == 0 else relaying
        moved = await process.route.play(people[game.turn].id, table_id, choice["tile"],
                                         choice["end"], current.version, None, None)
        assert moved.version == current.version + 1
        if game.turn == 0:
            assert moved.snapshot is not None and moved.snapshot.version == moved.version
            here += 1
        elif moved.snapshot is None:
            relayed += 1
            shown = relaying.feed.latest(table_id)
            assert shown is not None and not shown.table_parsed
        else:
            # Made here before the relaying process knew who made the last version.
            here += 1
    current = await load(holder.store, table_id)
    assert current is not None
    with pytest.raises(ServiceError) as refused:
        await relaying.route.play(people[1].id, table_id, "0-0", None, current.version - 1,
                                  None, None)
    assert refused.value.code == "stale"
    snapshot = await relaying.route.resign(people[1].id, table_id)
    assert snapshot.version == current.version + 1
    stored = await load(holder.store, table_id)
    assert stored is not None and stored.status == "finished" and stored.game_id is not None
    for _ in range(300):
        if await written_game_ids(db, [stored.game_id]):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the finished game was not written")
    assert await relaying.store.unwritten() == []
