"""The process making a seek match stopped (SIGSTOP) the moment the store has taken the seeks,
before it has read that answer, so before it has seated or told anyone (a gate between it and
Redis stops it there): another process finishes the match, so every player is told and his
table runs. Once the maker goes on, it finishes the same match without making a second table.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from app.live.keys import Keys
from tests.e2e.client import Player, register
from tests.faults.games import fault_env
from tests.faults.gate import SEEKS_TAKEN, RedisGate, stop
from tests.servers import run_server

pytestmark = pytest.mark.timeout(300)

SEEK = {"variant": "goat", "seats": 4, "turn_seconds": 30, "rated": False}


async def test_a_seek_match_whose_maker_stops_is_finished_by_another_process(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    env = fault_env(pg_url, redis_url)
    prefix = env["DOMINO_REDIS_PREFIX"]
    # the seeks' matches, as app/live/seek_pool.py names them
    matches = f"{Keys(prefix).family('seeks')}:seek-matches"
    store = aioredis.from_url(redis_url)
    with RedisGate(redis_url) as gate, \
            run_server({**env, "DOMINO_REDIS_URL": gate.url}, log_dir=tmp_path) as maker, \
            run_server(env, log_dir=tmp_path) as other:
        try:
            async with httpx.AsyncClient(base_url=other.url, timeout=30) as http:
                accounts = [await register(http) for _ in range(4)]
                sockets = [await Player(other.ws_url, a).connect() for a in accounts]
                for account in accounts[:3]:
                    reply = await http.post("/api/seeks", headers=account.headers, json=SEEK)
                    assert reply.status_code == 201, reply.text
            gate.arm(SEEKS_TAKEN, lambda: stop(maker.process.pid), reply=True)
            async with httpx.AsyncClient(base_url=maker.url, timeout=60) as slow:
                last = asyncio.create_task(
                    slow.post("/api/seeks", headers=accounts[3].headers, json=SEEK))
                assert await asyncio.to_thread(gate.sprung.wait, 30), "no match was made"
                tables = set()
                for p in sockets:
                    note = await p.expect(lambda m: m["type"] == "seek.matched", timeout=30)
                    tables.add(note["table_id"])
                    state = await p.request({"type": "table.subscribe",
                                             "table_id": note["table_id"]})
                    assert state["type"] == "table.state", state
                    for _ in range(100):
                        if p.latest(note["table_id"])["view"]["status"] == "playing":  # type: ignore[index]
                            break
                        await asyncio.sleep(0.1)
                    assert p.latest(note["table_id"])["view"]["status"] == "playing"  # type: ignore[index]
                assert len(tables) == 1
                maker.process.send_signal(signal.SIGCONT)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(last, 30)
                assert not await store.exists(matches)
                await asyncio.sleep(0.5)  # the maker has told them again: the same table
                for p in sockets:
                    assert {m["table_id"] for m in p.frames
                            if m["type"] == "seek.matched"} == tables
                    await p.close()
        finally:
            maker.process.send_signal(signal.SIGCONT)
            await store.aclose()
