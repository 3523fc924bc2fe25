"""A review worker killed with SIGKILL in the middle of a review (PROTOCOL §2f): the review
is left in the queue under the dead worker's lease, taken again by another `domino worker`
once the lease has run out, and stored once, by that worker."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.db import reviews
from app.db.models import Review
from app.db.session import Database, migrate
from tests.persistence import fresh_database
from tests.reviewed import finished_record, store_finished
from tests.servers import REPO

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def database_url(pg_url: str, tmp_path: Path) -> Iterator[str]:
    with fresh_database("postgresql", pg_url, tmp_path) as url:
        yield url


def _worker(url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DOMINO_DATABASE_URL": url, "DOMINO_REVIEW_BUDGET": "48",
           "DOMINO_REVIEW_LEASE_SECONDS": "3", "DOMINO_REVIEW_POLL_SECONDS": "0.2"}
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "app.cli", "worker"], cwd=REPO,
                                env=env, stdout=out, stderr=subprocess.STDOUT)


async def _row(db: Database, game_id: str) -> Review:
    async with db.session() as session:
        row = await session.get(Review, game_id)
        assert row is not None
        return row


async def _until(db: Database, game_id: str, done: object, what: str, log: Path) -> Review:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        row = await _row(db, game_id)
        if done(row):  # type: ignore[operator]
            return row
        await asyncio.sleep(0.1)
    raise AssertionError(f"{what} did not happen:\n{log.read_text()}")


async def test_a_killed_worker_leaves_the_review_to_another(
    database_url: str, tmp_path: Path
) -> None:
    await migrate(database_url)
    db = Database(database_url)
    log = tmp_path / "workers.log"
    try:
        # A long game (Donkey: many rounds), so the review is still running when killed.
        record = finished_record("donkey", ["a", "b", "c", "d"], 21)
        game_id = await store_finished(db, record, [None] * 4)
        async with db.writing() as session:
            await reviews.ask(session, game_id, 1)
        first = _worker(database_url, log)
        try:
            running = await _until(db, game_id, lambda r: r.status == "running"
                                   and r.progress > 0, "the first worker's progress", log)
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
        finally:
            if first.poll() is None:
                first.kill()
        assert running.worker is not None and running.worker.endswith(f":{first.pid}")
        left = await _row(db, game_id)
        assert left.status == "running" and left.result is None and left.attempts == 1
        second = _worker(database_url, log)
        try:
            done = await _until(db, game_id, lambda r: r.status == "done",
                                "the second worker's review", log)
        finally:
            second.send_signal(signal.SIGTERM)
            assert second.wait(timeout=20) == 0
        assert done.attempts == 2 and done.worker == running.worker.replace(
            f":{first.pid}", f":{second.pid}")
        assert done.result is not None and done.progress == 1
        decisions = sum(len(rd["moves"]) for rd in record["rounds"])
        assert len(done.result["moves"]) == decisions
        assert done.result["engine"]["budget"] == 48
    finally:
        await db.dispose()
