"""Shared fixtures: a fresh PostgreSQL database and a private Redis key prefix per test run.

Every run gets its own database and prefix, so parallel runs on one machine never meet.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator

import asyncpg
import pytest
import redis

PG_ADMIN_DSN = os.environ.get("DOMINO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("DOMINO_TEST_REDIS", "redis://127.0.0.1:6379/0")


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN_DSN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """SQLAlchemy URL of a new, empty PostgreSQL database, dropped after the run."""
    name = f"domino_test_{secrets.token_hex(6)}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    yield f"{base}/{name}"
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def redis_url() -> str:
    return REDIS_URL


@pytest.fixture(scope="session")
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix no other run uses; its keys are deleted after the run."""
    prefix = f"domino_test_{secrets.token_hex(6)}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{prefix}*"):
        client.delete(key)
    client.close()
