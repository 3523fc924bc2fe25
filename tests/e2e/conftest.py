"""Real server processes for end-to-end tests (reusable by the browser tests).

- `server`: one `domino serve` on the run's PostgreSQL database and Redis prefix.
- `server_pair`: two processes sharing one PostgreSQL database and one Redis prefix.
- `embedded_server`: the defaults, no Redis server and a SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e.browser import browser, open_tab  # noqa: F401  (fixtures of the browser tests)
from tests.servers import LOAD_LIMITS, Server, free_port, run_server

# Short sweeps keep timeouts prompt; the turn clocks themselves are what tests set.
SWEEP = "0.1"


def _env(pg_url: str, redis_url: str, prefix: str) -> dict[str, str]:
    return {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": prefix,
        "DOMINO_SWEEP_SECONDS": SWEEP,
        # many players from one address, all session long
        **LOAD_LIMITS,
    }


@pytest.fixture(scope="session")
def server(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    log_dir = tmp_path_factory.mktemp("server")
    with run_server(_env(pg_url, redis_url, redis_prefix), log_dir=log_dir) as running:
        yield running


@contextmanager
def running_pair(
    pg_url: str, redis_url: str, prefix: str, log_dir: Path
) -> Iterator[tuple[Server, Server]]:
    """Two processes sharing PostgreSQL and the Redis prefix `prefix`."""
    env = _env(pg_url, redis_url, prefix)
    with run_server({**env, "DOMINO_METRICS_PORT": str(free_port())}, log_dir=log_dir) as first, \
            run_server({**env, "DOMINO_METRICS_PORT": str(free_port())}, log_dir=log_dir) as second:
        yield first, second


@pytest.fixture(scope="session")
def server_pair(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    """Two processes sharing PostgreSQL and a Redis prefix of their own."""
    log_dir = tmp_path_factory.mktemp("pair")
    with running_pair(pg_url, redis_url, f"{redis_prefix}_pair", log_dir) as pair:
        yield pair


@pytest.fixture(scope="session")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log_dir = tmp_path_factory.mktemp("embedded")
    env = {
        "DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{log_dir / 'domino.db'}",
        "DOMINO_REDIS_URL": "",
        "DOMINO_SWEEP_SECONDS": SWEEP,
    }
    with run_server(env, log_dir=log_dir) as running:
        yield running
