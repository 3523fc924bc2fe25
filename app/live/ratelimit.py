"""Rate limits every process shares: token buckets kept in Redis, taken by one script.

A bucket holds up to `burst` tokens and refills at `rate` tokens a second; a request
takes one. A charge checks several buckets at once (an address's and a player's, say) and
takes from all of them or from none, atomically, so two processes, or two sockets of one
client on two processes, spend one budget. The clock is Redis's own (TIME), so hosts
whose clocks disagree still agree on every bucket.

A move's charge is made by the move's own write, in the same script and round trip
(`Charge`, `LiveStore.write`); every other request's by `take`, alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis

from app.live.multiplex import Multiplexed
from app.live.scripts import run_script

# The Lua function both scripts share: takes a token from every bucket of `keys` (rate and
# burst of each in `args`, in keys' order) and returns 0, or takes none and returns the ms
# until the emptiest would have one.
TAKE_FUNCTION = """
local function take(keys, args)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local levels, wait = {}, 0
  for i, key in ipairs(keys) do
    local rate, burst = tonumber(args[2 * i - 1]), tonumber(args[2 * i])
    local b = redis.call('HMGET', key, 'tokens', 'at')
    local tokens, at = tonumber(b[1]) or burst, tonumber(b[2]) or now
    tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
    levels[i] = tokens
    if tokens < 1 then
      wait = math.max(wait, math.ceil((1 - tokens) * 1000 / rate))
    end
  end
  if wait > 0 then return wait end
  for i, key in ipairs(keys) do
    local rate, burst = tonumber(args[2 * i - 1]), tonumber(args[2 * i])
    redis.call('HSET', key, 'tokens', tostring(levels[i] - 1), 'at', now)
    -- forgotten once it would be full again anyway (at most a day)
    redis.call('PEXPIRE', key, math.min(86400000, math.ceil(burst * 1000 / rate) + 1000))
  end
  return 0
end
"""

# KEYS: the buckets. ARGV: rate and burst of each, in KEYS' order.
# Returns {1, 0} when every bucket had a token (one taken from each), else {0, ms until
# the emptiest would have one} and nothing taken.
_TAKE = TAKE_FUNCTION + """
local wait = take(KEYS, ARGV)
if wait > 0 then return {0, wait} end
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


class Refused(Exception):
    """A request's charge was refused: nothing was done."""

    def __init__(self, retry_ms: int) -> None:
        super().__init__(f"rate limited, retry in {retry_ms} ms")
        self.retry_ms = retry_ms


@dataclass
class Charge:
    """One request's draw on shared buckets, not yet made. A write that the request causes
    makes it in the same step (`LiveStore.write(charge=...)`): a refused charge writes
    nothing and raises `Refused`. When no write made it, `RateLimiter.settle` does, alone.
    `verdict` is set once it has been made either way."""

    keys: list[str]
    args: list[float]
    verdict: Verdict | None = None


class RateLimiter:
    def __init__(self, client: aioredis.Redis, prefix: str,
                 runner: aioredis.Redis | Multiplexed | None = None) -> None:
        """`runner`: what runs every message's charge (`LiveStore.runner`); the client
        when not given."""
        self.prefix = prefix
        self.redis = client
        self._runner = runner or client
        self._take = client.register_script(_TAKE)

    def key(self, kind: str, who: str) -> str:
        return f"{self.prefix}:rate:{kind}:{who}"

    def charge(self, buckets: dict[str, Budget]) -> Charge:
        """A request against every bucket named (kind:who -> its budget), to be made."""
        args: list[float] = []
        for budget in buckets.values():
            args += [max(budget.rate, 1e-6), budget.burst]
        return Charge([self.key(*name.split(":", 1)) for name in buckets], args)

    async def settle(self, charge: Charge) -> Verdict:
        """Make the charge now, unless a write already made it."""
        if charge.verdict is None:
            if not charge.keys:
                charge.verdict = Verdict(True, 0)
            else:
                allowed, wait = await run_script(self._take, self._runner, charge.keys,
                                                  charge.args)
                charge.verdict = Verdict(bool(int(allowed)), int(wait))
        return charge.verdict
