"""A table's log and a finished game's positions are replayed once and kept for every
process (app/live/blobs.py): on two processes sharing Redis, the kept answer is the fresh
replay's, the other process serves it without replaying, and a move makes a new one."""

from __future__ import annotations

import asyncio
import gzip
import random
from collections.abc import AsyncIterator

import httpx
import orjson
import pytest

from app.engine import replay_positions
from app.live.store import LiveStore, connect
from app.services.play.game_log import game_log
from tests.e2e.client import autoplay
from tests.e2e.game import play_game, seat_players
from tests.servers import Server


@pytest.fixture
async def store(redis_url: str, redis_prefix: str) -> AsyncIterator[LiveStore]:
    client = connect(redis_url)
    yield LiveStore(client, f"{redis_prefix}_pair")  # the pair's (tests/e2e/conftest.py)
    await client.aclose()


async def _kept(store: LiveStore, kind: str, name: str) -> tuple[bytes, bytes]:
    """The tag and the JSON kept for `name` (read as the cache keeps it: gzip bytes)."""
    found = await store.redis.execute_command(
        "GET", f"{store.keys.prefix}:cache:{{{kind}}}:{name}", NEVER_DECODE=True)
    assert found is not None
    tag, _, body = bytes(found).partition(b"\n")
    return tag, gzip.decompress(body)


async def _plant(store: LiveStore, kind: str, name: str, tag: bytes, value: object) -> None:
    await store.redis.set(f"{store.keys.prefix}:cache:{{{kind}}}:{name}",
                          tag + b"\n" + gzip.compress(orjson.dumps(value)))


async def test_a_tables_log_is_replayed_once_a_version_for_both_processes(
    server_pair: tuple[Server, Server], store: LiveStore,
) -> None:
    first, second = server_pair
    seated = await seat_players(list(server_pair), seats=2, rated=False, variant="classic")
    table_id, players = seated.table_id, seated.players

    def moved(n: int):
        return lambda state: state["seq"] >= n

    async def play_until(seq: int) -> None:
        await asyncio.gather(*(autoplay(p, table_id, random.Random(i), stop=moved(seq),
                                        timeout=30) for i, p in enumerate(players)))

    await play_until(4)
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        answer = await a.get(f"/api/tables/{table_id}/log")
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
        fresh = await game_log(store, table_id)
        assert fresh is not None and answer.json() == fresh.to_dict()
        assert len(fresh.events) > 2
        tag, kept = await _kept(store, "table-log", table_id)
        assert tag == f"{fresh.version}:{fresh.game_id}".encode()
        assert orjson.loads(kept) == fresh.to_dict()
        # The other process answers what is kept for this version, without a replay.
        await _plant(store, "table-log", table_id, tag, {"kept": "for this version"})
        assert (await b.get(f"/api/tables/{table_id}/log")).json() == {
            "kept": "for this version"}
        # A move: a new version, replayed once more, for both processes.
        await play_until(fresh.version + 1)
        moved_on = await game_log(store, table_id)
        assert moved_on is not None and moved_on.version > fresh.version
        assert len(moved_on.events) > len(fresh.events)
        for http in (b, a):
            again = await http.get(f"/api/tables/{table_id}/log")
            assert again.json() == moved_on.to_dict()
        # A client that takes no gzip gets the same JSON.
        plain = await a.get(f"/api/tables/{table_id}/log",
                            headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert orjson.loads(plain.content) == moved_on.to_dict()
        assert (await b.get("/api/tables/nosuch/log")).status_code == 404
    for p in [*players, seated.spectator]:
        await p.close()


async def test_a_finished_games_positions_are_computed_once_for_both_processes(
    server_pair: tuple[Server, Server], store: LiveStore,
) -> None:
    first, second = server_pair
    game = await play_game(list(server_pair), seats=2, rated=False, variant="classic")
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        record = (await a.get(f"/api/games/{game.game_id}")).json()
        answer = await a.get(f"/api/games/{game.game_id}/positions")
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
        assert answer.json()["positions"] == replay_positions(record)
        assert answer.json()["game_id"] == game.game_id
        assert answer.json()["bots"] == [None, None]
        tag, kept = await _kept(store, "positions", game.game_id)
        assert orjson.loads(kept) == answer.json()
        await _plant(store, "positions", game.game_id, tag, {"kept": "once"})
        assert (await b.get(f"/api/games/{game.game_id}/positions")).json() == {"kept": "once"}
        missing = await b.get("/api/games/no-such-game/positions")
        assert missing.status_code == 404
        assert await store.redis.exists(
            f"{store.keys.prefix}:cache:{{positions}}:no-such-game") == 0
    for p in [*game.players, game.spectator]:
        await p.close()
