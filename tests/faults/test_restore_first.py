"""A Redis that lost everything, and nobody yet serving the table to notice: the first to ask
for it (a subscription, a read, a move) is the one that puts it back from its database copy,
on whichever process he reaches. A table with a copy is never answered `not_found`.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.live.client import clustered_url
from tests.e2e.client import Player
from tests.e2e.game import seat_players
from tests.faults.games import fault_env
from tests.faults.stores import ClusterPart, PrivateRedis, saved_snapshot
from tests.servers import run_server


@pytest.mark.cluster
async def test_the_first_to_ask_for_a_lost_table_gets_it_back_not_not_found(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    # A private Redis flushed; on a cluster, every key of the test's prefix deleted.
    redis = ClusterPart(redis_url) if clustered_url(redis_url) \
        else PrivateRedis(tmp_path, persistent=False)
    redis.start()
    # No sweep for lost tables in time: only the one who asks can put it back.
    env = fault_env(pg_url, redis.url, DOMINO_RECOVER_SECONDS="600")
    if isinstance(redis, ClusterPart):
        redis.prefix = env["DOMINO_REDIS_PREFIX"]
    try:
        with run_server(env, log_dir=tmp_path) as first, \
                run_server(env, log_dir=tmp_path) as second:
            tables = [await seat_players([first, second], seats=2, turn_seconds=60)
                      for _ in range(3)]
            for seated in tables:
                await seated.first_playing_state()
                await saved_snapshot(pg_url, seated.table_id)
            # Nobody serves the tables now: no process notices they are gone.
            for seated in tables:
                for p in [*seated.players, seated.spectator]:
                    await p.close()
            redis.flush()
            subscribe, read, move = tables
            # A subscription (on the process that did not make the table).
            player = await Player(second.ws_url, subscribe.accounts[1]).connect()
            reply = await player.request({"type": "table.subscribe",
                                          "table_id": subscribe.table_id})
            assert reply["type"] == "table.state", reply
            assert reply["view"]["status"] == "playing"
            # A read over HTTP.
            async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
                got = await http.get(f"/api/tables/{read.table_id}")
                assert got.status_code == 200, got.text
                assert got.json()["status"] == "playing"
            # A command: resigning a game the store lost resigns it.
            mover = await Player(first.ws_url, move.accounts[0]).connect()
            reply = await mover.request({"type": "resign", "table_id": move.table_id})
            assert reply["type"] == "table.state", reply
            assert reply["view"]["status"] == "finished"
            # A table that never was is still not found.
            reply = await player.request({"type": "table.subscribe", "table_id": "f" * 16})
            assert reply["type"] == "error" and reply["code"] == "not_found", reply
            await player.close()
            await mover.close()
            for output in (first.output(), second.output()):
                assert "Traceback" not in output
    finally:
        redis.kill()
