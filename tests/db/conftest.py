"""Every persistence test runs twice: on PostgreSQL and on the SQLite default."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.db.session import Database, migrate
from tests.persistence import BACKENDS, fresh_database


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, pg_url: str, tmp_path: Path) -> Iterator[str]:
    """An empty database (no tables at all)."""
    with fresh_database(request.param, pg_url, tmp_path) as url:
        yield url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """A migrated database."""
    await migrate(database_url)
    database = Database(database_url)
    yield database
    await database.dispose()
