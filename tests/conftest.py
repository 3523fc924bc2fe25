"""Shared fixtures: a fresh PostgreSQL database and a private Redis key prefix per test run.

Every run gets its own database and prefix, so parallel runs on one machine never meet.

A test marked `cluster` runs on one Redis and, when DOMINO_TEST_REDIS_CLUSTER names a Redis
Cluster (`make cluster` starts one: `redis+cluster://127.0.0.1:7101`), on that cluster too:
its `redis_url` is parametrised over both (ids `redis` and `cluster`).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator

import pytest

from tests.servers import clear_redis_prefix, database_url, pg_admin

REDIS_URL = os.environ.get("DOMINO_TEST_REDIS", "redis://127.0.0.1:6379/0")
CLUSTER_URL = os.environ.get("DOMINO_TEST_REDIS_CLUSTER", "")

# Hundreds of accounts are made and signed in over a run: a cheap password hash in this
# process and in every server it starts (they inherit the environment). The costs are
# settings; the code that hashes and checks is the production code.
for _name, _value in (("DOMINO_PASSWORD_TIME_COST", "1"), ("DOMINO_PASSWORD_MEMORY_KIB", "8192"),
                      ("DOMINO_PASSWORD_LANES", "1")):
    os.environ.setdefault(_name, _value)
# Reviews are computed by the workers the tests that want them start (a review worker
# beside every server the suite starts would be a process each for nothing).
os.environ.setdefault("DOMINO_REVIEW_WORKER", "off")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """SQLAlchemy URL of a new, empty PostgreSQL database, dropped after the run."""
    name = f"domino_test_{secrets.token_hex(6)}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    yield database_url(name)
    asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "cluster: runs on a Redis Cluster too, when DOMINO_TEST_REDIS_CLUSTER names one")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "redis_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker("cluster"):
        stores = ["redis", "cluster"] if CLUSTER_URL else ["redis"]
        metafunc.parametrize("redis_url", stores, indirect=True, scope="session")


@pytest.fixture(scope="session")
def redis_url(request: pytest.FixtureRequest) -> str:
    """One Redis; or the cluster, for a test marked `cluster` (see above)."""
    return CLUSTER_URL if getattr(request, "param", "redis") == "cluster" else REDIS_URL


@pytest.fixture(scope="session")
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix no other run uses; its keys are deleted after the run."""
    prefix = f"domino_test_{secrets.token_hex(6)}"
    yield prefix
    clear_redis_prefix(redis_url, prefix)
