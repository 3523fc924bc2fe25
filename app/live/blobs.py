"""Bodies computed once and kept a while, for every process: a bounded cache in Redis.

A body is bytes (what a route answers, gzip-compressed by its caller) under a name; a
cache keeps at most `count` bodies, each at most `max_bytes`, each for `ttl_ms` after it
was last kept or read, and forgets the one least recently kept or read first (so at most
`count · max_bytes` in all). Whatever is kept is a copy of what can be computed
again: a body gone (run out, pushed out, a flushed store) is computed and kept anew.
A body is kept with a tag (the version it was computed at: a body of another tag is not
the one asked for), and many asking for one that is not kept in one process compute it
once (`computed`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.client import NEVER_DECODE
from redis.exceptions import NoScriptError

from app.live.scripts import register


class BlobCache:
    def __init__(self, client: aioredis.Redis, prefix: str, kind: str, *, count: int,
                 ttl_ms: int, max_bytes: int) -> None:
        self.redis = client
        # One hash tag for a cache's keys: its scripts' keys are on one shard of a cluster.
        self.kind = f"{prefix}:cache:{{{kind}}}"
        self.count = count
        self.ttl_ms = ttl_ms
        self.max_bytes = max_bytes
        self._put = register(client, "blob_put")
        self._get = register(client, "blob_get")
        self._making: dict[tuple[str, bytes], asyncio.Future[bytes | None]] = {}

    def _key(self, name: str) -> str:
        return f"{self.kind}:{name}"

    @property
    def _index(self) -> str:
        return f"{self.kind}-index"

    async def get(self, name: str, now_ms: int) -> bytes | None:
        """The body kept under `name` (kept on as if kept now), or None."""
        args = [self._key(name), self._index, now_ms, self.ttl_ms]
        try:  # the body as bytes: the client's decoding is for text
            found = await self.redis.execute_command(
                "EVALSHA", self._get.sha, 2, *args, **{NEVER_DECODE: True})
        except NoScriptError:
            found = await self.redis.execute_command(
                "EVAL", self._get.script, 2, *args, **{NEVER_DECODE: True})
        return None if found is None else bytes(found)

    async def put(self, name: str, body: bytes, now_ms: int) -> bool:
        """Keep `body` under `name` (False: over `max_bytes`, not kept)."""
        if len(body) > self.max_bytes:
            return False
        await self._put(keys=[self._key(name), self._index],
                        args=[body, now_ms, self.ttl_ms, self.count])
        return True

    async def computed(self, name: str, tag: bytes, now_ms: int,
                       make: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        """The body of `name` at `tag`: the one kept, else `make()`'s (None: nothing to
        keep), then kept. `tag` holds no newline."""
        kept = await self.get(name, now_ms)
        if kept is not None:
            head, _, body = kept.partition(b"\n")
            if head == tag:
                return body
        key = (name, tag)
        making = self._making.get(key)
        if making is not None:
            return await asyncio.shield(making)
        making = asyncio.get_running_loop().create_future()
        self._making[key] = making
        try:
            made = await make()
            if made is not None:
                await self.put(name, tag + b"\n" + made, now_ms)
            making.set_result(made)
        except BaseException as error:
            making.set_exception(error)
            making.exception()  # told to whoever waits, never left unretrieved
            raise
        finally:
            del self._making[key]
        return made
