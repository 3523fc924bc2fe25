"""Open seeks (quick pairing) in Redis, matched through an index by one Lua script.

A seek is a JSON object `{"id", "player": {"id", "name"}, "pool", "rating", "range": [lo,
hi], "seats", "expires_at", "cells", ...}`. Seeks that could share a table (same variant,
seats, options, clock and rated) are in one pool; a pool is indexed by rating and range
(app/live/seek_index.py), so adding a seek reads only the seeks that fit it, never the
whole pool. Adding a seek and taking the seeks it completes a table with is one script
(lua/seek_add.lua): two processes can never take one seek twice, and a player never has
two open seeks. One script a sweep (lua/seek_sweep.lua) takes out the seeks whose time is
up and those whose owner has had no socket anywhere for a while.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import orjson
import redis.asyncio as aioredis

from app.live.scripts import register
from app.live.seek_index import cover, stab

# How many seeks one node of the index may show an add (the seeks in it fit the new one
# both ways, but for expired seeks not swept yet, blocked owners and the cells at the
# ranges' ends): a bound on an add's work, whatever the pool holds.
NODE_LIMIT = 32

AddKind = Literal["taken", "open", "matched"]
EndKind = Literal["expired", "no_socket"]


@dataclass(frozen=True)
class Added:
    """What adding a seek did: `kind`; the seeks of the new table when "matched" (the new
    one first); how many open seeks the add read."""

    kind: AddKind
    seeks: list[dict[str, Any]]
    looked: int


@dataclass(frozen=True)
class Ended:
    reason: EndKind
    seek: dict[str, Any]


class SeekBook:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix
        self._add = register(client, "seek_add")
        self._remove = register(client, "seek_remove")
        self._sweep = register(client, "seek_sweep")
        self._file = register(client, "seek_file")

    @property
    def _keys(self) -> list[str]:
        """Every seek script's KEYS (lua/seek_drop.lua names them)."""
        p = self.prefix
        return [f"{p}:seeks", f"{p}:seek-owners", f"{p}:seek-expiry", f"{p}:seek-due",
                f"{p}:seek-absent", f"{p}:seek-matches"]

    @property
    def _seeks(self) -> str:
        return f"{self.prefix}:seeks"

    @property
    def _owners(self) -> str:
        return f"{self.prefix}:seek-owners"

    @property
    def _pool_prefix(self) -> str:
        return f"{self.prefix}:seek-pool:"

    @property
    def _matches(self) -> str:
        return f"{self.prefix}:seek-matches"

    async def add(self, seek: dict[str, Any], now_ms: int, table_id: str,
                  first_check_ms: int) -> Added:
        """Open `seek` or match it; a match is then kept under `table_id` until `matched`
        is called. An open seek's owner's sockets are first looked at `first_check_ms`."""
        lo, hi = seek["range"]
        filed = {**seek, "cells": cover(lo, hi)}
        reply = await self._add(
            keys=self._keys,
            args=[orjson.dumps(filed), now_ms, table_id, self._pool_prefix, NODE_LIMIT,
                  first_check_ms, *stab(seek["rating"])],
        )
        kind: AddKind = str(reply[0])  # type: ignore[assignment]
        return Added(kind, [orjson.loads(text) for text in reply[2:]], int(reply[1]))

    async def remove(self, seek_id: str, owner: int | None = None) -> dict[str, Any] | None:
        """Take the seek away (only `owner`'s, when given); its JSON, None if not there."""
        text = await self._remove(
            keys=self._keys,
            args=[seek_id, "" if owner is None else str(owner), self._pool_prefix],
        )
        return None if text is None else dict(orjson.loads(text))

    async def sweep(self, now_ms: int, sockets_prefix: str, grace_ms: int, every_ms: int,
                    limit: int) -> list[Ended]:
        """Take out the seeks whose time is up and, of those due a look at their owner's
        sockets (`sockets_prefix` + player id: his socket leases, every `every_ms`), the
        ones whose owner has had none for over `grace_ms`; at most `limit` of each."""
        reply = await self._sweep(
            keys=self._keys,
            args=[now_ms, self._pool_prefix, sockets_prefix, grace_ms, every_ms, limit],
        )
        return [Ended(str(reply[i]), orjson.loads(reply[i + 1]))  # type: ignore[arg-type]
                for i in range(0, len(reply), 2)]

    async def file_unindexed(self, first_check_ms: int) -> int:
        """File in the index the open seeks opened before it existed; how many."""
        filed = 0
        for seek_id, text in (await self.redis.hgetall(self._seeks)).items():
            seek = orjson.loads(text)
            if "cells" in seek:
                continue
            seek["cells"] = cover(*seek["range"])
            filed += int(await self._file(keys=self._keys, args=[
                seek_id, orjson.dumps(seek), first_check_ms, self._pool_prefix]))
        return filed

    async def of_player(self, player_id: int) -> str | None:
        seek_id = await self.redis.hget(self._owners, str(player_id))
        return None if seek_id is None else str(seek_id)

    async def listed(self, now_ms: int, offset: int, limit: int) -> list[dict[str, Any]]:
        """The seeks open at `now_ms` in the order they run out (the order they were
        opened), from the `offset`-th, at most `limit`."""
        ids = [str(x) for x in await self.redis.zrangebyscore(
            f"{self.prefix}:seek-expiry", f"({now_ms}", "+inf", start=offset, num=limit)]
        if not ids:
            return []
        return [orjson.loads(text) for text in await self.redis.hmget(self._seeks, ids)
                if text is not None]

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
