"""Two tournament directors at work at once (a lease holder stalled past its lease while
the next one took over) still seat each player at one table at a time: the database, not
the lease, has the last word on a pairing.

The directors are two processes' own objects on one PostgreSQL database and one Redis
prefix; each pairing is driven at the same moment in both.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.models import Player, Tournament, TournamentPlayer, TournamentTable
from app.db.session import Database
from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.services.durable.recovery import Recovery
from app.services.fanout.notices import PlayerNotices
from app.services.fanout.tournament_feed import TournamentFeed
from app.services.gathering.tournament_director import Director
from app.services.tables.transact import load
from tests.db.conftest import db as db  # the migrated database, on the URL below
from tests.persistence import fresh_database

PLAYERS = 6


@pytest.fixture
def database_url(pg_url: str, tmp_path: Path) -> Iterator[str]:
    """PostgreSQL only: two directors at once need its row locks (SQLite, the embedded
    default, has one process and so one director)."""
    with fresh_database("postgresql", pg_url, tmp_path) as url:
        yield url




def _director(store: LiveStore, db: Database, name: str) -> Director:
    hub = Hub(store)
    return Director(store, db, PlayerNotices(store, hub), TournamentFeed(store, hub, db),
                    Recovery(store, db), name)


@pytest.fixture
async def directors(db: Database, redis_url: str, redis_prefix: str
                    ) -> AsyncIterator[list[Director]]:
    prefix = f"{redis_prefix}_director_{secrets.token_hex(3)}"
    stores = [LiveStore(connect(redis_url), prefix) for _ in range(2)]
    yield [_director(store, db, f"process-{n}") for n, store in enumerate(stores)]
    for store in stores:
        await store.close()


async def _running(db: Database, format: str, store: str | None = None) -> Tournament:
    """A running tournament of classic for two, with PLAYERS players and no table yet (run
    by the live store `store`; None: by any)."""
    now = datetime.now(UTC)
    async with db.session() as session, session.begin():
        players = [Player(name=f"p{n}", name_key=f"p{n}", password_hash="-")
                   for n in range(PLAYERS)]
        session.add_all(players)
        await session.flush()
        row = Tournament(
            id=secrets.token_hex(8), name="Both at once", variant="classic", options={},
            seats=2, format=format, status="running", creator_id=players[0].id,
            rounds=3 if format == "swiss" else None, minutes=None if format == "swiss" else 10,
            turn_seconds=60, round_pause_seconds=0, rated=False, private=False,
            max_players=PLAYERS, started_at=now,
            ends_at=None if format == "swiss" else now + timedelta(minutes=10), store=store)
        session.add(row)
        await session.flush()
        session.add_all(TournamentPlayer(tournament_id=row.id, player_id=p.id, points=0.0,
                                         games=0, byes=0, withdrawn=False)
                        for p in players)
    return row


@pytest.mark.parametrize("format", ["arena", "swiss"])
async def test_two_directors_at_once_seat_each_player_at_one_table(
    db: Database, directors: list[Director], format: str,
) -> None:
    row = await _running(db, format)
    changed = await asyncio.gather(*(d.advance(row.id) for d in directors))
    assert sorted(changed) == [False, True]  # one pairing stood, the other was dropped
    async with db.session() as session:
        tables = list(await session.scalars(select(TournamentTable).where(
            TournamentTable.tournament_id == row.id)))
    seated = [p for t in tables for p in t.seats]
    assert len(tables) == PLAYERS // 2
    assert sorted(seated) == sorted(set(seated)) and len(seated) == PLAYERS
    # each table row has its live table, with the players of the row
    for t in tables:
        live = await load(directors[0].store, t.table_id)
        assert live is not None and [s.id if s else None for s in live.seats] == t.seats


async def test_a_table_two_directors_make_at_once_is_made_once_and_neither_fails(
    db: Database, directors: list[Director],
) -> None:
    """One director pairs a table and is making it; the other finds its row first, sees no
    live table and makes it again, as it would a lost one. The store lets one write through
    at version 0; the other finds the table made, which is no failure of its tick."""
    row = await _running(db, "swiss")
    async with db.session() as session:
        seats = list(await session.scalars(select(TournamentPlayer.player_id).where(
            TournamentPlayer.tournament_id == row.id).limit(2)))
    table_id = secrets.token_hex(8)
    await asyncio.gather(*(d._make_table(row, table_id, seats) for d in directors))
    live = await load(directors[0].store, table_id)
    assert live is not None and [s.id if s else None for s in live.seats] == seats
    assert live.status == "playing"


async def _tables_of(db: Database, tournament_id: str) -> list[TournamentTable]:
    async with db.session() as session:
        return list(await session.scalars(select(TournamentTable).where(
            TournamentTable.tournament_id == tournament_id)))


async def test_a_director_runs_only_the_tournaments_of_its_own_live_store(
    db: Database, directors: list[Director], redis_url: str, redis_prefix: str,
) -> None:
    """Deployments with live stores of their own may share a database: a tournament is
    paired (and finished, and told) by its own store's director, whose players' sockets
    hear it, never by another's."""
    ours = directors[0].store.keys.prefix
    row = await _running(db, "swiss", store=ours)
    elsewhere = LiveStore(connect(redis_url), f"{redis_prefix}_elsewhere_{secrets.token_hex(3)}")
    try:
        await _director(elsewhere, db, "another-deployment")._direct()
        assert await _tables_of(db, row.id) == []
    finally:
        await elsewhere.close()
    await directors[0]._direct()
    assert len(await _tables_of(db, row.id)) == PLAYERS // 2
