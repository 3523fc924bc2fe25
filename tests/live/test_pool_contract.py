"""What app.live.pool relies on in redis-py's blocking pool, on a real Redis: if an upgrade
of redis-py changes any of it, these fail (and the pool's fast way in must be rethought)."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from app.live.client import ClusterConnection, clustered_url, connect, connect_cluster
from app.live.pool import BlockingPool, queued, stream_reader, stream_writer, take_idle


@pytest.fixture
async def pool(redis_url: str) -> AsyncIterator[BlockingPool]:
    made = BlockingPool.from_url(redis_url, max_connections=1, timeout=5,
                                 decode_responses=True)
    yield made
    await made.aclose()


async def test_the_private_attributes_are_there_as_the_adapter_reads_them(
        pool: BlockingPool) -> None:
    assert isinstance(pool._available_connections, list)
    assert isinstance(pool._in_use_connections, set)
    assert isinstance(pool._condition, asyncio.Condition)
    assert isinstance(pool._condition._waiters, collections.deque)  # type: ignore[attr-defined]
    assert pool._in_maintenance is False
    pool.set_in_maintenance(True)
    assert pool._in_maintenance is True


async def test_the_live_store_connects_through_the_adapter(redis_url: str) -> None:
    client = connect(redis_url)
    try:
        assert isinstance(client.connection_pool, BlockingPool)
        assert await client.ping()
    finally:
        await client.aclose()


async def test_a_connection_handed_back_is_taken_again_without_the_pools_condition(
        pool: BlockingPool) -> None:
    first = await pool.get_connection()
    assert first in pool._in_use_connections and not pool._available_connections
    await pool.release(first)
    assert pool._available_connections == [first] and not pool._in_use_connections
    # The condition is held (as by a caller inside the pool's own way in): only the fast
    # way, which does not take it, can lend the connection now.
    async with pool._condition:
        again = await asyncio.wait_for(pool.get_connection(), 1)
    assert again is first
    assert again in pool._in_use_connections and not pool._available_connections
    await pool.release(again)
    assert pool._available_connections == [first]


async def test_a_waiter_is_served_before_a_newcomer_and_each_in_turn(
        pool: BlockingPool) -> None:
    held = await pool.get_connection()
    waiter = asyncio.create_task(pool.get_connection())
    await asyncio.sleep(0.05)
    assert not waiter.done() and queued(pool) == 1
    await pool.release(held)
    # Free and handed back, but a caller is queued: a newcomer may not take it first.
    assert take_idle(pool) is None
    newcomer = asyncio.create_task(pool.get_connection())
    served = await asyncio.wait_for(waiter, 1)
    assert served is held
    await asyncio.sleep(0.05)
    assert not newcomer.done()
    await pool.release(served)
    assert await asyncio.wait_for(newcomer, 1) is held
    await pool.release(held)
    assert queued(pool) == 0 and take_idle(pool) is held
    await pool.release(held)


async def test_in_maintenance_every_connection_is_taken_the_pools_own_way(
        pool: BlockingPool) -> None:
    connection = await pool.get_connection()
    await pool.release(connection)
    pool.set_in_maintenance(True)
    assert take_idle(pool) is None
    async with pool._condition:
        blocked = asyncio.create_task(pool.get_connection())
        await asyncio.sleep(0.05)
        assert not blocked.done()  # waiting for the condition the pool's way takes
    assert await asyncio.wait_for(blocked, 1) is connection
    await pool.release(connection)


async def test_commands_run_over_the_adapted_pool(pool: BlockingPool) -> None:
    client = aioredis.Redis(connection_pool=pool)
    results = await asyncio.gather(*(client.ping() for _ in range(20)))
    assert all(results)
    assert len(pool._available_connections) + len(pool._in_use_connections) == 1


async def test_a_connected_connection_shows_its_streams_and_none_once_closed(
        redis_url: str) -> None:
    """The pub/sub reader and the multiplexed link write commands to a connection's stream
    and read its replies themselves: the streams must be the socket's, and gone when the
    connection is."""
    import hiredis

    connection = aioredis.Redis.from_url(redis_url).connection_pool.make_connection()
    await connection.connect()
    try:
        writer, reader = stream_writer(connection), stream_reader(connection)
        assert isinstance(writer, asyncio.StreamWriter)
        assert isinstance(reader, asyncio.StreamReader)
        writer.write(hiredis.pack_command(("PING",)))
        parser = hiredis.Reader()
        reply: object = False
        while reply is False:
            parser.feed(await asyncio.wait_for(reader.read(1 << 10), 5))
            reply = parser.gets()
        assert reply == b"PONG"
    finally:
        await connection.disconnect()
    assert stream_writer(connection) is None
    assert stream_reader(connection) is None


@pytest.mark.cluster
async def test_every_node_a_cluster_client_finds_connects_with_the_class_it_is_given(
        redis_url: str) -> None:
    """`use_connection_class` sets what redis-py's cluster client makes each node with (its
    constructor has no such argument); on a cluster, the nodes it found use it."""
    on_cluster = clustered_url(redis_url)
    client = connect_cluster(redis_url if on_cluster else "redis+cluster://127.0.0.1:1")
    try:
        assert client.connection_kwargs["connection_class"] is ClusterConnection
        assert client.nodes_manager.connection_kwargs["connection_class"] is ClusterConnection
        if on_cluster:
            await client.initialize()
            nodes = client.get_nodes()
            assert len(nodes) >= 3
            assert all(node.connection_class is ClusterConnection for node in nodes)
            assert await client.ping()
    finally:
        await client.aclose()
