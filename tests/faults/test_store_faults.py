"""Faults of the stores under real server processes: a private Redis (with AOF) that the
test restarts and takes away, and a database that disappears under a running server.

Players must not pay for any of it: no acknowledged move lost, no change missed after
Redis comes back, no timeout while moves were refused, and "try again" (`unavailable`)
instead of "your message is wrong" while a store is unreachable.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import subprocess
import time
from pathlib import Path

import asyncpg
import httpx
import jwt
import redis.asyncio as aioredis

from tests.e2e.client import Message, Player, register
from tests.e2e.game import Seated, seat_players
from tests.faults.games import fault_env, played_fairly_to_the_end
from tests.faults.stores import PrivateRedis, database_value, saved_snapshot
from tests.servers import PG_ADMIN_DSN, Server, database_url, run_server


async def current(server: Server, table_id: str) -> Message:
    probe = await Player(server.ws_url).connect()
    state = await probe.request({"type": "table.subscribe", "table_id": table_id})
    await probe.close()
    return state


async def move_for(seated: Seated, seat: int, state: Message) -> Message:
    """The seat's move on `state`, sent until the store takes it (`unavailable`: again)."""
    legal = state["view"]["legal"] if state["view"]["you"] == seat else None
    if not legal:
        mine = await seated.players[seat].request(
            {"type": "table.subscribe", "table_id": seated.table_id})
        legal = mine["view"]["legal"]
    move = {"type": "play", "table_id": seated.table_id, "tile": legal[0]["tile"],
            "end": legal[0]["end"], "seq": state["seq"]}
    for _ in range(100):
        reply = await seated.players[seat].request(move, timeout=30)
        if reply.get("code") != "unavailable":
            return reply
        await asyncio.sleep(reply.get("retry_ms", 500) / 1000)
    raise AssertionError("the move was never taken")


async def test_a_redis_restart_mid_game_costs_no_move_and_no_update(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url)
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        seated = await seat_players([first, second])
        before = await current(first, seated.table_id)
        private_redis.kill()
        private_redis.start()
        # Right after the restart one player moves, before the processes have necessarily
        # subscribed again: everyone must still be shown the move.
        seat = before["view"]["turn"]
        reply = await move_for(seated, seat, before)
        assert reply["type"] == "table.state", reply
        assert reply["seq"] == before["seq"] + 1
        for player in [*seated.players, seated.spectator]:
            await player.expect(
                lambda m: m["type"] == "table.state" and m["seq"] >= before["seq"] + 1,
                timeout=10)
        # And the game goes on to its end, everyone in step, nobody timed out.
        await played_fairly_to_the_end([(seated.table_id, seated.players)], random.Random(3),
                                       timeout=120)


async def test_clocks_wait_while_redis_is_away_and_moves_are_refused_as_unavailable(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url)
    with run_server(env, log_dir=tmp_path) as server:
        seated = await seat_players([server], turn_seconds=5)
        state = await current(server, seated.table_id)
        seat = state["view"]["turn"]
        mine = await seated.players[seat].request(
            {"type": "table.subscribe", "table_id": seated.table_id})
        private_redis.kill()
        away_until = time.monotonic() + 7  # longer than the whole turn
        legal = mine["view"]["legal"][0]
        refused = await seated.players[seat].request(
            {"type": "play", "table_id": seated.table_id, "tile": legal["tile"],
             "end": legal["end"], "seq": mine["seq"]}, timeout=30)
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        assert refused["retry_ms"] > 0
        await asyncio.sleep(max(0.0, away_until - time.monotonic()))
        private_redis.start()
        back = time.time() * 1000
        # His turn is his again, in full: he is told so, and his move goes through.
        resumed = await seated.players[seat].expect(
            lambda m: m["type"] == "table.state" and m["seq"] > mine["seq"], timeout=30)
        assert resumed["view"]["status"] == "playing"
        assert resumed["view"]["turn"] == seat
        assert [e["type"] for e in resumed["events"]] == ["clock"]
        assert resumed["view"]["deadline"] >= back + 4000
        reply = await move_for(seated, seat, resumed)
        assert reply["type"] == "table.state", reply
        assert not [e for e in reply["events"] if e["type"] == "timeout"]


async def test_sign_in_without_the_database_says_try_again(
    redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    name = f"domino_gone_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(PG_ADMIN_DSN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    env = {"DOMINO_DATABASE_URL": database_url(name), "DOMINO_REDIS_URL": redis_url,
           "DOMINO_REDIS_PREFIX": f"{redis_prefix}_gone"}
    try:
        with run_server(env, log_dir=tmp_path) as server:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                account = await register(http)
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            # The session cache knows the session: no database needed.
            player = await Player(server.ws_url).connect()
            reply = await player.request({"type": "hello", "token": account.token})
            assert reply["type"] == "welcome", reply
            await player.close()
            # A session the cache has lost must be read from the database: try again.
            sid = jwt.decode(account.token, options={"verify_signature": False})["sid"]
            cache = aioredis.from_url(redis_url)
            await cache.delete(f"{redis_prefix}_gone:session:{sid}")
            await cache.aclose()
            player = await Player(server.ws_url).connect()
            reply = await player.request({"type": "hello", "token": account.token})
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
            # The socket stays open, so the client can say hello again.
            assert (await player.request({"type": "ping"}))["type"] == "pong"
            await player.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def test_a_running_game_that_vanishes_from_the_store_is_announced(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url)
    with run_server(env, log_dir=tmp_path) as server:
        seated = await seat_players([server])
        await seated.first_playing_state()
        # A game with no snapshot to restore it from (its copy in the database is lost too).
        await saved_snapshot(pg_url, seated.table_id)
        await database_value(
            pg_url, "DELETE FROM live_snapshots WHERE table_id = $1", seated.table_id)
        # What a Redis without persistence does on restart: everything is gone.
        subprocess.run(["redis-cli", "-p", str(private_redis.port), "flushall"], check=True)
        gone = time.monotonic()
        for player in [*seated.players, seated.spectator]:
            await player.expect(
                lambda m: m["type"] == "table.removed" and m["table_id"] == seated.table_id,
                timeout=10)
        # Noticed at the next heartbeat (1 s here) and announced at once.
        assert time.monotonic() - gone < 5
