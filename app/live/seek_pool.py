"""Open seeks (quick pairing) in Redis, matched by one Lua script.

A seek is a JSON object `{"id", "player": {"id", "name"}, "pool", "rating", "range": [lo,
hi], "seats", "expires_at", ...}`. Seeks that could share a table (same variant, seats,
options, clock and rated) are in one pool, a set. Adding a seek and taking the seeks it
completes a table with is one script (lua/seek_add.lua): two processes can never take one
seek twice, and a player never has two open seeks.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis.asyncio as aioredis

from app.live.scripts import register


class SeekBook:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix
        self._add = register(client, "seek_add")
        self._remove = register(client, "seek_remove")

    @property
    def _seeks(self) -> str:
        return f"{self.prefix}:seeks"

    @property
    def _owners(self) -> str:
        return f"{self.prefix}:seek-owners"

    @property
    def _expiry(self) -> str:
        return f"{self.prefix}:seek-expiry"

    @property
    def _absent(self) -> str:
        return f"{self.prefix}:seek-absent"

    @property
    def _pool_prefix(self) -> str:
        return f"{self.prefix}:seek-pool:"

    @property
    def _matches(self) -> str:
        return f"{self.prefix}:seek-matches"

    async def add(self, seek: dict[str, Any], now_ms: int, table_id: str
                  ) -> tuple[str, list[dict[str, Any]]]:
        """("taken", []), ("open", []) or ("matched", the seeks of the new table), the
        match then kept under `table_id` until `matched` is called."""
        reply = await self._add(
            keys=[self._seeks, self._owners, self._pool_prefix + seek["pool"], self._expiry,
                  self._matches],
            args=[orjson.dumps(seek), now_ms, table_id],
        )
        kind = str(reply[0])
        return kind, [orjson.loads(text) for text in reply[1:]]

    async def remove(self, seek_id: str, owner: int | None = None) -> dict[str, Any] | None:
        """Take the seek away (only `owner`'s, when given); its JSON, None if not there."""
        text = await self._remove(
            keys=[self._seeks, self._owners, self._expiry],
            args=[seek_id, "" if owner is None else str(owner), self._pool_prefix],
        )
        return None if text is None else dict(orjson.loads(text))

    async def of_player(self, player_id: int) -> str | None:
        seek_id = await self.redis.hget(self._owners, str(player_id))
        return None if seek_id is None else str(seek_id)

    async def all(self) -> list[dict[str, Any]]:
        return [orjson.loads(text) for text in (await self.redis.hgetall(self._seeks)).values()]

    async def expired(self, now_ms: int) -> list[str]:
        return [str(x) for x in await self.redis.zrangebyscore(self._expiry, "-inf", now_ms)]

    async def absent(self) -> dict[str, int]:
        """Since when (ms) each seek's owner was last found with no socket anywhere."""
        return {str(k): int(v) for k, v in (await self.redis.hgetall(self._absent)).items()}

    async def mark_absent(self, since: dict[str, int]) -> None:
        """Owners found with no socket (the first finding stands)."""
        for seek_id, ms in since.items():
            await self.redis.hsetnx(self._absent, seek_id, ms)

    async def clear_absent(self, seek_ids: list[str]) -> None:
        if seek_ids:
            await self.redis.hdel(self._absent, *seek_ids)

    async def left_over(self, before_ms: int) -> dict[str, list[dict[str, Any]]]:
        """The matches made before `before_ms` whose table is not yet made and told: table
        id -> the seeks."""
        out: dict[str, list[dict[str, Any]]] = {}
        for table_id, text in (await self.redis.hgetall(self._matches)).items():
            match = orjson.loads(text)
            if match["at"] < before_ms:
                out[str(table_id)] = [orjson.loads(seek) for seek in match["seeks"]]
        return out

    async def matched(self, table_id: str) -> None:
        """The match of `table_id` is done: its table made and started, its players told."""
        await self.redis.hdel(self._matches, table_id)
