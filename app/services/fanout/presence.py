"""Who is at a table, as this process knows it: which seats have a socket here (written to
the store's presence hash, refreshed while it lasts and expiring if this process dies) and
how many spectators' sockets are here (counted beside it). The store announces every change
of either with the total over every process (app.services.fanout.feed shows it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from app.live.store import LiveStore
from app.services.fanout.watch import Watch
from app.services.tables.transact import now_ms

log = logging.getLogger(__name__)

# Presence entries live this long unless their process refreshes them.
PRESENCE_TTL_MS = 30_000
PRESENCE_REFRESH_SECONDS = 10.0
PRESENCE_KEEP_SECONDS = 60
# Spectators coming and going are counted in the store at most this often per table.
WATCHERS_DEBOUNCE_SECONDS = 0.25

Spawn = Callable[[Coroutine[Any, Any, None], str], None]


class Presence:
    """The presence work of one process's tables (`watches`, the feed's own), with `spawn`
    running a piece of it in a task of its own."""

    def __init__(self, store: LiveStore, process_id: str, watches: dict[str, Watch],
                 spawn: Spawn) -> None:
        self.store = store
        self.process_id = process_id
        self.watches = watches
        self._spawn = spawn

    async def update(self, watch: Watch) -> None:
        """Mark the seats that have a socket here present in the store (and announce it)."""
        async with watch.presence_lock:
            snapshot = watch.latest
            seat_of_sub = [] if snapshot is None or self.watches.get(watch.table_id) is not watch \
                else [snapshot.seat_for(sub.player_id) for sub in watch.subs]
            seats = {seat for seat in seat_of_sub if seat is not None}
            watchers = sum(seat is None for seat in seat_of_sub)
            self._note_watchers(watch, watchers)
            before = watch.local_seats
            if seats == before:
                return
            now = now_ms()
            await self.store.set_presence(
                watch.table_id, self.process_id, seats, before - seats, now,
                now + PRESENCE_TTL_MS, PRESENCE_KEEP_SECONDS,
            )
            watch.local_seats = seats
            watch.connected = (watch.connected - (before - seats)) | seats

    def _note_watchers(self, watch: Watch, watchers: int) -> None:
        """Count this process's spectators of the table in the store soon: a crowd coming
        or going at once is written once, not once per socket."""
        watch.watchers_now = watchers
        if watchers != watch.local_watchers and not watch.watchers_pending:
            watch.watchers_pending = True
            self._spawn(self._flush_watchers(watch), f"spectators of table {watch.table_id}")

    async def _flush_watchers(self, watch: Watch) -> None:
        await asyncio.sleep(WATCHERS_DEBOUNCE_SECONDS)
        watch.watchers_pending = False
        if watch.watchers_now != watch.local_watchers:
            await self._update_watchers(watch, watch.watchers_now)

    async def _update_watchers(self, watch: Watch, watchers: int) -> None:
        """Store how many spectators' sockets are here; announce the new total."""
        now = now_ms()
        # Counted as stored before the store answers: the script announces the new total,
        # and that announcement may be read first; with the old local count beside it this
        # process's spectators would be counted twice (and shown so until the next change).
        # The total is taken from that announcement only, never from the reply: the reply
        # comes on another connection and may be read after a later change's announcement
        # (another process's), which it would undo (and the processes would disagree).
        before, watch.local_watchers = watch.local_watchers, watchers
        try:
            await self.store.count_spectators(
                watch.table_id, self.process_id, watchers, now, now + PRESENCE_TTL_MS,
                PRESENCE_KEEP_SECONDS,
            )
        except BaseException:
            watch.local_watchers = before
            raise

    async def refresh(self) -> None:
        """Renew this process's entries before they expire."""
        for watch in list(self.watches.values()):
            if watch.local_seats:
                now = now_ms()
                await self.store.set_presence(
                    watch.table_id, self.process_id, watch.local_seats, set(), now,
                    now + PRESENCE_TTL_MS, PRESENCE_KEEP_SECONDS,
                )
            if watch.local_watchers:
                await self.store.set_watchers(
                    watch.table_id, self.process_id, watch.local_watchers,
                    now_ms() + PRESENCE_TTL_MS, PRESENCE_KEEP_SECONDS,
                )

    async def clear(self) -> None:
        """This process is stopping: its seats and spectators are gone from every table."""
        for watch in list(self.watches.values()):
            if watch.local_seats:
                try:
                    await self.store.set_presence(
                        watch.table_id, self.process_id, set(), watch.local_seats, now_ms(),
                        0, PRESENCE_KEEP_SECONDS,
                    )
                except Exception:
                    log.warning("could not clear presence of table %s", watch.table_id)
            if watch.local_watchers:
                try:
                    await self.store.set_watchers(
                        watch.table_id, self.process_id, 0, 0, PRESENCE_KEEP_SECONDS
                    )
                except Exception:
                    log.warning("could not clear the spectators of table %s", watch.table_id)
