"""Rate limits every process shares: token buckets kept in Redis, taken by one script.

A bucket holds up to `burst` tokens and refills at `rate` tokens a second; a request
takes one. `take` checks several buckets at once (an address's and a player's, say) and
takes from all of them or from none, atomically, so two processes, or two sockets of one
client on two processes, spend one budget. The clock is Redis's own (TIME), so hosts
whose clocks disagree still agree on every bucket.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis

# KEYS: the buckets. ARGV: rate and burst of each, in KEYS' order.
# Returns {1, 0} when every bucket had a token (one taken from each), else {0, ms until
# the emptiest would have one} and nothing taken.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local levels, wait = {}, 0
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local b = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = tonumber(b[1]) or burst, tonumber(b[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
  levels[i] = tokens
  if tokens < 1 then
    wait = math.max(wait, math.ceil((1 - tokens) * 1000 / rate))
  end
end
if wait > 0 then return {0, wait} end
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('HSET', key, 'tokens', tostring(levels[i] - 1), 'at', now)
  -- forgotten once it would be full again anyway (at most a day)
  redis.call('PEXPIRE', key, math.min(86400000, math.ceil(burst * 1000 / rate) + 1000))
end
return {1, 0}
"""


@dataclass(frozen=True)
class Budget:
    """`rate` requests a second, `burst` of them at once."""

    rate: float
    burst: float


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_ms: int  # when refused: how long until it would be allowed


class RateLimiter:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.prefix = prefix
        self._take = client.register_script(_TAKE)

    def key(self, kind: str, who: str) -> str:
        return f"{self.prefix}:rate:{kind}:{who}"

    async def take(self, buckets: dict[str, Budget]) -> Verdict:
        """One request against every bucket named (kind:who -> its budget)."""
        if not buckets:
            return Verdict(True, 0)
        keys = [self.key(*name.split(":", 1)) for name in buckets]
        args: list[float] = []
        for budget in buckets.values():
            args += [max(budget.rate, 1e-6), budget.burst]
        allowed, wait = await self._take(keys=keys, args=args)
        return Verdict(bool(int(allowed)), int(wait))
