"""A real server process per test module, once on PostgreSQL and once on SQLite."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from app.db.session import Database
from tests.persistence import BACKENDS, fresh_database
from tests.servers import Server, run_server

# The servers under test sign with this key, so tests can forge tokens exactly as an
# attacker who knew it would (expired ones) and as one who does not (tampered ones).
SECRET = f"test-secret-{secrets.token_hex(16)}"


@pytest.fixture(scope="module", params=BACKENDS)
def database_url(
    request: pytest.FixtureRequest, pg_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with fresh_database(request.param, pg_url, tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"DOMINO_DATABASE_URL": database_url, "DOMINO_SECRET_KEY": SECRET}
    with run_server(env, log_dir=tmp_path_factory.mktemp("server")) as running:
        yield running


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        yield http


@pytest.fixture
async def db(database_url: str, server: Server) -> AsyncIterator[Database]:
    """The server's database, for writing finished games as the live layer would."""
    database = Database(database_url)
    yield database
    await database.dispose()


def register(client: httpx.Client, name: str, password: str = "correct horse") -> dict:
    response = client.post("/api/auth/register", json={"username": name, "password": password})
    assert response.status_code == 201, response.text
    return response.json()
