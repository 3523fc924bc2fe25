"""A live store that loses its data (a Redis without persistence restarted, a flush) costs
the players the round being played, never the game: every running game is copied to the
database when it starts and when each round begins, and put back from there.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import time
from pathlib import Path

from app.live.keys import Keys
from tests.e2e.client import autoplay
from tests.e2e.game import seat_players
from tests.faults.games import fault_env, played_fairly_to_the_end
from tests.faults.stores import PrivateRedis, database_value, saved_snapshot
from tests.servers import run_server


async def test_a_game_the_store_lost_goes_on_from_its_snapshot_to_its_result(
    pg_url: str, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    env = fault_env(pg_url, private_redis.url, DOMINO_RECOVER_SECONDS="1")
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        seated = await seat_players([first, second])
        started = await seated.first_playing_state()
        saved = await saved_snapshot(pg_url, seated.table_id)
        assert saved["game_id"] == started["view"]["game_id"]
        # A few moves after the snapshot, then the store loses everything.
        rng = random.Random(7)
        await asyncio.gather(*(
            autoplay(p, seated.table_id, random.Random(rng.random()),
                     stop=lambda m: m["seq"] >= saved["version"] + 3, timeout=60)
            for p in seated.players))
        seen = max(p.latest(seated.table_id)["seq"] for p in seated.players)  # type: ignore[index]
        subprocess.run(["redis-cli", "-p", str(private_redis.port), "flushall"], check=True)
        lost = time.monotonic()
        # Everyone is shown the game again, as it was saved, with a fresh clock.
        for player in [*seated.players, seated.spectator]:
            back = await player.expect(
                lambda m: m["type"] == "table.state" and m["seq"] > seen, timeout=15)
            assert back["view"]["status"] == "playing"
            assert back["view"]["game_id"] == saved["game_id"]
            assert back["view"]["deadline"] > time.time() * 1000
        assert time.monotonic() - lost < 5
        # The game goes on to its end, nobody timed out, and its result is written once.
        await played_fairly_to_the_end([(seated.table_id, seated.players)], rng, timeout=180)
        deadline = time.monotonic() + 15
        while await database_value(pg_url, "SELECT count(*) FROM games WHERE id = $1",
                            saved["game_id"]) != 1:
            assert time.monotonic() < deadline, "the result was never written"
            await asyncio.sleep(0.2)
        # Written with the result: the snapshot is gone, nothing is restored again.
        deadline = time.monotonic() + 5
        while await database_value(
                pg_url, "SELECT count(*) FROM live_snapshots WHERE table_id = $1",
                seated.table_id):
            assert time.monotonic() < deadline, "the snapshot outlived the result"
            await asyncio.sleep(0.2)
        assert await database_value(pg_url, "SELECT count(*) FROM game_players WHERE game_id = $1",
                             saved["game_id"]) == 4


async def test_a_game_is_restored_only_into_the_live_store_it_came_from(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    """Deployments that share a database but not a live store (another Redis prefix) never
    take each other's games: each finds its own tables missing, not the other's."""
    env = fault_env(pg_url, redis_url, DOMINO_RECOVER_SECONDS="1")
    other = {**env, "DOMINO_REDIS_PREFIX": f"{env['DOMINO_REDIS_PREFIX']}_other"}
    with run_server(env, log_dir=tmp_path) as home, run_server(other, log_dir=tmp_path):
        seated = await seat_players([home])
        await seated.first_playing_state()
        await saved_snapshot(pg_url, seated.table_id)
        await asyncio.sleep(3)  # the other store's processes have looked for lost tables
        found = subprocess.run(
            ["redis-cli", "-u", redis_url, "exists",
             Keys(other["DOMINO_REDIS_PREFIX"]).table(seated.table_id)],
            capture_output=True, text=True, check=True).stdout.strip()
        assert found == "0"
