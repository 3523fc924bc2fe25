"""A lease in Redis: one holder at a time for work that must run in one process only (a
tournament's pairing). The holder renews it while it works; a holder that dies loses it
when it runs out, and another process takes it over."""

from __future__ import annotations

import redis.asyncio as aioredis

from app.live.scripts import register


class Lease:
    def __init__(self, client: aioredis.Redis, key: str, holder: str) -> None:
        self.key = key
        self.holder = holder
        self._take = register(client, "lease_take")
        self._give_up = register(client, "lease_give_up")

    async def take(self, hold_ms: int) -> bool:
        """Take or renew the lease for `hold_ms`; False while another process holds it."""
        return bool(await self._take(keys=[self.key], args=[self.holder, hold_ms]))

    async def give_up(self) -> None:
        await self._give_up(keys=[self.key], args=[self.holder])
