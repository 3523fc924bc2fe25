"""Rate limits every process shares: token buckets kept in Redis, taken by one script.

A bucket holds up to `burst` tokens and refills at `rate` tokens a second; a request
takes one. A charge checks several buckets at once (an address's and a player's, say) and
takes from all of them or from none, atomically (lua/rate_take.lua), so two processes, or
two sockets of one client on two processes, spend one budget. The clock is Redis's own
(TIME), so hosts whose clocks disagree still agree on every bucket.

A move's charge is made by the move's own write, in the same script and round trip
(`Charge`, `LiveStore.write`); every other request's by `take`, alone.

Each bucket is under a hash tag of its own (its kind and owner), so on Redis Cluster the
buckets spread over the masters like the tables do. A script there may touch one slot, so a
charge of several buckets takes each by a call of its own, all at once, and gives back the
tokens it took when any of them refused (`take_all`): all or none again, a moment later.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import redis.asyncio as aioredis

from app.live.client import clustered
from app.live.lanes import Runner
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


class Taker:
    """Takes charges from their buckets (a store's writes and the rate limiter share it)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._take = register(client, "rate_take")
        self._give = register(client, "rate_give")
        # one call per bucket (a cluster: the buckets are on slots of their own)
        self._apart = clustered(client)

    async def take_all(self, runner: Runner, charge: Charge) -> Verdict:
        """Take a token from every bucket of `charge` or from none."""
        keys, args = charge.keys, charge.args
        if not self._apart or len(keys) == 1:
            allowed, wait = await run_script(self._take, runner, keys, args)
            return Verdict(bool(int(allowed)), int(wait))
        answers = await asyncio.gather(*(
            run_script(self._take, runner, [key], args[2 * i:2 * i + 2])
            for i, key in enumerate(keys)))
        waits = [int(wait) for allowed, wait in answers if not int(allowed)]
        if not waits:
            return Verdict(True, 0)
        await asyncio.gather(*(
            run_script(self._give, runner, [key], args[2 * i:2 * i + 2])
            for i, (key, (allowed, _)) in enumerate(zip(keys, answers, strict=True))
            if int(allowed)))
        return Verdict(False, max(waits))


def bucket_key(prefix: str, kind: str, who: str) -> str:
    """A bucket's key: under its own hash tag (`prefix`: the live store's)."""
    return f"{prefix}:rate:{{{kind}:{who}}}"


class RateLimiter:
    def __init__(self, client: aioredis.Redis, prefix: str,
                 runner: Runner | None = None) -> None:
        """`prefix`: the live store's; `runner`: what runs every message's charge
        (`LiveStore.runner`); the client when not given."""
        self.prefix = prefix
        self.redis = client
        self._runner = runner or client
        self._taker = Taker(client)

    def key(self, kind: str, who: str) -> str:
        return bucket_key(self.prefix, kind, who)

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
                charge.verdict = await self._taker.take_all(self._runner, charge)
        return charge.verdict
