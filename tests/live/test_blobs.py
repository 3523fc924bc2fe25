"""The bounded cache of bodies computed once (app/live/blobs.py), on a real Redis and on the
embedded store: its count and sizes bounded, the least recently asked for forgotten first,
and many asking at once computing once."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from app.live.blobs import BlobCache
from app.live.store import connect


@pytest.fixture(params=["redis", "embedded"])
async def client(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[aioredis.Redis]:
    made = connect(redis_url if request.param == "redis" else "")
    yield made
    await made.aclose()


async def test_at_most_its_count_the_least_recently_asked_for_forgotten_first(
    client: aioredis.Redis, redis_prefix: str,
) -> None:
    cache = BlobCache(client, f"{redis_prefix}_blobs_{secrets.token_hex(3)}", "x", count=3,
                      ttl_ms=60_000, max_bytes=100)
    for i in range(3):
        assert await cache.put(f"n{i}", bytes([i, 0xFF, 0x8B]), 1000 + i)
    assert await cache.get("n0", 2000) == bytes([0, 0xFF, 0x8B])  # asked for: kept on
    assert await cache.put("n3", b"three", 2001)
    assert await cache.get("n1", 2002) is None  # the least recently asked for
    assert [await cache.get(n, 2003) for n in ("n0", "n2", "n3")] == [
        bytes([0, 0xFF, 0x8B]), bytes([2, 0xFF, 0x8B]), b"three"]
    assert not await cache.put("big", b"x" * 101, 2004)
    assert await cache.get("big", 2005) is None


async def test_a_body_is_made_once_for_many_and_made_again_for_another_tag(
    client: aioredis.Redis, redis_prefix: str,
) -> None:
    cache = BlobCache(client, f"{redis_prefix}_blobs_{secrets.token_hex(3)}", "x", count=3,
                      ttl_ms=60_000, max_bytes=100)
    made: list[bytes] = []

    def maker(tag: bytes):
        async def make() -> bytes:
            made.append(tag)
            await asyncio.sleep(0.05)
            return b"body@" + tag
        return make

    bodies = await asyncio.gather(*(cache.computed("t", b"v1", 1000, maker(b"v1"))
                                    for _ in range(10)))
    assert bodies == [b"body@v1"] * 10 and made == [b"v1"]
    assert await cache.computed("t", b"v1", 1001, maker(b"v1")) == b"body@v1"
    assert made == [b"v1"]
    assert await cache.computed("t", b"v2", 1002, maker(b"v2")) == b"body@v2"
    assert made == [b"v1", b"v2"]
