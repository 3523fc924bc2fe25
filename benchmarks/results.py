"""CPU per finished game written: `write_result` against a real PostgreSQL.

Run: .venv/bin/python benchmarks/results.py [--games 200] [--repeats 5] [--source DIR]

Writes `--games` finished goat games (rated, four players drawn from forty, records made by
the engine) `--repeats` times into a private database and prints the CPU milliseconds and
the wall milliseconds per game of each repeat and their medians. `--source DIR` runs the
code of another checkout (e.g. the code before a change); run the two in turns, A B A B.
Needs the PostgreSQL of `DOMINO_TEST_PG_ADMIN` (see tests/servers.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--source", default="", help="run the code of this checkout")
    return parser.parse_args()


ARGS = _arguments()
sys.path.insert(0, str(Path(ARGS.source).resolve() if ARGS.source else HERE.parent))
sys.path.insert(1, str(HERE.parent))  # tests.servers, from this checkout

from sqlalchemy import select  # noqa: E402

from app.db.models import Player  # noqa: E402
from app.db.session import Database, migrate  # noqa: E402
from app.engine import VARIANTS  # noqa: E402
from app.services.durable.results import FinishedGame, write_result  # noqa: E402
from tests.servers import database_url, pg_admin  # noqa: E402

PLAYERS = 40
RECORDS = 30


def finished_records(rng: random.Random) -> list[dict[str, Any]]:
    goat = VARIANTS["goat"]
    records = []
    for _ in range(RECORDS):
        game = goat(4, goat.validate_options(4, {}), rng.randbytes(16))
        game.start()
        while game.status == "playing":
            move = rng.choice(game.legal_for(game.turn))
            game.play(game.turn, move["tile"], move.get("end"))
        records.append(game.record(["a", "b", "c", "d"]))
    return records


async def run(url: str) -> None:
    await migrate(url)
    db = Database(url)
    async with db.session() as session, session.begin():
        session.add_all(Player(name=f"p{i}", name_key=f"p{i}", password_hash="-")
                        for i in range(PLAYERS))
    async with db.session() as session:
        ids = list(await session.scalars(select(Player.id)))
    rng = random.Random(1)
    records = finished_records(rng)

    async def write(i: int) -> None:
        now = datetime.now(UTC)
        await write_result(db, FinishedGame(
            game_id=secrets.token_hex(8), table_id=secrets.token_hex(8),
            record=records[i % RECORDS], rated=True, player_ids=rng.sample(ids, 4),
            started_at=now, finished_at=now))

    for i in range(50):  # warm up: connections, prepared statements, caches
        await write(i)
    cpu_ms, wall_ms = [], []
    for _ in range(ARGS.repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        for i in range(ARGS.games):
            await write(i)
        cpu_ms.append(1000 * (time.process_time() - cpu) / ARGS.games)
        wall_ms.append(1000 * (time.perf_counter() - wall) / ARGS.games)
    await db.dispose()
    label = f"write_result{' (' + ARGS.source + ')' if ARGS.source else ''}"
    print(f"{label}: CPU per game {', '.join(f'{c:.2f}' for c in cpu_ms)} ms "
          f"(median {statistics.median(cpu_ms):.2f}); wall {statistics.median(wall_ms):.2f} ms")


def main() -> int:
    name = f"domino_bench_{secrets.token_hex(4)}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    try:
        asyncio.run(run(database_url(name)))
    finally:
        asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    return 0


if __name__ == "__main__":
    sys.exit(main())
