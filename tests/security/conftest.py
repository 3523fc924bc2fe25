"""Real server processes for the security tests, each module with its own Redis prefix
(so the rate limits and caps one module spends never reach another's); a pair shares one,
so what one process learns (a sign-out) must reach the other."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.servers import Server, clear_redis_prefix, run_server


def security_env(pg_url: str, redis_url: str, prefix: str, **extra: str) -> dict[str, str]:
    return {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": prefix,
        "DOMINO_SWEEP_SECONDS": "0.1",
        **extra,
    }


@contextmanager
def servers(
    pg_url: str, redis_url: str, log_dir: Path, count: int = 1, **extra: str
) -> Iterator[list[Server]]:
    """`count` processes sharing PostgreSQL and a fresh Redis prefix, with `extra` settings."""
    prefix = f"domino_sec_{secrets.token_hex(6)}"
    env = security_env(pg_url, redis_url, prefix, **extra)
    try:
        with run_server(env, log_dir=log_dir) as first:
            if count == 1:
                yield [first]
            else:
                with run_server(env, log_dir=log_dir) as second:
                    yield [first, second]
    finally:
        clear_redis_prefix(redis_url, prefix)


@pytest.fixture(scope="module")
def server(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("security")) as running:
        yield running[0]


@pytest.fixture(scope="module")
def security_pair(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("security"), count=2) as running:
        yield running[0], running[1]


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The defaults: a SQLite file and the in-process live store."""
    log_dir = tmp_path_factory.mktemp("security-embedded")
    env = {"DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{log_dir / 'domino.db'}",
           "DOMINO_REDIS_URL": ""}
    with run_server(env, log_dir=log_dir) as running:
        yield running
