"""A lease in Redis: one holder at a time for work that must run in one process only (a
tournament's pairing). The holder renews it while it works; a holder that dies loses it
when it runs out, and another process takes it over."""

from __future__ import annotations

import redis.asyncio as aioredis

# KEYS[1]: the lease. ARGV: the holder, ms to hold. 1: held by ARGV[1] now, 0: by another.
_TAKE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_GIVE_UP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


class Lease:
    def __init__(self, client: aioredis.Redis, key: str, holder: str) -> None:
        self.key = key
        self.holder = holder
        self._take = client.register_script(_TAKE)
        self._give_up = client.register_script(_GIVE_UP)

    async def take(self, hold_ms: int) -> bool:
        """Take or renew the lease for `hold_ms`; False while another process holds it."""
        return bool(await self._take(keys=[self.key], args=[self.holder, hold_ms]))

    async def give_up(self) -> None:
        await self._give_up(keys=[self.key], args=[self.holder])
