"""Starting and stopping: a failed start ends at once, a stop always ends, in time.

The hang of issue 14 ("Waiting for application shutdown." forever, deaf to SIGTERM and
Ctrl+C) was the turn clock's loop surviving its cancellation: on Python 3.11
`asyncio.wait_for` swallows a cancellation that arrives as the awaited thing completes
(CPython gh-86296), the in-process store (fakeredis) waits for every reply through
`wait_for`, and its replies are ready at once. Stopping right after start (the
taken-port case) cancelled the clock in the middle of its first store calls nearly
every time; `Clock.stop()` then waited forever for a task that went on sweeping.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.db.session import Database, migrate
from app.live.keys import Keys
from app.services.runtime import LiveTables
from tests.e2e.client import Player
from tests.e2e.game import seat_players
from tests.servers import Server, free_port, run_server

pytestmark = pytest.mark.timeout(600)

SHUTDOWN = 5.0


def _embedded_env(folder: Path) -> dict[str, str]:
    """`make run`'s configuration: a SQLite file and the in-process store."""
    return {
        "DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'domino.db'}",
        "DOMINO_REDIS_URL": "",
        "DOMINO_SHUTDOWN_SECONDS": str(SHUTDOWN),
    }


def _stop(server: Server, sig: int = signal.SIGTERM) -> float:
    """Send `sig` and wait for the process to end; returns how long it took."""
    started = time.monotonic()
    server.process.send_signal(sig)
    try:
        server.process.wait(timeout=SHUTDOWN + 10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
        pytest.fail(f"the server did not stop:\n{server.output()}")
    return time.monotonic() - started


def _stopped_gracefully(server: Server, took: float) -> None:
    output = server.output()
    # Ended by its own re-raised SIGTERM after a complete stop, not by the watchdog.
    assert server.process.returncode == -signal.SIGTERM, output
    assert "exiting now" not in output, output
    assert "Application shutdown complete." in output, output
    assert took < SHUTDOWN, output


async def test_the_live_machinery_stops_at_once_however_soon_after_start(
    tmp_path: Path,
) -> None:
    """The cause itself, many times over: start the embedded store's clock and stop it
    straight away, as a start that fails to bind the port did."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'domino.db'}", redis_url=""
    )
    await migrate(settings.database_url)
    db = Database(settings.database_url)
    try:
        for attempt in range(60):
            live = LiveTables(settings, db)
            await live.start()
            # Vary the moment: the clock is somewhere in its first sweep.
            for _ in range(attempt % 6):
                await asyncio.sleep(0)
            try:
                await asyncio.wait_for(asyncio.shield(live.stop()), 5)
            except TimeoutError:
                pytest.fail(f"attempt {attempt}: the live tables did not stop within 5 s")
    finally:
        await db.dispose()


@contextmanager
def _port_taken() -> Iterator[int]:
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        yield port


def test_a_taken_port_ends_the_start_at_once_with_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    with _port_taken() as port:
        for _ in range(5):
            started = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
                cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30,
            )
            assert time.monotonic() - started < 5
            assert done.returncode == 1
            assert done.stderr.strip().splitlines() == [
                f"domino serve: cannot listen on 127.0.0.1:{port}: Address already in use"
            ]
            assert "Domino server on" not in done.stdout
    assert not (tmp_path / "domino.db").exists()  # refused before touching anything


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("DOMINO_DATABASE_URL", "postgresql+asyncpg://domino:hunter2@127.0.0.1:1/domino",
         "cannot use the database postgresql+asyncpg://domino:***@127.0.0.1:1/domino"),
        ("DOMINO_REDIS_URL", "redis://:hunter2@127.0.0.1:1/0",
         "cannot use Redis at redis://:***@127.0.0.1:1/0"),
        # a Redis Cluster none of whose nodes answers, and a cluster URL that names no node
        ("DOMINO_REDIS_URL", "redis+cluster://:hunter2@127.0.0.1:1,127.0.0.1:2",
         "cannot use Redis at redis+cluster://"),
        ("DOMINO_REDIS_URL", "redis+cluster://:hunter2@127.0.0.1:port",
         "cannot use Redis at redis+cluster://"),
        ("DOMINO_MODE", "production", "bad configuration: DOMINO_SECRET_KEY must be set"),
    ],
)
def test_a_start_that_cannot_go_on_says_why_in_one_line(
    tmp_path: Path, setting: str, value: str, says: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    env |= {setting: value, "DOMINO_PORT": str(free_port())}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert "hunter2" not in done.stderr


def test_a_failed_migration_says_why_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    env["DOMINO_DATABASE_URL"] = "postgresql+asyncpg://domino:hunter2@127.0.0.1:1/domino"
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "domino migrate: cannot use the database postgresql+asyncpg://domino:***@127.0.0.1:1"
        "/domino: [Errno 111] Connect call failed ('127.0.0.1', 1)"
    ]


def test_an_idle_server_stops_on_sigterm_within_the_setting(tmp_path: Path) -> None:
    for attempt in range(2):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        with run_server(_embedded_env(folder), log_dir=folder) as server:
            _stopped_gracefully(server, _stop(server))


async def _sign_up_until_refused(url: str) -> list[int]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:

        async def one(i: int) -> int:
            r = await http.post(
                "/api/auth/register",
                json={"username": f"burst{i}_{os.getpid()}", "password": "password123"},
            )
            return r.status_code

        return list(await asyncio.gather(*(one(i) for i in range(40))))


async def test_a_sign_up_burst_ending_in_429_does_not_stop_the_stop(tmp_path: Path) -> None:
    """The operator's report: a burst of sign-ups ending in a 429, then SIGTERM."""
    env = _embedded_env(tmp_path) | {"DOMINO_AUTH_BURST": "12", "DOMINO_AUTH_RATE": "1"}
    for attempt in range(4):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        with run_server(env | _embedded_env(folder), log_dir=folder) as server:
            codes = await _sign_up_until_refused(server.url)
            assert 429 in codes and 201 in codes, codes
            _stopped_gracefully(server, _stop(server))


async def test_sigterm_tells_every_socket_to_reconnect_and_releases_presence(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    prefix = f"{redis_prefix}_stop"
    env = {
        "DOMINO_DATABASE_URL": pg_url, "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": prefix, "DOMINO_SHUTDOWN_SECONDS": str(SHUTDOWN),
    }
    with run_server(env, log_dir=tmp_path) as server:
        seated = await seat_players([server], seats=4)
        await seated.first_playing_state()
        lookers = [await Player(server.ws_url).connect() for _ in range(8)]
        sockets = [*seated.players, seated.spectator, *lookers]
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_url, decode_responses=True)
        presence_key = Keys(prefix).presence(seated.table_id)
        assert len(await client.hgetall(presence_key)) == 4

        took = _stop(server)
        _stopped_gracefully(server, took)
        for player in sockets:
            await asyncio.wait_for(player._reader, 5)
            assert player.closed == 1012
        # No seat is shown as connected through the stopped process any more.
        assert await client.hgetall(presence_key) == {}
        await client.aclose()


@contextmanager
def _stuck_request(server: Server) -> Iterator[None]:
    """A request whose body never comes: the graceful stop waits for it (up to its bound)."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as stuck:
        stuck.sendall(
            b"POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
            b"\r\nContent-Length: 100\r\n\r\n{"
        )
        time.sleep(0.5)
        yield


def test_a_second_signal_ends_a_slow_stop_at_once(tmp_path: Path) -> None:
    env = _embedded_env(tmp_path) | {"DOMINO_SHUTDOWN_SECONDS": "60"}
    with run_server(env, log_dir=tmp_path) as server, _stuck_request(server):
        server.process.send_signal(signal.SIGTERM)
        time.sleep(1.5)
        assert server.process.poll() is None  # still waiting for the request (36 s)
        took = _stop(server, signal.SIGINT)
        assert took < 2
        assert server.process.returncode == 1
        assert "a second stop signal; exiting now" in server.output()


def test_a_stop_held_up_by_a_stuck_request_still_ends_within_the_setting(
    tmp_path: Path,
) -> None:
    with run_server(_embedded_env(tmp_path), log_dir=tmp_path) as server, _stuck_request(server):
        took = _stop(server)
        assert took < SHUTDOWN, server.output()


def _children(pid: int) -> set[int]:
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids |= {int(k) for k in (task / "children").read_text().split()}
    return kids


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_stopped_server_leaves_no_review_worker_behind(tmp_path: Path) -> None:
    """The review worker `domino serve` starts beside itself ends with it: uvicorn ends a
    SIGTERMed server by raising the signal again, which runs none of the code that stops
    the worker, so the worker sees for itself that its server is gone."""
    env = {**_embedded_env(tmp_path), "DOMINO_REVIEW_WORKER": "embedded"}
    with run_server(env, log_dir=tmp_path) as server:
        deadline = time.monotonic() + 30
        while not (workers := _children(server.process.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) == 1, "domino serve started no review worker"
        _stop(server)
    (worker,) = workers
    deadline = time.monotonic() + 15
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(worker), "the review worker outlived its server"
