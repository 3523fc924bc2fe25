"""The sets every write keeps for later work: finished tables leaving the lobby (the retire
set), finished games not yet in the database (the unwritten set), and running tables due a
copy in the database (the snapshot-due set)."""

from __future__ import annotations

from redis.commands.core import AsyncScript

from app.live.base import StoreBase


class Housekeeping(StoreBase):
    _retire: AsyncScript

    async def retire_due(self, now_ms: int) -> list[str]:
        """Finished tables whose time in the lobby is over: removed and announced."""
        k = self.keys
        gone = await self._retire(keys=[k.retire, k.index], args=[now_ms, k.lobby_channel])
        return [str(x) for x in gone]

    async def unwritten(self) -> list[str]:
        return sorted(str(x) for x in await self.redis.smembers(self.keys.unwritten))

    async def mark_written(self, table_id: str, keep_seconds: int | None) -> None:
        """The game is in the database: forget it here, keep the table readable a while
        (None: the table goes on, as a courtyard's does, and is kept). The table's keys
        first (one slot), then the set (its own slot on a cluster): a failure between
        leaves the game to be written again, which changes nothing."""
        if keep_seconds is not None:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.expire(self.keys.table(table_id), keep_seconds)
                pipe.expire(self.keys.rounds(table_id), keep_seconds)
                pipe.expire(self.keys.listeners(table_id), keep_seconds)
                await pipe.execute()
        await self.redis.srem(self.keys.unwritten, table_id)

    async def due_snapshots(self, limit: int = 50) -> list[str]:
        """Takes up to `limit` tables due a copy in the database (the caller makes it, or
        hands them back with `snapshots_due`)."""
        taken = await self.redis.spop(self.keys.snapshot_due, limit)
        return [str(x) for x in taken or []]

    async def snapshots_due(self, table_ids: list[str]) -> None:
        if table_ids:
            await self.redis.sadd(self.keys.snapshot_due, *table_ids)
