"""What following and listing tournaments costs, on a private PostgreSQL database.

Run: .venv/bin/python benchmarks/tournament_lists.py [--tournaments 100] [--due 1000]
     [--players 200] [--games 400] [--repeat 15]

1. Listing: `--tournaments` public tournaments of 8 players each; the CPU time of one
   page of them (`GET /api/tournaments`'s service call) read in one query, against the
   way it was read before (each tournament described whole, 4 queries each), interleaved
   A B A B, medians.
2. Due with too few players: `--due` waiting tournaments whose start has passed with one
   player each; the CPU of the director's first look at them (each is cancelled) and of
   each look after it, as a share of one core at the director's 2 looks a second.
3. A follower of an arena of `--players` players at 2 seats: `--games` games are made
   and finished one after another; the bytes a follower receives for every change, as
   the whole tournament (before) and as what changed (now).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.db import tournaments as rows
from app.db.models import Player, Tournament, TournamentPlayer
from app.db.session import Database, migrate
from app.services.fanout.tournament_feed import changes
from app.services.gathering import tournaments
from app.services.gathering.tournaments import describe_in
from tests.servers import database_url, pg_admin

STORE = "bench"


def _tournament(creator: int, *, status: str = "waiting", starts_at: datetime | None = None,
                fmt: str = "swiss") -> Tournament:
    return Tournament(
        id=secrets.token_hex(8), name="Bench", variant="goat", options={"fish_rule": "all"},
        seats=4 if fmt == "swiss" else 2, format=fmt, status=status, creator_id=creator,
        rounds=3 if fmt == "swiss" else None, minutes=None if fmt == "swiss" else 60,
        turn_seconds=30, round_pause_seconds=5, rated=True, private=False, max_players=1000,
        starts_at=starts_at, store=STORE,
        started_at=datetime.now(UTC) if status == "running" else None)


async def _players(db: Database, n: int) -> list[int]:
    async with db.writing() as session:
        names = [f"b{secrets.token_hex(6)}" for _ in range(n)]
        made = [Player(name=name, name_key=name, password_hash="x") for name in names]
        session.add_all(made)
        await session.flush()
        return [p.id for p in made]


def _cpu_ms(started: float) -> float:
    return (time.process_time() - started) * 1000


async def listing(db: Database, count: int, repeat: int) -> None:
    people = await _players(db, 8)
    async with db.writing() as session:
        for _ in range(count):
            row = _tournament(people[0])
            session.add(row)
            await session.flush()
            for p in people:
                session.add(TournamentPlayer(tournament_id=row.id, player_id=p, points=0.0,
                                             games=0, byes=0, withdrawn=False, rating=1500.0))

    async def before() -> None:  # each described whole, as the list was read before
        async with db.session() as session:
            ids = [r.id for r, *_ in await rows.listed(session, "waiting", 0, count)]
            for tournament_id in ids:
                await describe_in(session, tournament_id)

    async def now() -> None:
        assert len(await tournaments.listing(db, "waiting", 0, count)) == count

    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        for fn, out in ((before, a), (now, b)):
            started = time.process_time()
            await fn()
            out.append(_cpu_ms(started))
    print(f"listing {count} tournaments, CPU ms per request (median of {repeat}, interleaved):"
          f" before {statistics.median(a):.1f}, now {statistics.median(b):.1f}"
          f" (x{statistics.median(b) / statistics.median(a):.3f})")


async def due(db: Database, count: int) -> None:
    [creator] = await _players(db, 1)
    past = datetime.now(UTC) - timedelta(minutes=1)
    async with db.writing() as session:
        for _ in range(count):
            row = _tournament(creator, starts_at=past)
            session.add(row)
            await session.flush()
            session.add(TournamentPlayer(tournament_id=row.id, player_id=creator, points=0.0,
                                         games=0, byes=0, withdrawn=False, rating=1500.0))

    async def look() -> int:  # what the director does with them at a tick
        async with db.session() as session:
            ids = await rows.ids_of_store(session, STORE, "waiting",
                                          starts_by=datetime.now(UTC))
        for tournament_id in ids:
            await tournaments.start(db, None, tournament_id)
        return len(ids)

    started = time.process_time()
    first = await look()
    once = _cpu_ms(started)
    later = []
    for _ in range(20):
        started = time.process_time()
        assert await look() == 0
        later.append(_cpu_ms(started))
    each = statistics.median(later)
    print(f"{count} waiting tournaments past their start with too few players: the first look"
          f" cancels {first} ({once:.0f} ms CPU, once); each look after: {each:.2f} ms CPU,"
          f" {each * 2 / 10:.3f} % of a core at 2 looks a second")


async def follower(db: Database, players: int, games: int) -> None:
    people = await _players(db, players)
    row = _tournament(people[0], status="running", fmt="arena")
    async with db.writing() as session:
        session.add(row)
        await session.flush()
        for p in people:
            session.add(TournamentPlayer(tournament_id=row.id, player_id=p, points=0.0,
                                         games=0, byes=0, withdrawn=False, rating=1500.0))
    whole = delta = updates = 0

    async def told() -> None:
        nonlocal whole, delta, updates, known
        async with db.session() as session:
            after = await describe_in(session, row.id)
        update = changes(known, after)
        known = after
        if update is None:
            return
        updates += 1
        whole += len(json.dumps({"type": "tournament.update", "tournament": after}))
        delta += len(json.dumps(update))

    async with db.session() as session:
        known = await describe_in(session, row.id)
    rng = random.Random(7)
    for n in range(games):
        table_id = f"t{n:05d}"
        seats = rng.sample(people, 2)
        async with db.writing() as session:
            rows.add_tables(session, row.id, [(table_id, seats)], None)
        await told()
        points = [1.0, 0.0]
        async with db.writing() as session:
            await rows.table_finished(session, table_id, points, datetime.now(UTC))
            for p, scored in zip(seats, points, strict=True):
                await rows.add_points(session, row.id, p, scored, games=1)
        await told()
    print(f"a follower of an arena of {players} players, {games} games ({updates} updates):"
          f" the whole tournament each time {whole / 1e6:.2f} MB, what changed"
          f" {delta / 1e6:.3f} MB (x{delta / whole:.4f}); per update {delta / updates:.0f} B"
          f" of changes against {whole / updates:.0f} B whole")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--due", type=int, default=1000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    name = f"domino_bench_{secrets.token_hex(4)}"
    await pg_admin(f'CREATE DATABASE "{name}"')
    url = database_url(name)
    try:
        await migrate(url)
        db = Database(url)
        try:
            await listing(db, args.tournaments, args.repeat)
            await due(db, args.due)
            await follower(db, args.players, args.games)
        finally:
            await db.dispose()
    finally:
        await pg_admin(f'DROP DATABASE "{name}" WITH (FORCE)')


if __name__ == "__main__":
    asyncio.run(main())
