"""Turn deadlines: sorted sets of running tables by when the clock must look at them next
(kept by every write), claimed once each by whichever process's clock finds them due. One
set on one Redis; on a cluster, parts spread over its masters (app.live.keys), each claimed
on its own.

A claim pushes the entry a lease into the future; whoever claimed it then either writes the
table (which sets its next deadline) or drops the entry (the game is over or gone). A drop
removes only the entry its claim leased (`deadline_drop.lua`): a write that set a new
deadline meanwhile (a courtyard's next game, waiting for a player) keeps it.
"""

from __future__ import annotations

import asyncio
import time

from redis.commands.core import AsyncScript

from app.live.base import StoreBase
from app.live.scripts import run_script

# Claims remembered at most (a process claims at most 50 a part a sweep).
CLAIMS_KEPT = 10_000


class Deadlines(StoreBase):
    _claim: AsyncScript
    _drop: AsyncScript
    # The lease each deadline this process claimed was given (table -> its new score).
    _claimed: dict[str, int]

    async def claim_deadlines(self, now_ms: int, lease_ms: int, limit: int = 50) -> list[str]:
        """Expired turn deadlines, each handed to exactly one caller for `lease_ms`: if that
        caller dies before applying the timeout, the deadline comes back when the lease
        runs out (lua/claim.lua). At most `limit` of each part."""
        leased = now_ms + lease_ms
        parts = await asyncio.gather(*(
            run_script(self._claim, self.runner, [key], [now_ms, leased, limit])
            for key in self.keys.deadline_sets))
        due = [str(x) for part in parts for x in part]
        if len(self._claimed) > CLAIMS_KEPT:
            self._claimed.clear()  # (claims this old have long been acted on)
        self._claimed.update(dict.fromkeys(due, leased))
        return due

    async def running_since(self, since_ms: int) -> list[str]:
        """Tables whose turn deadline is at or after `since_ms`."""
        parts = await asyncio.gather(*(self.redis.zrangebyscore(key, since_ms, "+inf")
                                       for key in self.keys.deadline_sets))
        return [str(x) for part in parts for x in part]

    async def deadline_of(self, table_id: str) -> float | None:
        score = await self.redis.zscore(self.keys.deadlines(table_id), table_id)
        return None if score is None else float(score)

    async def drop_deadline(self, table_id: str) -> bool:
        """Drop the table's deadline (its game is over, or the table gone): the entry this
        process's claim leased, or one that is due; not one a write has set since."""
        leased = self._claimed.pop(table_id, None)
        bound, claimed = (leased, 1) if leased is not None else (int(time.time() * 1000), 0)
        return bool(int(await run_script(self._drop, self.runner,
                                         [self.keys.deadlines(table_id)],
                                         [table_id, bound, claimed])))
