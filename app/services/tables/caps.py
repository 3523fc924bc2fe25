"""What one player may hold at once, and how long a table may wait for players.

- Waiting tables: a player may have created at most `max_waiting_tables` tables that are
  still waiting for players; a table that has not started `waiting_table_seconds` after
  it was made is removed (and the lobby told, as for any removed table).
- Rated games: a player sits at one rated table at a time (waiting or playing; tables,
  seeks, tournaments and whatever else seats him), on all processes together
  (`RatedSeats`, PROTOCOL §2g). Every way to a rated seat takes it here.
- Sockets: at most `max_sockets_per_player` signed-in sockets per player, and at most
  `max_anon_sockets_per_address` sockets not signed in per client address, on all
  processes together.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.config import Settings
from app.live.caps import Caps
from app.live.store import LiveStore
from app.services.sweeps import sweep_every
from app.services.tables.table import REMOVE, Remove, Table
from app.services.tables.transact import ServiceError, load, now_ms, transact

log = logging.getLogger(__name__)

WAITING = "waiting"
RATED = "rated"
# A rated seat's lease: it is given up as soon as its table is over (looked at whenever the
# player sits down again), so this only bounds what a lost table leaves behind.
RATED_LEASE_MS = 12 * 3600 * 1000
SOCKETS = "sockets"
ANONYMOUS = "anon-sockets"
# A seek among its owner's waiting tables.
SEEK_MEMBER = "seek:"
# A socket's lease runs this long and is renewed well before it ends.
SOCKET_LEASE_MS = 180_000
SOCKET_RENEW_SECONDS = 60.0
# A removal claimed by a process that died is tried again after this long.
EXPIRY_LEASE_MS = 30_000


def lapse(table: Table) -> Remove | None:
    """A waiting table nobody filled in time goes; a started one stays."""
    return REMOVE if table.status == "waiting" else None


class RatedGameAlready(ServiceError):
    """A player to be seated at a rated table sits at another one (`player_id`)."""

    def __init__(self, player_id: int) -> None:
        super().__init__("bad_request", "rated_game_already", 409)
        self.player_id = player_id


class RatedSeats:
    """One rated game at a time: a lease per player naming the rated table he sits at.

    A lease whose table is gone, finished or no longer has him seated is over: it is
    dropped when he next sits down, so nothing needs to remember to give it up."""

    def __init__(self, store: LiveStore) -> None:
        self.store = store
        self.caps = Caps(store.redis, store.keys.family("caps"), store.runner)

    async def _over(self, player_id: int, now: int, keep: str = "") -> list[str]:
        over = []
        for held in await self.caps.held(RATED, player_id, now):
            if held == keep:
                continue
            table = await load(self.store, held)
            # (a courtyard's: he neither plays nor waits there any more, PROTOCOL §2d)
            if table is None or not table.holds(player_id):
                over.append(held)
        return over

    async def busy(self, player_ids: list[int]) -> set[int]:
        """Those of `player_ids` who sit at a rated table that is not over."""
        now = now_ms()
        busy = set()
        for player_id in player_ids:
            held = await self.caps.held(RATED, player_id, now)
            if held and len(await self._over(player_id, now)) < len(held):
                busy.add(player_id)
        return busy

    async def check(self, player_id: int) -> None:
        """Refuse (`RatedGameAlready`) a player who sits at a rated table already."""
        if await self.busy([player_id]):
            raise RatedGameAlready(player_id)

    async def take(self, player_ids: list[int], table_id: str) -> None:
        """Seat every one of `player_ids` (people) at the rated table `table_id`, all or
        none: `RatedGameAlready` names one who sits at another."""
        now = now_ms()
        over = {p: await self._over(p, now, keep=table_id) for p in player_ids}
        refused = await self.caps.lease_all(RATED, player_ids, table_id, 1, now,
                                            now + RATED_LEASE_MS, over)
        if refused is not None:
            raise RatedGameAlready(refused)

    async def give_up(self, player_id: int, table_id: str) -> None:
        await self.caps.release(RATED, player_id, table_id)


class PlayerCaps:
    def __init__(self, store: LiveStore, settings: Settings) -> None:
        self.store = store
        self.caps = Caps(store.redis, store.keys.family("caps"), store.runner)
        self.max_waiting = settings.max_waiting_tables
        self.waiting_ms = int(settings.waiting_table_seconds * 1000)
        self.max_sockets = settings.max_sockets_per_player
        self.max_anonymous = settings.max_anon_sockets_per_address
        self.rated = RatedSeats(store)
        self._sweeper: asyncio.Task[None] | None = None

    # -- waiting tables ------------------------------------------------------------------

    def admit_table(self, player_id: int, rated: bool = False
                    ) -> Callable[[str], Awaitable[None]]:
        """For `lobby.create_table`: take one of `player_id`'s waiting-table places for a
        new table (refused at the cap) and set when it is removed if nobody fills it; at a
        `rated` table, his rated seat too."""

        async def admit(table_id: str) -> None:
            now = now_ms()
            over = []
            for held in await self.caps.held(WAITING, player_id, now):
                if held.startswith(SEEK_MEMBER):
                    continue  # an open seek: given up when it ends, or runs out with it
                table = await load(self.store, held)
                if table is None or table.status != "waiting":
                    over.append(held)
            expires = now + self.waiting_ms
            if not await self.caps.lease(WAITING, player_id, table_id, self.max_waiting, now,
                                         expires, over):
                raise ServiceError("bad_request", "too_many_waiting", 409, n=self.max_waiting)
            if rated:
                try:
                    await self.rated.take([player_id], table_id)
                except RatedGameAlready:
                    await self.caps.release(WAITING, player_id, table_id)
                    raise
            await self.caps.expire_waiting_at(table_id, expires)

        return admit

    async def admit_seek(self, player_id: int, seek_id: str, expires_ms: int) -> None:
        """An open seek is a table waiting for players: it takes one of the player's
        waiting-table places until it is matched, cancelled or runs out."""
        if not await self.caps.lease(WAITING, player_id, SEEK_MEMBER + seek_id,
                                     self.max_waiting, now_ms(), expires_ms):
            raise ServiceError("bad_request", "too_many_waiting", 409, n=self.max_waiting)

    async def seek_ended(self, player_id: int, seek_id: str) -> None:
        await self.caps.release(WAITING, player_id, SEEK_MEMBER + seek_id)

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
        await sweep_every(every, self.expire_waiting, "removing expired waiting tables")

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
