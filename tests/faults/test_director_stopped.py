"""The tournament's director stopped (SIGSTOP) in the middle of a round's pairing: its tables
are made and it is about to tell the first of their players (a gate between it and Redis
stops it as that word leaves it), either before the notice is kept or once it is kept and
only its publish, which the players' open sockets wait for, is left. The other process
takes the lease over and finishes the step, so every player is told on the socket he
has open and reaches a running table.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from tests.e2e.client import Player, register
from tests.faults.games import fault_env, process_id
from tests.faults.gate import PAIRING_PUBLISHED, PAIRING_TOLD, RedisGate, stop
from tests.servers import run_server

pytestmark = pytest.mark.timeout(300)

PLAYERS = 16


@pytest.mark.parametrize("at", [PAIRING_TOLD, PAIRING_PUBLISHED],
                         ids=["before-kept", "before-published"])
async def test_a_director_stopped_mid_pairing_leaves_nobody_untold(
    pg_url: str, redis_url: str, tmp_path: Path, at: bytes
) -> None:
    env = fault_env(pg_url, redis_url)
    prefix = env["DOMINO_REDIS_PREFIX"]
    store = aioredis.from_url(redis_url)
    with RedisGate(redis_url) as one, RedisGate(redis_url) as two, \
            run_server({**env, "DOMINO_REDIS_URL": one.url}, log_dir=tmp_path) as first, \
            run_server({**env, "DOMINO_REDIS_URL": two.url}, log_dir=tmp_path) as second:
        servers = {process_id(first): (first, one), process_id(second): (second, two)}
        try:
            async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
                accounts = [await register(http) for _ in range(PLAYERS)]
                made = await http.post("/api/tournaments", headers=accounts[0].headers, json={
                    "name": "Stopped", "variant": "classic", "seats": 2, "format": "swiss",
                    "rounds": 1, "turn_seconds": 60, "round_pause_seconds": 0,
                    "rated": False})
                assert made.status_code == 201, made.text
                tournament_id = made.json()["id"]
                for account in accounts:
                    assert (await http.post(f"/api/tournaments/{tournament_id}/join",
                                            headers=account.headers)).status_code == 200
                while (held := await store.get(f"{prefix}:lease:tournaments")) is None:
                    await asyncio.sleep(0.05)  # no director has looked yet
                holder, gate = servers[held.decode()]
                survivor = second if holder is first else first
                gate.arm(at, lambda: stop(holder.process.pid), reply=False)
                sockets = [await Player(survivor.ws_url, a).connect() for a in accounts]
                # asked of the survivor: the holder may be stopped before it answers
                started = await http.post(
                    f"{survivor.url}/api/tournaments/{tournament_id}/start",
                    headers=accounts[0].headers)
                assert started.status_code == 200, started.text
                assert await asyncio.to_thread(gate.sprung.wait, 30), "nobody was paired"
                # Every player is told (by the director that takes over) and his table runs.
                for p in sockets:
                    note = await p.expect(lambda m: m["type"] == "tournament.pairing",
                                          timeout=40)
                    assert note["tournament_id"] == tournament_id
                    state = await p.request({"type": "table.subscribe",
                                             "table_id": note["table_id"]})
                    assert state["type"] == "table.state", state
                    for _ in range(200):
                        if (p.latest(note["table_id"]) or {}).get("view", {}).get(
                                "status") == "playing":
                            break
                        await asyncio.sleep(0.1)
                    assert p.latest(note["table_id"])["view"]["status"] == "playing"  # type: ignore[index]
                for p in sockets:
                    await p.close()
        finally:
            for server in (first, second):
                server.process.send_signal(signal.SIGCONT)
            await store.aclose()
