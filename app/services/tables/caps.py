"""What one player may hold at once, and how long a table may wait for players.

- Waiting tables: a player may have created at most `max_waiting_tables` tables that are
  still waiting for players; a table that has not started `waiting_table_seconds` after
  it was made is removed (and the lobby told, as for any removed table).
- Sockets: at most `max_sockets_per_player` signed-in sockets per player, and at most
  `max_anon_sockets_per_address` sockets not signed in per client address, on all
  processes together.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

from app import metrics
from app.config import Settings
from app.live.caps import Caps
from app.live.store import LiveStore
from app.services.tables.table import REMOVE, Remove, Table
from app.services.tables.transact import ServiceError, load, now_ms, transact

log = logging.getLogger(__name__)

WAITING = "waiting"
SOCKETS = "sockets"
ANONYMOUS = "anon-sockets"
# A socket's lease runs this long and is renewed well before it ends.
SOCKET_LEASE_MS = 180_000
SOCKET_RENEW_SECONDS = 60.0
# A removal claimed by a process that died is tried again after this long.
EXPIRY_LEASE_MS = 30_000


def lapse(table: Table) -> Remove | None:
    """A waiting table nobody filled in time goes; a started one stays."""
    return REMOVE if table.status == "waiting" else None


class PlayerCaps:
    def __init__(self, store: LiveStore, settings: Settings) -> None:
        self.store = store
        self.caps = Caps(store.redis, settings.redis_prefix, store.runner)
        self.max_waiting = settings.max_waiting_tables
        self.waiting_ms = int(settings.waiting_table_seconds * 1000)
        self.max_sockets = settings.max_sockets_per_player
        self.max_anonymous = settings.max_anon_sockets_per_address
        self._sweeper: asyncio.Task[None] | None = None

    # -- waiting tables ------------------------------------------------------------------

    def admit_table(self, player_id: int) -> Callable[[str], Awaitable[None]]:
        """For `lobby.create_table`: take one of `player_id`'s waiting-table places for a
        new table (refused at the cap) and set when it is removed if nobody fills it."""

        async def admit(table_id: str) -> None:
            now = now_ms()
            over = []
            for held in await self.caps.held(WAITING, player_id, now):
                table = await load(self.store, held)
                if table is None or table.status != "waiting":
                    over.append(held)
            expires = now + self.waiting_ms
            if not await self.caps.lease(WAITING, player_id, table_id, self.max_waiting, now,
                                         expires, over):
                raise ServiceError("bad_request", "too_many_waiting", 409, n=self.max_waiting)
            await self.caps.expire_waiting_at(table_id, expires)

        return admit

    async def expire_waiting(self) -> int:
        """Remove the waiting tables whose time is up; returns how many were removed."""
        removed = 0
        for table_id in await self.caps.waiting_due(now_ms(), EXPIRY_LEASE_MS):
            try:
                gone = await transact(self.store, table_id, lapse) is None
            except ServiceError as error:
                if error.code != "not_found":
                    continue  # busy: looked at again after the lease
                gone = False
            if gone:
                removed += 1
                log.info("waiting table %s removed: nobody filled it in time", table_id)
            await self.caps.forget_waiting(table_id)
        return removed

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)

    async def _sweep(self) -> None:
        every = min(5.0, max(0.1, self.waiting_ms / 4000))
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_waiting()
            except (RedisError, OSError) as error:
                metrics.count_error(error)
            except Exception:
                log.exception("removing expired waiting tables failed; trying again")

    # -- sockets -------------------------------------------------------------------------

    async def hold_socket(self, player_id: int, socket_id: str) -> bool:
        """Count this socket among the player's (renewed by calling again); False at the cap."""
        now = now_ms()
        return await self.caps.lease(SOCKETS, player_id, socket_id, self.max_sockets, now,
                                     now + SOCKET_LEASE_MS)

    async def drop_socket(self, player_id: int, socket_id: str) -> None:
        await self.caps.release(SOCKETS, player_id, socket_id)

    async def hold_anonymous(self, address: str, socket_id: str) -> bool:
        """Count this socket among the address's sockets that are not signed in (renewed
        by calling again); False at the cap."""
        now = now_ms()
        return await self.caps.lease(ANONYMOUS, address, socket_id, self.max_anonymous, now,
                                     now + SOCKET_LEASE_MS)

    async def drop_anonymous(self, address: str, socket_id: str) -> None:
        await self.caps.release(ANONYMOUS, address, socket_id)
