"""The review worker (`domino worker`, PROTOCOL §2f): takes reviews from the queue in the
database one at a time and computes them, in a process that serves no sockets.

The search runs in a thread of this process while its event loop renews the lease every
third of it with the progress so far. A worker that dies stops renewing; once its lease
has run out another worker takes the review again from the start. A worker whose lease
was taken from it (it stalled) learns so at its next renewal, stops, and stores nothing;
so does a worker that is told to stop, which puts the review back in the queue first.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import time
from dataclasses import dataclass
from typing import Any

from app.bots.review import review
from app.db import games, reviews
from app.db.session import Database
from app.services.durable.reviews import now_ms

log = logging.getLogger(__name__)


class Abandoned(Exception):
    """The review is no longer this worker's to finish."""


@dataclass
class Job:
    """One review being computed: its progress as the search reports it, and whether the
    search is to stop (the lease was lost, or the worker stops)."""

    game_id: str
    attempt: int
    done: int = 0
    total: int = 1
    stop: bool = False

    def report(self, done: int, total: int) -> None:
        self.done, self.total = done, max(1, total)
        if self.stop:
            raise Abandoned(self.game_id)

    @property
    def progress(self) -> float:
        return min(1.0, self.done / self.total)


def seed_of(game_id: str) -> int:
    """The search's seed for a game: the same review every time it is computed."""
    return int.from_bytes(hashlib.sha256(b"review:" + game_id.encode()).digest()[:8], "big")


def worker_name() -> str:
    return f"{socket.gethostname()[:40]}:{os.getpid()}"


class ReviewWorker:
    def __init__(
        self, db: Database, budget: int | None, lease_seconds: float, poll_seconds: float,
        name: str | None = None,
    ) -> None:
        self.db = db
        self.budget = budget
        self.lease_ms = max(1, int(lease_seconds * 1000))
        self.poll_seconds = poll_seconds
        self.name = name or worker_name()
        self.stopping = asyncio.Event()
        self.job: Job | None = None

    async def run(self) -> None:
        """Work until told to stop (`stop()`)."""
        log.info("review worker %s: waiting for reviews", self.name)
        while not self.stopping.is_set():
            try:
                worked = await self.once()
            except Exception:
                log.exception("review worker %s: a review failed", self.name)
                worked = False
            if not worked:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), self.poll_seconds)

    def stop(self) -> None:
        self.stopping.set()
        if self.job is not None:
            self.job.stop = True

    async def once(self) -> bool:
        """Take one review and compute it; False when there was none to take."""
        async with self.db.writing() as session:
            taken = await reviews.take(session, self.name, now_ms(), self.lease_ms)
        if taken is None:
            return False
        game_id, attempt = taken
        async with self.db.session() as session:
            record = await games.record(session, game_id)
        job = self.job = Job(game_id, attempt)
        log.info("review worker %s: reviewing %s (attempt %d)", self.name, game_id, attempt)
        started = time.process_time()
        try:
            result = await self._compute(job, record)
        except Abandoned:
            if self.stopping.is_set():
                async with self.db.writing() as session:
                    await reviews.give_back(session, game_id, self.name, attempt)
            log.info("review worker %s: gave up %s", self.name, game_id)
            return True
        finally:
            self.job = None
        async with self.db.writing() as session:
            stored = await reviews.store(session, game_id, self.name, attempt, result, now_ms())
        log.info("review worker %s: %s %s in %.1f s of CPU", self.name,
                 "reviewed" if stored else "lost the lease of", game_id,
                 time.process_time() - started)
        return True

    async def _compute(self, job: Job, record: dict[str, Any] | None) -> dict[str, Any]:
        if record is None:
            raise Abandoned(job.game_id)
        search = asyncio.create_task(asyncio.to_thread(
            review, record, seed_of(job.game_id), self.budget, job.report
        ))
        beat = self.lease_ms / 3000
        while not search.done():
            await asyncio.wait([search], timeout=beat)
            if search.done():
                break
            async with self.db.writing() as session:
                held = await reviews.renew(session, job.game_id, self.name, job.attempt,
                                           job.progress, now_ms() + self.lease_ms)
            if not held:
                job.stop = True
        return dict(await search)
