"""The live store on Redis Cluster: what a `redis+cluster://` URL names, and every key of a
table on one slot while the tables spread over every master."""

from __future__ import annotations

import asyncio
import secrets
from typing import cast

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import RedisError

from app.live.client import cluster_address, clustered_url, outage
from app.live.keys import CLUSTER_PARTS, new_table_id
from app.live.ratelimit import Budget, RateLimiter
from app.live.store import LiveStore, Write, connect, dumps
from tests.servers import free_port

# How a three-master cluster made by `redis-cli --cluster create` splits the 16384 slots.
THREE_MASTERS = [(0, 5460), (5461, 10922), (10923, 16383)]


def test_a_cluster_url_names_its_nodes_and_a_bad_one_says_why() -> None:
    assert clustered_url("redis+cluster://a:1") and clustered_url("rediss+cluster://a:1")
    assert not clustered_url("redis://a:1/0")
    address = cluster_address("redis+cluster://me:s%40cret@10.0.0.1:7000,[::1]:7001, b")
    assert address.nodes == [("10.0.0.1", 7000), ("::1", 7001), ("b", 6379)]
    assert (address.username, address.password, address.tls) == ("me", "s@cret", False)
    assert cluster_address("rediss+cluster://h:1").tls
    for bad in ("redis+cluster://", "redis+cluster://h:port", "redis+cluster://:7000"):
        with pytest.raises(ValueError):
            cluster_address(bad)


async def test_a_cluster_none_of_whose_nodes_answers_is_an_outage_like_one_redis() -> None:
    """What the callers catch (a RedisError that counts as an outage: moves answered
    `unavailable`, clocks waiting), not redis-py's RedisClusterException, which is none."""
    store = LiveStore(connect(f"redis+cluster://127.0.0.1:{free_port()}", timeout=0.5), "gone")
    try:
        for attempt in (lambda: store.load("t"), lambda: store.versions(["t", "u"]),
                        lambda: store.write(Write("t", 0, dumps({}), 1))):
            with pytest.raises(RedisError) as raised:
                await attempt()
            assert outage(raised.value), raised.value
        assert await store.ping() is False
    finally:
        await store.close()


@pytest.mark.cluster
async def test_the_keys_of_a_hundred_tables_share_their_slot_and_land_on_every_master(
    redis_url: str, redis_prefix: str,
) -> None:
    store = LiveStore(connect(redis_url), f"{redis_prefix}_spread_{secrets.token_hex(3)}")
    k = store.keys
    try:
        tables = [secrets.token_hex(8) for _ in range(100)]
        for table_id in tables:
            # a round archived and a listener: every key of the table exists
            await store.write(Write(table_id, 0, dumps({"id": table_id}), 1, deadline_ms=10**13,
                                    archive=[{"round": 1}]))
            await store.set_presence(table_id, "p", {0}, set(), 0, 10**13, 60)
            await store.count_spectators(table_id, "p", 1, 0, 10**13, 60)
        slots = []
        for table_id in tables:
            mine = {key_slot(key.encode()) for key in (
                k.table(table_id), k.rounds(table_id), k.listeners(table_id),
                k.presence(table_id), k.watchers(table_id), k.table_channel(table_id))}
            assert len(mine) == 1, table_id
            slots.append(mine.pop())
        # the tables' slots fall in every third of the slots (each master's on a new cluster)
        per_third = [sum(lo <= s <= hi for s in slots) for lo, hi in THREE_MASTERS]
        assert all(count >= 15 for count in per_third), per_third
        assert await store.deadline_of(tables[0]) == 10**13
        if store.clustered:
            # and on the cluster, the keys themselves are on every master, 5 of each table
            cluster = cast(RedisCluster, store.redis)
            masters = cluster.get_primaries()
            assert len(masters) == 3
            held = []
            for node in masters:
                alone = aioredis.Redis(host=node.host, port=int(node.port))
                held.append(len([key async for key in alone.scan_iter(
                    match=f"{k.prefix}:*:{{*", count=1000)]))
                await alone.aclose()
            assert sum(held) == 5 * len(tables), held
            assert all(count >= 5 * 15 for count in held), held
    finally:
        async with store.redis.pipeline(transaction=False) as pipe:
            for table_id in tables:
                for key in (k.table(table_id), k.rounds(table_id), k.listeners(table_id),
                            k.presence(table_id), k.watchers(table_id)):
                    pipe.delete(key)
            await pipe.execute()
        for table_id in tables:
            await store.redis.zrem(k.deadlines(table_id), table_id)
        await store.close()



