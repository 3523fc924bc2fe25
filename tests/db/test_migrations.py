"""Alembic migrations: from empty to head and back, on PostgreSQL and SQLite."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from app.db.models import Base
from app.db.session import alembic_config, create_engine, downgrade, migrate
from app.engine import RecordError, replay_record
from tests.engine.test_rules_editions import FIRST_RECORDS
from tests.servers import REPO

# The tables up to 0005 (the rules mark), and those 0006 adds (tournaments).
BEFORE_TOURNAMENTS = {"players", "sessions", "ratings", "games", "game_players",
                      "live_snapshots", "live_snapshot_rounds"}
TOURNAMENT_TABLES = {"tournaments", "tournament_players", "tournament_tables"}
REVIEW_TABLES = {"reviews"}  # 0008
PEOPLE_TABLES = {"friend_links", "blocks", "challenges"}  # 0009: friends, blocks, challenges
MODERATION_TABLES = {"reports", "moderation_log"}  # 0014: reports and the audit log
# 0015: clubs, their members, requests and invitations, the clubs of a tournament
CLUB_TABLES = {"clubs", "club_members", "club_asks", "tournament_clubs"}
TABLES = BEFORE_TOURNAMENTS | TOURNAMENT_TABLES | REVIEW_TABLES | PEOPLE_TABLES \
    | MODERATION_TABLES | CLUB_TABLES


async def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


def _schema_drift(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_upgrade_from_empty_matches_the_models_and_downgrades_back(database_url: str):
    assert await _tables(database_url) == set()

    await migrate(database_url)
    assert await _tables(database_url) == TABLES | {"alembic_version"}
    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            # The migration scripts create exactly what the models describe.
            assert await conn.run_sync(_schema_drift) == []
    finally:
        await engine.dispose()

    await migrate(database_url)  # applying again changes nothing
    await downgrade(database_url, "base")
    assert await _tables(database_url) == {"alembic_version"}

    await migrate(database_url)
    assert await _tables(database_url) >= TABLES


async def test_the_migrations_are_one_chain_with_the_tournaments_last(database_url: str):
    """One head: the tournaments (0006, their live store, 0007, and their tables' reserve,
    0011) come after the rules mark (0005), and go down to it leaving everything before
    them in place."""
    scripts = ScriptDirectory.from_config(alembic_config())
    assert len(scripts.get_heads()) == 1
    chain = [s.revision for s in scripts.walk_revisions()]
    assert chain[-7:] == [
        "0007_tournament_store", "0006_tournaments", "0005_rules_mark", "0004_snapshot_rounds",
        "0003_sessions", "0002_live_snapshots", "0001"]
    assert chain[:3] == ["0015_clubs", "0014_moderation", "0013_tournament_cancel"]
    await migrate(database_url, "0005_rules_mark")
    assert await _tables(database_url) == BEFORE_TOURNAMENTS | {"alembic_version"}
    await migrate(database_url)
    assert await _tables(database_url) == TABLES | {"alembic_version"}
    await downgrade(database_url, "0005_rules_mark")
    assert await _tables(database_url) == BEFORE_TOURNAMENTS | {"alembic_version"}


async def test_names_there_were_get_their_skeletons_and_look_alikes_among_them_stay(
    database_url: str,
) -> None:
    """0009 gives every name registered before a TR39 skeleton; two old names that look
    alike ("rn" reads as "m") both stay, and a new look-alike of either is refused."""
    await migrate(database_url, "0007_tournament_store")
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            for name in ("masha", "rnasha", "Olya"):
                await conn.execute(text(
                    "INSERT INTO players (name, name_key, password_hash, created_at) "
                    "VALUES (:name, :key, '-', CURRENT_TIMESTAMP)"),
                    {"name": name, "key": name.lower()})
        await migrate(database_url)
        async with engine.connect() as conn:
            rows = dict((await conn.execute(text(
                "SELECT name, name_skeleton FROM players"))).all())
    finally:
        await engine.dispose()
    assert rows["Olya"] == "olya"
    assert rows["masha"] == "rnasha"
    assert rows["rnasha"].startswith("rnasha#")
    await downgrade(database_url, "0007_tournament_store")


def test_domino_migrate_command(database_url: str):
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        cwd=REPO,
        env={**os.environ, "DOMINO_DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout
    assert asyncio.run(_tables(database_url)) >= TABLES


async def test_snapshots_saved_before_their_rounds_had_a_table_keep_their_rounds(
    database_url: str,
) -> None:
    """0004 moves a snapshot's rounds to a row each, and back on the way down."""
    rounds = [{"moves": [{"seat": 0, "tile": "6-6"}], "n": 0}, {"moves": [], "n": 1}]
    await migrate(database_url, "0003_sessions")
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO live_snapshots (table_id, store, game_id, version, state, rounds,"
                " saved_at) VALUES ('t1', 's', 'g1', 3, '{}', :rounds, CURRENT_TIMESTAMP)"
            ), {"rounds": json.dumps(rounds)})
        await migrate(database_url)
        async with engine.connect() as conn:
            moved = (await conn.execute(text(
                "SELECT table_id, game_id, number, data FROM live_snapshot_rounds"
                " ORDER BY number"))).all()
        assert [(t, g, n) for t, g, n, _ in moved] == [("t1", "g1", 0), ("t1", "g1", 1)]
        assert [d if isinstance(d, dict) else json.loads(d) for *_, d in moved] == rounds
        await downgrade(database_url, "0003_sessions")
        async with engine.connect() as conn:
            back = (await conn.execute(text("SELECT rounds FROM live_snapshots"))).scalar_one()
        assert (back if isinstance(back, list) else json.loads(back)) == rounds
    finally:
        await engine.dispose()


async def test_records_of_games_finished_before_0005_keep_their_results(
    database_url: str,
) -> None:
    """0005 marks the record of every game finished before it `"rules": 1`: a game of the
    first rules (written by that engine) then replays to the result it had, where unmarked
    it is refused; on the way down the mark goes again."""
    record = FIRST_RECORDS[0]
    with pytest.raises(RecordError):  # unmarked, the rules now end its rounds elsewhere
        replay_record(record)
    await migrate(database_url, "0004_snapshot_rounds")
    engine = create_engine(database_url)

    async def stored() -> dict:
        async with engine.connect() as conn:
            value = (await conn.execute(text("SELECT record FROM games WHERE id = 'g1'"))
                     ).scalar_one()
        return value if isinstance(value, dict) else json.loads(value)

    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO games (id, table_id, variant, options, players, record, seed,"
                " end_reason, finished_at, rated) VALUES ('g1', 't1', :variant, :options,"
                " :players, :record, :seed, :reason, CURRENT_TIMESTAMP, :rated)"
            ), {"variant": record["variant"], "options": json.dumps(record["options"]),
                "players": json.dumps(record["players"]), "record": json.dumps(record),
                "seed": record["seed"], "reason": record["result"]["reason"], "rated": True})
        await migrate(database_url)
        marked = await stored()
        assert marked == {**record, "rules": 1}
        assert replay_record(marked) == marked
        await downgrade(database_url, "0004_snapshot_rounds")
        assert await stored() == record
    finally:
        await engine.dispose()
