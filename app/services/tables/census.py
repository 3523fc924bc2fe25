"""What the whole deployment holds right now, read from the shared store for the metrics.

Counted in the background every `CENSUS_SECONDS` (each process counts alike), never at a
scrape: a scrape reads the gauges, so scraping often costs the store nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from dataclasses import dataclass

from app import metrics
from app.live.store import LiveStore
from app.services.tables.table import Table

log = logging.getLogger(__name__)

CENSUS_SECONDS = 5.0


@dataclass(frozen=True)
class Census:
    # (status, variant) -> how many tables of the lobby index are in that state.
    tables: dict[tuple[str, str], int]
    # Finished games not yet written to the database (the results writer's backlog).
    unwritten: int


async def take(store: LiveStore) -> Census:
    listed = [Table.from_dict(t.state) for t in await store.listed()]
    tables: Counter[tuple[str, str]] = Counter((t.status, t.variant) for t in listed)
    return Census(dict(tables), len(await store.unwritten()))


class Counting:
    """Keeps the census gauges (`metrics.tables`, `metrics.results_backlog`) up to date."""

    def __init__(self, store: LiveStore, every: float = CENSUS_SECONDS) -> None:
        self.store = store
        self.every = every
        self._seen: set[tuple[str, str]] = set()
        self._task: asyncio.Task[None] | None = None

    async def count(self) -> None:
        now = await take(self.store)
        # A kind of table that is gone reads 0, not its last count.
        for labels in self._seen | set(now.tables):
            metrics.tables.labels(*labels).set(now.tables.get(labels, 0))
        self._seen |= set(now.tables)
        metrics.results_backlog.set(now.unwritten)
        metrics.census_time.set_to_current_time()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="census")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.count()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                metrics.count_error(error)
                log.warning("counting the tables for the metrics failed: %r", error)
            await asyncio.sleep(self.every)
