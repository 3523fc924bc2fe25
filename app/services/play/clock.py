"""Turn clocks: every process sweeps the store's deadlines and applies the timeouts.

Deadlines live in the store (a sorted set), never in a process. A claim hands each
expired deadline to exactly one process (see LiveStore.claim_deadlines); the timeout
then goes through the same compare-and-set as a move, so a move made in time and a
timeout can never both win. The same loop retires finished tables from the lobby,
writes finished games still unwritten and refreshes this process's presence.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

from app import metrics
from app.live.store import LiveStore
from app.live.tasks import stop_task
from app.services.durable.finish import Finisher
from app.services.durable.recovery import Recovery
from app.services.fanout.feed import PRESENCE_REFRESH_SECONDS, Feed
from app.services.play import moves
from app.services.tables.settle import settled
from app.services.tables.transact import Change, now_ms

log = logging.getLogger(__name__)

# A claimed deadline comes back after this long if its claimer died before acting on it;
# applying a timeout is one compare-and-set, so a live claimer is done long before, and if
# two processes ever both act on one, the compare-and-set lets only one timeout through.
CLAIM_LEASE_MS = 1_500
RESULTS_SWEEP_SECONDS = 1.0


class Clock:
    def __init__(
        self,
        store: LiveStore,
        feed: Feed,
        finisher: Finisher,
        every: float,
        due: Callable[[str], Awaitable[Change | None]] | None = None,
        recovery: Recovery | None = None,
        recover_seconds: float = 10.0,
    ) -> None:
        self.store = store
        # What to do with a table whose time has come (bot_turns also plays bots' turns).
        self.due = due or (lambda table_id: moves.expire(store, table_id))
        self.feed = feed
        self.finisher = finisher
        self.every = every
        self.recovery = recovery
        self.recover_seconds = recover_seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="live-clock")

    async def stop(self) -> None:
        await stop_task(self._task)

    async def expire_due(self) -> int:
        """Apply every expired turn deadline this process wins; returns how many."""
        applied = 0
        for table_id in await self.store.claim_deadlines(now_ms(), CLAIM_LEASE_MS):
            change = await settled(self.due(table_id), self.finisher)
            if change is not None:
                applied += 1
                metrics.timeouts.inc()
        return applied

    async def resume(self, down_since: int) -> int:
        """The store is back after being unreachable since `down_since`: restart the clock of
        every turn that was running meanwhile (once, by whichever process gets there first),
        before any of them can time out. Returns how many clocks this process restarted."""
        now = now_ms()
        if not await self.store.claim_resumption(down_since, now):
            return 0
        restarted = 0
        for table_id in await self.store.running_since(down_since):
            if await moves.restart_clock(self.store, table_id, now - down_since) is not None:
                restarted += 1
        log.warning("live store back after %d ms: restarted %d turn clocks",
                    now - down_since, restarted)
        return restarted

    async def _run(self) -> None:
        last_results = last_presence = last_recovery = 0.0
        while True:
            started = now_ms()
            try:
                await self.store.keep_sets()  # a cluster's sets a write could not keep
                if self.store.outage_since is not None:
                    await self.resume(self.store.outage_since)
                    self.store.outage_over(now_ms())
                await self.expire_due()
                await self.store.retire_due(now_ms())
                now = time.monotonic()
                if now - last_results >= RESULTS_SWEEP_SECONDS:
                    last_results = now
                    await self.finisher.sweep()
                    if self.recovery is not None:
                        look = now - last_recovery >= self.recover_seconds
                        if look:
                            last_recovery = now
                        await self.recovery.sweep(look_for_lost=look)
                if now - last_presence >= PRESENCE_REFRESH_SECONDS:
                    last_presence = now
                    await self.feed.refresh_presence()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                metrics.count_error(error)
                self.store.note_outage(started, error)
            except Exception as error:
                metrics.count_error(error)
                log.exception("clock sweep failed; trying again")
            await asyncio.sleep(self.every)
