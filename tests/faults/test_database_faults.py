"""PostgreSQL stopped under running servers (a private cluster the test stops and starts):
games go on and end while it is away, and their results are written exactly once when it is
back; nobody is timed out for it.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from pathlib import Path

import asyncpg

from tests.e2e.game import seat_players
from tests.faults.games import played_fairly_to_the_end
from tests.faults.stores import PrivatePostgres
from tests.servers import run_server


async def _value(postgres: PrivatePostgres, database: str, sql: str) -> object:
    connection = await asyncpg.connect(postgres.admin_dsn.rsplit("/", 1)[0] + "/" + database)
    try:
        return await connection.fetchval(sql)
    finally:
        await connection.close()

async def test_games_end_while_the_database_is_stopped_and_are_written_once_after(
    private_postgres: PrivatePostgres, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    database = "domino_faults"
    admin = await asyncpg.connect(private_postgres.admin_dsn)
    await admin.execute(f'CREATE DATABASE "{database}"')
    await admin.close()
    env = {
        "DOMINO_DATABASE_URL": private_postgres.url(database),
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_pgdown_{secrets.token_hex(3)}",
        "DOMINO_SWEEP_SECONDS": "0.1",
        "DOMINO_RECOVER_SECONDS": "1",
    }
    with run_server(env, log_dir=tmp_path) as first, run_server(env, log_dir=tmp_path) as second:
        games = [await seat_players([first, second], turn_seconds=20) for _ in range(2)]
        for seated in games:
            await seated.first_playing_state()
        private_postgres.stop()

        await played_fairly_to_the_end([(s.table_id, s.players) for s in games],
                                       random.Random(11), timeout=240)
        private_postgres.start()
        deadline = time.monotonic() + 30
        while await _value(private_postgres, database, "SELECT count(*) FROM games") != 2:
            assert time.monotonic() < deadline, "the results were not written"
            await asyncio.sleep(0.2)
        await asyncio.sleep(2)  # every process's writer has had its next try meanwhile
        assert await _value(private_postgres, database, "SELECT count(*) FROM games") == 2
        assert await _value(private_postgres, database,
                            "SELECT count(*) FROM game_players") == 8
        # Each player's one game counted once in his rating.
        assert await _value(private_postgres, database,
                            "SELECT max(games) FROM ratings") == 1
        assert await _value(private_postgres, database,
                            "SELECT count(*) FROM live_snapshots") == 0
        # An outage is logged as such, not as a crash of ours.
        for server in (first, second):
            assert "Traceback" not in server.output()
