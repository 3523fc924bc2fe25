"""A deploy (SIGTERM of one of two processes) while players wait with open seeks: their
sockets are told to reconnect (1012) and come back on the other process a moment later, and
their seeks are still open there; the next compatible seek seats them all.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import httpx
import pytest

from tests.e2e.client import Player, register
from tests.faults.games import fault_env
from tests.servers import run_server

pytestmark = pytest.mark.timeout(300)

SEEK = {"variant": "goat", "seats": 3, "turn_seconds": 30, "rated": False}


async def test_open_seeks_survive_a_deploy_and_are_matched_after_it(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    env = fault_env(pg_url, redis_url, DOMINO_SHUTDOWN_SECONDS="8")
    with run_server(env, log_dir=tmp_path) as survivor, \
            run_server(env, log_dir=tmp_path) as doomed:
        async with httpx.AsyncClient(base_url=survivor.url, timeout=30) as http:
            accounts = [await register(http) for _ in range(3)]
            waiting = [await Player(doomed.ws_url, a).connect() for a in accounts[:2]]
            opened = []
            for account in accounts[:2]:
                reply = await http.post("/api/seeks", headers=account.headers, json=SEEK)
                assert reply.status_code == 201, reply.text
                opened.append(reply.json()["id"])
            doomed.process.send_signal(signal.SIGTERM)
            for p in waiting:
                for _ in range(200):
                    if p.closed is not None:
                        break
                    await asyncio.sleep(0.05)
                assert p.closed == 1012
            await asyncio.sleep(0.3)  # the browser's first reconnect
            back = [await Player(survivor.ws_url, a).connect() for a in accounts[:2]]
            # Past a few sweeps of the survivor: the seeks are still open.
            await asyncio.sleep(3)
            listed = {s["id"] for s in (await http.get("/api/seeks")).json()}
            assert set(opened) <= listed
            third = await Player(survivor.ws_url, accounts[2]).connect()
            reply = await http.post("/api/seeks", headers=accounts[2].headers, json=SEEK)
            assert reply.status_code == 201, reply.text
            table_id = reply.json()["table_id"]
            for p, seek_id in zip(back, opened, strict=True):
                note = await p.expect(lambda m: m["type"] == "seek.matched", timeout=20)
                assert note == {"type": "seek.matched", "seek_id": seek_id,
                                "table_id": table_id}
            for p in [*back, third]:
                await p.close()
        assert doomed.process.wait(timeout=20) == -signal.SIGTERM


async def test_a_seek_whose_time_is_up_tells_its_owner(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    env = fault_env(pg_url, redis_url, DOMINO_SEEK_SECONDS="1")
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            account = await register(http)
            socket = await Player(second.ws_url, account).connect()
            reply = await http.post("/api/seeks", headers=account.headers, json=SEEK)
            assert reply.status_code == 201, reply.text
            note = await socket.expect(lambda m: m["type"] == "seek.ended", timeout=20)
            assert note == {"type": "seek.ended", "seek_id": reply.json()["id"],
                            "reason": "expired"}
            assert (await http.get("/api/seeks")).json() == []
            await socket.close()
