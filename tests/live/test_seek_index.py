"""The seeks' index (app/live/seek_index.py, app/live/lua/seek_add.lua): a seek's add reads
the seeks that fit it, not its pool, and the sweep is one script; on a real Redis and on
the embedded store."""

from __future__ import annotations

import random
import secrets
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis

from app.live.seek_index import cell, cover, stab
from app.live.seek_pool import SeekBook
from app.live.store import connect

NOW = 1_000_000
LATER = NOW + 600_000


@pytest.fixture(params=["redis", "embedded"])
async def book(request: pytest.FixtureRequest, redis_url: str, redis_prefix: str
               ) -> AsyncIterator[SeekBook]:
    client: aioredis.Redis = connect(redis_url if request.param == "redis" else "")
    yield SeekBook(client, f"{redis_prefix}_seekindex_{secrets.token_hex(3)}")
    await client.aclose()


def _seek(player: int, rating: float, span: tuple[float, float] = (-1e9, 1e9), *,
          pool: str = "p", seats: int = 2, avoid: tuple[int, ...] = (),
          at: int = NOW) -> dict[str, Any]:
    return {"id": secrets.token_hex(8), "player": {"id": player, "name": f"p{player}"},
            "pool": pool, "seats": seats, "rating": rating, "range": list(span),
            "avoid": list(avoid), "created_at": at, "expires_at": at + 600_000}


def test_a_range_covers_a_rating_in_exactly_one_node_of_those_that_hold_it() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        lo = rng.uniform(-9000, 9000)
        hi = lo + rng.choice([0, rng.uniform(0, 50), rng.uniform(0, 20000)])
        rating = rng.uniform(-9000, 9000)
        shared = set(cover(lo, hi)) & set(stab(rating))
        assert len(shared) == (1 if cell(lo) <= cell(rating) <= cell(hi) else 0)
        assert len(cover(lo, hi)) <= 2 * 10
    assert cover(-1e9, 1e9) == ["10:0"]


async def test_an_add_reads_the_seeks_that_fit_it_not_the_pool(book: SeekBook) -> None:
    # 1,500 seeks of one pool that cannot meet a newcomer rated 1500: their ranges leave
    # him out (rated alike), or their ratings are outside his range; and one that fits.
    player = iter(range(10, 100_000))
    for i in range(500):
        for seek in (_seek(next(player), 1500, (3000, 4000)),
                     _seek(next(player), 1000 + i * 0.1, (1400, 1600)),
                     _seek(next(player), 2100 + i, (1000, 2000))):
            assert (await book.add(seek, NOW, "t", LATER)).kind == "open"
    other_pool = _seek(next(player), 1500, pool="q")
    assert (await book.add(other_pool, NOW, "t", LATER)).kind == "open"
    blocked = _seek(2, 1520, (1400, 1600), avoid=(1, 3))
    assert (await book.add(blocked, NOW, "t", LATER)).kind == "open"
    right = _seek(3, 1550, (1400, 1600), at=NOW + 1)
    assert (await book.add(right, NOW, "t", LATER)).kind == "open"
    added = await book.add(_seek(1, 1500, (1450, 1700), avoid=(2,)), NOW, "table", LATER)
    assert added.kind == "matched"
    assert [s["id"] for s in added.seeks[1:]] == [right["id"]]
    # What it read: the two seeks that fit it and the few sharing its range ends' cells.
    assert added.looked <= 4, added.looked
    # The one it took is gone from every node of the index; the blocked one still waits.
    again = await book.add(_seek(4, 1550, (1400, 1600)), NOW, "table2", LATER)
    assert again.kind == "matched" and [s["id"] for s in again.seeks[1:]] == [blocked["id"]]
    assert again.looked <= 4, again.looked


