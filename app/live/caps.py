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

from app.live.lanes import Runner
from app.live.scripts import register, run_script


class Caps:
    def __init__(self, client: aioredis.Redis, prefix: str,
                 runner: Runner | None = None) -> None:
        """`runner`: what runs the commands (`LiveStore.runner`: every table made and
        every socket opened asks here); the client when not given."""
        self.redis = client
        self._runner = runner or client
        self.prefix = prefix
        self._lease = register(client, "cap_lease")
        self._lease_all = register(client, "cap_lease_all")
        self._due = register(client, "claim")

    def key(self, kind: str, owner: int | str) -> str:
        """The key of `owner`'s leases of `kind` (a script's own look at them)."""
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
        held = await run_script(self._lease, self._runner, [self.key(kind, owner)],
                                [cap, member, now_ms, expires_ms, *(over or [])])
        return bool(int(held))

    async def lease_all(
        self, kind: str, owners: list[int], member: str, cap: int, now_ms: int,
        expires_ms: int, over: dict[int, list[str]],
    ) -> int | None:
        """Hold `member` among each owner's `kind`, all or none: None when held, else the
        first owner who holds `cap` already (then nothing changed)."""
        args: list[Any] = [cap, member, now_ms, expires_ms]
        for owner in owners:
            gone = over.get(owner, [])
            args += [len(gone), *gone]
        refused = int(await run_script(self._lease_all, self._runner,
                                       [self.key(kind, o) for o in owners], args))
        return None if refused == 0 else owners[refused - 1]

    async def _command(self, *args: Any) -> Any:
        return await self._runner.execute_command(*args)

    async def release(self, kind: str, owner: int | str, member: str) -> None:
        await self._command("ZREM", self.key(kind, owner), member)

    async def held(self, kind: str, owner: int, now_ms: int) -> list[str]:
        return [str(m) for m in await self._command(
            "ZRANGEBYSCORE", self.key(kind, owner), now_ms, "+inf")]

    async def expire_waiting_at(self, table_id: str, at_ms: int) -> None:
        await self._command("ZADD", self._waiting, at_ms, table_id)

    async def forget_waiting(self, table_id: str) -> None:
        await self._command("ZREM", self._waiting, table_id)

    async def waiting_due(self, now_ms: int, lease_ms: int) -> list[str]:
        # Each handed to one caller for `lease_ms` (as the turn deadlines are): a caller that
        # dies before removing one leaves it to the next sweep.
        due = await self._due(keys=[self._waiting], args=[now_ms, now_ms + lease_ms, 100])
        return [str(x) for x in due]
