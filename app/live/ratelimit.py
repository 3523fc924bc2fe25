"""Rate limits every process shares: token buckets kept in Redis, taken by one script.

A bucket holds up to `burst` tokens and refills at `rate` tokens a second; a request
takes one. A charge checks several buckets at once (an address's and a player's, say) and
takes from all of them or from none, atomically (lua/rate_take.lua), so two processes, or
two sockets of one client on two processes, spend one budget. The clock is Redis's own
(TIME), so hosts whose clocks disagree still agree on every bucket.

A move's charge is made by the move's own write, in the same script and round trip
(`Charge`, `LiveStore.write`); every other request's by `take`, alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis

from app.live.multiplex import Multiplexed
from app.live.scripts import register, run_script


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
        self._take = register(client, "rate_take")

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