async def test_ranges_both_ways_the_oldest_first_and_a_table_of_four(book: SeekBook) -> None:
    wide = _seek(1, 1500, at=NOW)  # anyone
    narrow = _seek(2, 1700, (1650, 1750), seats=4, at=NOW + 1)
    assert (await book.add({**wide, "seats": 4}, NOW, "t", LATER)).kind == "open"
    assert (await book.add(narrow, NOW, "t", LATER)).kind == "open"
    # 1500 is outside the narrow seek's range: it never shares a table with the wide one
    third = _seek(3, 1710, (1000, 2000), seats=4, at=NOW + 2)
    fourth = _seek(4, 1690, seats=4, at=NOW + 3)
    assert (await book.add(third, NOW, "t", LATER)).kind == "open"
    added = await book.add(fourth, NOW, "four", LATER)
    assert added.kind == "open"  # the wide seek, the third, the fourth: three of four
    last = await book.add(_seek(5, 1600, (1000, 2000), seats=4, at=NOW + 4), NOW, "x", LATER)
    assert last.kind == "matched"
    assert {s["player"]["id"] for s in last.seeks} == {5, 1, 3, 4}
    # an expired seek is never taken; a player's own older seek is replaced
    old = _seek(6, 1500, at=NOW - 700_000)
    assert (await book.add(old, NOW - 700_000, "t", LATER)).kind == "open"
    mine = await book.add(_seek(6, 1500), NOW, "t", LATER)
    assert mine.kind == "open" and mine.looked == 0


async def test_one_sweep_ends_what_is_due_whatever_the_number_of_seeks(book: SeekBook) -> None:
    sockets = f"{book.prefix}:cap:sockets:"
    # owners 1-300 have a socket; 301-600 have none
    for player in range(1, 301):
        await book.redis.zadd(f"{sockets}{player}", {"s": NOW + 10**9})
    for player in range(1, 601):
        seek = _seek(player, 1000 + player * 10, (1000 + player * 10, 1000 + player * 10),
                     at=NOW - 600_000 if player % 100 == 0 else NOW + player)
        assert (await book.add(seek, NOW, "t", NOW)).kind == "open"
    ended = await book.sweep(NOW + 1, sockets, 30_000, 5_000, 1000)
    assert sorted(e.seek["player"]["id"] for e in ended) == [100, 200, 300, 400, 500, 600]
    assert {e.reason for e in ended} == {"expired"}
    # the owners with no socket are found absent; ended once the grace is past
    assert await book.sweep(NOW + 20_000, sockets, 30_000, 5_000, 1000) == []
    ended = await book.sweep(NOW + 40_000, sockets, 30_000, 5_000, 1000)
    assert {e.reason for e in ended} == {"no_socket"}
    assert sorted(e.seek["player"]["id"] for e in ended) == \
        [p for p in range(301, 600) if p % 100]
    listed = await book.listed(NOW + 40_000, 0, 1000)
    assert len(listed) == 297 and [s["player"]["id"] for s in listed[:2]] == [1, 2]
    assert [s["player"]["id"] for s in await book.listed(NOW + 40_000, 295, 10)] == [298, 299]
    # a seek ended is out of its pool's index: a newcomer finds only those left
    added = await book.add(_seek(9999, 4500, (4400, 4600)), NOW + 40_000, "t", LATER)
    assert added.kind == "open" and added.looked == 0
    added = await book.add(_seek(9998, 1000 + 250 * 10), NOW + 40_000, "t2", LATER)
    assert added.kind == "matched" and added.seeks[1]["player"]["id"] == 250


async def test_a_seek_opened_before_the_index_is_filed_in_it(book: SeekBook) -> None:
    unfiled = _seek(1, 1500)
    # as the script before the index left it: no `cells`, in its pool's one set
    await book.redis.hset(f"{book.prefix}:seeks", unfiled["id"], orjson.dumps(unfiled))
    await book.redis.sadd(f"{book.prefix}:seek-pool:p", unfiled["id"])
    assert await book.file_unindexed(LATER) == 1
    assert await book.file_unindexed(LATER) == 0
    added = await book.add(_seek(2, 1400), NOW, "t", LATER)
    assert added.kind == "matched" and added.seeks[1]["id"] == unfiled["id"]