@pytest.mark.cluster
async def test_the_deadlines_and_the_buckets_spread_over_the_masters_and_stay_exact(
    redis_url: str, redis_prefix: str,
) -> None:
    """What every move touches besides its table (its turn deadline, its rate-limit buckets)
    is spread over the masters as the tables are; a deadline is still claimed once, and a
    charge still takes from all its buckets or from none."""
    prefix = f"{redis_prefix}_parts_{secrets.token_hex(3)}"
    stores = [LiveStore(connect(redis_url), prefix) for _ in range(3)]
    store, k = stores[0], stores[0].keys
    tables = [secrets.token_hex(8) for _ in range(100)]
    limiter = RateLimiter(store.redis, prefix, store.runner)
    try:
        for table_id in tables:
            await store.write(Write(table_id, 0, dumps({"id": table_id}), 1, deadline_ms=5000))
        if store.clustered:
            held = [sum(lo <= key_slot(k.deadlines(t).encode()) <= hi for t in tables)
                    for lo, hi in THREE_MASTERS]
            assert all(count >= 15 for count in held), held
            buckets = [key_slot(limiter.key("ws", str(n)).encode()) for n in range(100)]
            per_third = [sum(lo <= s <= hi for s in buckets) for lo, hi in THREE_MASTERS]
            assert all(count >= 15 for count in per_third), per_third
        else:
            assert len(k.deadline_sets) == 1
        claims = await asyncio.gather(*(s.claim_deadlines(6000, 1000, limit=200)
                                        for s in stores))
        claimed = [t for claim in claims for t in claim]
        assert sorted(claimed) == sorted(tables)  # every one, once
        assert sorted(await store.running_since(6000)) == sorted(tables)  # leased ahead

        one = Budget(0.001, 1)
        assert (await limiter.settle(limiter.charge({"x:1": one}))).allowed
        assert key_slot(limiter.key("x", "1").encode()) != key_slot(limiter.key("y", "1").encode())
        refused = await limiter.settle(limiter.charge({"y:1": one, "x:1": one}))
        assert not refused.allowed and refused.retry_ms > 0
        # nothing was taken from y by the refused charge
        assert (await limiter.settle(limiter.charge({"y:1": one}))).allowed
        assert not (await limiter.settle(limiter.charge({"y:1": one}))).allowed
    finally:
        for table_id in tables:
            await store.redis.delete(k.table(table_id), k.listeners(table_id))
            await store.drop_deadline(table_id)
        for s in stores:
            await s.close()


def test_new_tables_take_the_slot_ranges_in_turn() -> None:
    """A hundred new tables fall six or seven in each of the 16 ranges of slots, so a
    cluster's masters hold a third of them each, not a chance share."""
    ranges = [key_slot(new_table_id().encode()) * CLUSTER_PARTS // 16384 for _ in range(96)]
    assert sorted(ranges.count(part) for part in range(CLUSTER_PARTS)) == [6] * CLUSTER_PARTS
    ids = [new_table_id() for _ in range(300)]
    assert len(set(ids)) == 300 and all(len(i) == 16 and int(i, 16) >= 0 for i in ids)
    per_master = [sum(lo <= key_slot(i.encode()) <= hi for i in ids) for lo, hi in THREE_MASTERS]
    assert all(90 <= count <= 110 for count in per_master), per_master
