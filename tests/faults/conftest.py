"""Fixtures of the fault tests: stores of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.stores import PrivatePostgres, PrivateRedis


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.kill()


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    postgres = PrivatePostgres()
    try:
        postgres.init()
        postgres.start()
        yield postgres
    finally:
        postgres.remove()
