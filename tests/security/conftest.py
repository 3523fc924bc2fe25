"""Real server processes for the security tests: two processes sharing PostgreSQL and a
Redis prefix of their own, so what one process learns (a sign-out) must reach the other."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import Server, run_server


@pytest.fixture(scope="session")
def security_pair(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    env = {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": f"{redis_prefix}_security",
        "DOMINO_SWEEP_SECONDS": "0.1",
    }
    log_dir = tmp_path_factory.mktemp("security")
    with run_server(env, log_dir=log_dir) as first, run_server(env, log_dir=log_dir) as second:
        yield first, second


@pytest.fixture(scope="session")
def server(security_pair: tuple[Server, Server]) -> Server:
    return security_pair[0]


@pytest.fixture(scope="session")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The defaults: a SQLite file and the in-process live store."""
    log_dir = tmp_path_factory.mktemp("security-embedded")
    env = {"DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{log_dir / 'domino.db'}",
           "DOMINO_REDIS_URL": ""}
    with run_server(env, log_dir=log_dir) as running:
        yield running
