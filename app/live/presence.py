"""Who is at a table: which seats have a live socket on some process, and how many
spectators' sockets every process has there, each entry expiring unless its process
refreshes it (a dead process's entries run out alone). Every change of who is connected,
and of the spectators' total, is announced on the table's channel."""

from __future__ import annotations

from typing import Any

from redis.commands.core import AsyncScript

from app.live.base import StoreBase, dumps
from app.live.reads import Versioned, versioned
from app.live.scripts import run_script
from app.wire.between import TableNote


def live_watchers(watchers: dict[Any, Any], now_ms: int) -> int:
    """The spectators counted in a table's spectators hash by processes that still live."""
    total = 0
    for value in watchers.values():
        expires, count = str(value.decode() if isinstance(value, bytes) else value).split(":")
        if float(expires) > now_ms:
            total += int(count)
    return total


def live_seats(presence: dict[Any, Any], now_ms: int) -> set[int]:
    """The seats a table's presence hash holds a live entry of."""
    seats = set()
    for field, expires in presence.items():
        if float(expires) > now_ms:
            seats.add(int(str(field).rsplit(":", 1)[1]))
    return seats


class Presence(StoreBase):
    _presence: AsyncScript
    _spectators: AsyncScript

    async def load_with_presence(
        self, table_id: str, now_ms: int
    ) -> tuple[Versioned | None, set[int]]:
        """The state and the seats with a live socket on any process, in one round trip."""
        current, seats, _watchers = await self.load_with_watchers(table_id, now_ms)
        return current, seats

    async def load_with_watchers(
        self, table_id: str, now_ms: int
    ) -> tuple[Versioned | None, set[int], int]:
        """The state, the seats with a live socket and how many spectators watch (summed
        over every process), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(self.keys.table(table_id), ["version", "data"])
            pipe.hgetall(self.keys.presence(table_id))
            pipe.hgetall(self.keys.watchers(table_id))
            row, presence, watchers = await pipe.execute()
        current = versioned(row)
        if current is None:
            return None, set(), 0
        return current, live_seats(presence, now_ms), live_watchers(watchers, now_ms)

    async def set_presence(
        self,
        table_id: str,
        process_id: str,
        present: set[int],
        absent: set[int],
        now_ms: int,
        expires_ms: int,
        keep_seconds: int,
    ) -> None:
        """Mark this process's seats present/absent and announce who is connected now."""
        await run_script(
            self._presence, self.runner,
            [self.keys.presence(table_id)],
            [
                now_ms, expires_ms, keep_seconds, self.keys.table_channel(table_id), table_id,
                *(f"+{process_id}:{s}" for s in sorted(present)),
                *(f"-{process_id}:{s}" for s in sorted(absent)),
            ],
        )

    async def set_watchers(
        self, table_id: str, process_id: str, count: int, expires_ms: int, keep_seconds: int
    ) -> None:
        """How many spectators' sockets this process has on the table (0: none)."""
        key = self.keys.watchers(table_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            if count:
                pipe.hset(key, process_id, f"{expires_ms}:{count}")
                pipe.expire(key, keep_seconds)
            else:
                pipe.hdel(key, process_id)
            await pipe.execute()

    async def count_spectators(
        self, table_id: str, process_id: str, count: int, now_ms: int, expires_ms: int,
        keep_seconds: int,
    ) -> int:
        """Store this process's count of spectators' sockets at the table (0: none), and
        announce the total over every process, which is returned; one round trip."""
        return int(await run_script(
            self._spectators, self.runner, [self.keys.watchers(table_id)],
            [process_id, f"{expires_ms}:{count}" if count else "", keep_seconds, now_ms,
             self.keys.table_channel(table_id), table_id],
        ))

    async def presence(self, table_id: str, now_ms: int) -> set[int]:
        return live_seats(await self.redis.hgetall(self.keys.presence(table_id)), now_ms)

    async def publish_table(self, table_id: str, message: TableNote) -> None:
        await self.command("SPUBLISH", self.keys.table_channel(table_id), dumps(message))
