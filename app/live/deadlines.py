"""Turn deadlines: sorted sets of running tables by when the clock must look at them next
(kept by every write), claimed once each by whichever process's clock finds them due. One
set on one Redis; on a cluster, parts spread over its masters (app.live.keys), each claimed
on its own."""

from __future__ import annotations

import asyncio

from redis.commands.core import AsyncScript

from app.live.base import StoreBase
from app.live.scripts import run_script


class Deadlines(StoreBase):
    _claim: AsyncScript

    async def claim_deadlines(self, now_ms: int, lease_ms: int, limit: int = 50) -> list[str]:
        """Expired turn deadlines, each handed to exactly one caller for `lease_ms`: if that
        caller dies before applying the timeout, the deadline comes back when the lease
        runs out (lua/claim.lua). At most `limit` of each part."""
        parts = await asyncio.gather(*(
            run_script(self._claim, self.runner, [key], [now_ms, now_ms + lease_ms, limit])
            for key in self.keys.deadline_sets))
        return [str(x) for due in parts for x in due]

    async def running_since(self, since_ms: int) -> list[str]:
        """Tables whose turn deadline is at or after `since_ms`."""
        parts = await asyncio.gather(*(self.redis.zrangebyscore(key, since_ms, "+inf")
                                       for key in self.keys.deadline_sets))
        return [str(x) for part in parts for x in part]

    async def deadline_of(self, table_id: str) -> float | None:
        score = await self.redis.zscore(self.keys.deadlines(table_id), table_id)
        return None if score is None else float(score)

    async def drop_deadline(self, table_id: str) -> None:
        await self.redis.zrem(self.keys.deadlines(table_id), table_id)
