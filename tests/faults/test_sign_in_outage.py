"""A PostgreSQL outage does not cost a seated player his seat: reconnecting, his hello
and his HTTP calls are checked without the database (the session cache), and he plays
on while the database is away and after it is back. And a sign-out whose announcement
was lost in a Redis restart still closes the session's sockets."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import subprocess
from pathlib import Path

import httpx
import jwt
import redis.asyncio as aioredis
import websockets

from tests.e2e.client import Player, autoplay, register
from tests.e2e.game import seat_players
from tests.faults.games import played_fairly_to_the_end
from tests.faults.stores import PrivatePostgres, PrivateRedis
from tests.servers import run_server


async def test_seated_players_reconnect_and_play_on_while_postgresql_is_down(
    private_postgres: PrivatePostgres, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = {
        "DOMINO_DATABASE_URL": private_postgres.url(),
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_pgdown_{secrets.token_hex(3)}",
        "DOMINO_SWEEP_SECONDS": "0.1",
    }
    with run_server(env, log_dir=tmp_path) as server:
        seated = await seat_players([server], turn_seconds=60)
        started = await seated.first_playing_state()
        private_postgres.stop()
        try:
            # Every player's socket drops (a network blip) and comes back while the
            # database is down: each is recognised by his token and keeps his seat.
            for player in seated.players:
                await player.close()
            players = [await Player(server.ws_url, account).connect()
                       for account in seated.accounts]
            for seat, player in enumerate(players):
                state = await player.request(
                    {"type": "table.subscribe", "table_id": seated.table_id})
                assert state["type"] == "table.state", state
                assert state["view"]["you"] == seat
            # HTTP calls are recognised too (opening a table needs no database).
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                # casual: he sits at a rated game already (one at a time, PROTOCOL §2g)
                r = await http.post("/api/tables", headers=seated.accounts[0].headers,
                                    json={"variant": "goat", "seats": 2, "rated": False})
                assert r.status_code == 201, r.text
            # And the game goes on meanwhile.
            target = started["seq"] + 4
            rng = random.Random(11)
            during = await asyncio.gather(*(
                autoplay(p, seated.table_id, random.Random(rng.random()),
                         stop=lambda s: s["seq"] >= target or s["view"]["status"] != "playing",
                         timeout=60)
                for p in players))
            assert all(d["errors"] == [] for d in during), [d["errors"] for d in during]
        finally:
            private_postgres.start()
        await played_fairly_to_the_end([(seated.table_id, players)], rng, timeout=120)
        for player in [*players, seated.spectator]:
            await player.close()


async def test_a_sign_out_missed_during_a_redis_restart_still_closes_the_socket(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    prefix = f"gap_{secrets.token_hex(3)}"
    env = {"DOMINO_DATABASE_URL": pg_url, "DOMINO_REDIS_URL": private_redis.url,
           "DOMINO_REDIS_PREFIX": prefix}
    with run_server(env, log_dir=tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            account = await register(http)
        player = await Player(server.ws_url, account).connect()
        # The session is revoked while nobody hears it (as if its announcement had been
        # published into a dropped pub/sub connection), then Redis restarts.
        sid = jwt.decode(account.token, options={"verify_signature": False})["sid"]
        subprocess.run(["redis-cli", "-p", str(private_redis.port), "set",
                        f"{prefix}:session:{sid}", "-"], check=True, capture_output=True)
        assert (await player.request({"type": "ping"}))["type"] == "pong"
        private_redis.kill()
        private_redis.start()

        async def closed() -> int | None:
            while player.closed is None:
                await asyncio.sleep(0.05)
            return player.closed

        # Subscribed again, the process checks its sockets' sessions.
        assert await asyncio.wait_for(closed(), 15) == 4401


async def test_a_cookie_that_cannot_be_checked_is_checked_again_by_hello(
    private_postgres: PrivatePostgres, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    prefix = f"{redis_prefix}_cold_{secrets.token_hex(3)}"
    env = {"DOMINO_DATABASE_URL": private_postgres.url(), "DOMINO_REDIS_URL": redis_url,
           "DOMINO_REDIS_PREFIX": prefix}
    with run_server(env, log_dir=tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            account = await register(http)
        # A session the cache does not know, and no database to ask.
        sid = jwt.decode(account.token, options={"verify_signature": False})["sid"]
        cache = aioredis.from_url(redis_url)
        await cache.delete(f"{prefix}:session:{sid}")
        await cache.aclose()
        private_postgres.stop()
        try:
            ws = await websockets.connect(
                server.ws_url, additional_headers={"Cookie": f"domino_session={account.token}"})
            # Not a spectator for good, nor a dropped socket: "try again".
            await ws.send(json.dumps({"type": "hello", "id": 1}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
            assert reply["id"] == 1 and reply["retry_ms"] > 0
        finally:
            private_postgres.start()
        for attempt in range(2, 40):
            await ws.send(json.dumps({"type": "hello", "id": attempt}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if reply["type"] != "error":
                break
            assert reply["code"] == "unavailable", reply
            await asyncio.sleep(reply["retry_ms"] / 1000)
        assert reply["type"] == "welcome", reply
        assert reply["player"]["name"] == account.name
        await ws.close()
