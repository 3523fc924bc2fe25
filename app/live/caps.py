"""Caps every process shares: how many of a thing one player (or one client address) may
hold at once (sockets, waiting tables), as leases in Redis, and when waiting tables nobody
joined run out.

A lease is a member of the owner's sorted set scored by when it expires; a holder renews
it while it lives and drops it when done, and a crashed process's leases run out alone.
Claiming counts and adds in one script, so two processes can never both take the last one.
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis

from app.live.multiplex import Multiplexed
from app.live.scripts import run_script

# KEYS[1]: the owner's leases. ARGV: cap, member, now ms, expires ms, then members known
# to be over (removed first). 1: held (a member already held is renewed), 0: at the cap.
_LEASE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
for i = 5, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
if redis.call('ZSCORE', KEYS[1], ARGV[2]) == false
    and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1
"""

# Waiting tables whose time is up, each handed to one caller for `lease` ms (as the turn
# deadlines are): a caller that dies before removing one leaves it to the next sweep.
_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
"""


class Caps:
    def __init__(self, client: aioredis.Redis, prefix: str,
                 runner: aioredis.Redis | Multiplexed | None = None) -> None:
        """`runner`: what runs the commands (`LiveStore.runner`: every table made and
        every socket opened asks here); the client when not given."""
        self.redis = client
        self._runner = runner or client
        self.prefix = prefix
        self._lease = client.register_script(_LEASE)
        self._due = client.register_script(_DUE)

    def _key(self, kind: str, owner: int | str) -> str:
        return f"{self.prefix}:cap:{kind}:{owner}"

    @property
    def _waiting(self) -> str:
        """Sorted set table_id -> when the waiting table is removed if still waiting."""
        return f"{self.prefix}:waiting-expiry"

    async def lease(
        self, kind: str, owner: int | str, member: str, cap: int, now_ms: int, expires_ms: int,
        over: list[str] | None = None,
    ) -> bool:
        """Hold (or renew) `member` among `owner`'s `kind`, unless `cap` are held already."""
        held = await run_script(self._lease, self._runner, [self._key(kind, owner)],
                                [cap, member, now_ms, expires_ms, *(over or [])])
        return bool(int(held))

    async def _command(self, *args: Any) -> Any:
        return await self._runner.execute_command(*args)

    async def release(self, kind: str, owner: int | str, member: str) -> None:
        await self._command("ZREM", self._key(kind, owner), member)

    async def held(self, kind: str, owner: int, now_ms: int) -> list[str]:
        return [str(m) for m in await self._command(
            "ZRANGEBYSCORE", self._key(kind, owner), now_ms, "+inf")]

    async def expire_waiting_at(self, table_id: str, at_ms: int) -> None:
        await self._command("ZADD", self._waiting, at_ms, table_id)

    async def forget_waiting(self, table_id: str) -> None:
        await self._command("ZREM", self._waiting, table_id)

    async def waiting_due(self, now_ms: int, lease_ms: int) -> list[str]:
        due = await self._due(keys=[self._waiting], args=[now_ms, now_ms + lease_ms])
        return [str(x) for x in due]
