"""The database handle (engine + sessions) and the Alembic runner used at start and by the CLI."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app import metrics

# The documented place of the migration scripts is the repository's top-level `migrations/`;
# the package finds it next to itself (a checkout or an editable install).
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

PING_SECONDS = 3.0


def _json(value: Any) -> str:
    """JSON columns (a finished game's record is tens of kilobytes) through orjson, as the
    live store's states are; keys that are not strings become strings, as json's do."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def create_engine(url: str) -> AsyncEngine:
    """An async engine; on SQLite with foreign keys and real transactions like PostgreSQL."""
    json = {"json_serializer": _json, "json_deserializer": orjson.loads}
    if not url.startswith("sqlite"):
        # pre_ping: after a database restart, stale pooled connections are replaced, not used.
        return create_async_engine(url, pool_pre_ping=True, **json)
    # "timeout" is SQLite's busy timeout: one writer at a time (every transaction that
    # writes takes the lock first, `write_transaction`), the others wait up to 30 s for it.
    engine = create_async_engine(url, connect_args={"timeout": 30}, **json)

    @event.listens_for(engine.sync_engine, "connect")
    def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control away from the driver: we emit BEGIN ourselves (below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # Readers do not wait for the writer (and vice versa) in WAL mode.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _sqlite_begin(conn: Connection) -> None:
        # A writer that must not deadlock on a lock upgrade asks for BEGIN IMMEDIATE
        # (see `write_transaction`); everything else starts a plain deferred transaction.
        mode = conn.get_execution_options().get(SQLITE_BEGIN, "")
        conn.exec_driver_sql(f"BEGIN {mode}".strip())

    return engine


SQLITE_BEGIN = "domino_sqlite_begin"

T = TypeVar("T")


def by_dialect(build: Callable[[Callable[..., Any]], T]) -> dict[str, T]:
    """A statement made with each supported database's own INSERT (both have ON CONFLICT),
    by dialect name: built once, then picked by `session.get_bind().dialect.name`."""
    return {"postgresql": build(pg_insert), "sqlite": build(sqlite_insert)}


async def write_transaction(session: AsyncSession) -> None:
    """Start `session`'s transaction as a writer: on SQLite it takes the write lock at once,
    so two concurrent writers queue up instead of failing with "database is locked"."""
    await session.connection(execution_options={SQLITE_BEGIN: "IMMEDIATE"})


class Database:
    """One engine and its session factory, shared by a whole process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_engine(url)
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    def session(self) -> AsyncSession:
        return self.sessionmaker()

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction that writes, committed at the end (rolled back on an
        error). It is the writer from its first statement (`write_transaction`): a
        transaction that reads before it writes would otherwise fail on SQLite with
        "database is locked" when another write commits in between, instead of queuing."""
        async with self.sessionmaker() as session, session.begin():
            await write_transaction(session)
            yield session

    async def ping(self) -> bool:
        """True when the database answers a trivial query in time."""
        try:
            async with asyncio.timeout(PING_SECONDS), self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception as error:
            metrics.count_error(error)
            return False
        return True

    async def dispose(self) -> None:
        await self.engine.dispose()


def alembic_config() -> Config:
    if not (MIGRATIONS_DIR / "env.py").is_file():
        raise RuntimeError(f"migration scripts not found in {MIGRATIONS_DIR}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def _run(connection: Connection, action: str, revision: str) -> None:
    config = alembic_config()
    # env.py uses this connection instead of opening its own (see migrations/env.py).
    config.attributes["connection"] = connection
    if action == "upgrade":
        command.upgrade(config, revision)
    else:
        command.downgrade(config, revision)


async def _alembic(url: str, action: str, revision: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run, action, revision)
    finally:
        await engine.dispose()


async def migrate(url: str, revision: str = "head") -> None:
    """Apply every migration up to `revision` (the server does this at start)."""
    await _alembic(url, "upgrade", revision)


async def downgrade(url: str, revision: str = "base") -> None:
    """Undo migrations down to `revision` (tests and emergencies only)."""
    await _alembic(url, "downgrade", revision)
