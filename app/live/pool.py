"""The one place that reads redis-py's private internals: a blocking pool's fast way in,
and a connection's own streams (for the pub/sub reader and the multiplexed link).

redis-py's `BlockingConnectionPool` lends a connection under its condition, with a timeout
and wait-time metrics around every command: most of a command's own cost on the move path
at saturation. While a connection is free and nobody waits for one, `BlockingPool` takes it
at once instead; otherwise, and always when a waiter is queued (first come, first served),
the pool's own way, which waits.

What this relies on, checked against a real Redis by tests/live/test_pool_contract.py (so an
upgrade of redis-py that changes it fails there, not in production):

- `_available_connections`: the list of idle connections, from which `pop()` takes one, and
  to which `release` gives one back;
- `_in_use_connections`: the set of connections lent out, which `release` takes one out of;
- `_condition`: the asyncio.Condition that `get_connection` waits on when none is free, and
  its `_waiters` (asyncio's own), the callers queued on it;
- `_in_maintenance` (`set_in_maintenance`): while it is set, a connection is taken the
  pool's own way only;
- a connected connection's `_reader` and `_writer`: the asyncio streams of its socket (None
  once it is disconnected), read and written directly where redis-py's own per-command
  reply handling and drain would cost more than the work;
- a cluster client's `connection_kwargs` and its `nodes_manager.connection_kwargs`: what
  every node it finds is made with, its `connection_class` among them (which the client's
  constructor does not take).
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection


def stream_writer(connection: Any) -> asyncio.StreamWriter | None:
    """The socket's stream writer of a connected redis-py connection; None when it is not
    connected."""
    return getattr(connection, "_writer", None)


def stream_reader(connection: Any) -> asyncio.StreamReader | None:
    """The socket's stream reader of a connected redis-py connection; None when it is not
    connected."""
    return getattr(connection, "_reader", None)


def queued(pool: aioredis.BlockingConnectionPool) -> int:
    """How many callers wait for a connection of `pool`."""
    return len(getattr(pool._condition, "_waiters", None) or ())


def take_idle(pool: aioredis.BlockingConnectionPool) -> AbstractConnection | None:
    """An idle connection of `pool`, lent out now (the pool's own `release` gives it back),
    if one is free, nobody waits for one and the pool is not in maintenance; else None."""
    if not pool._available_connections or queued(pool) \
            or getattr(pool, "_in_maintenance", False):
        return None
    connection = pool._available_connections.pop()
    pool._in_use_connections.add(connection)
    return connection


class BlockingPool(aioredis.BlockingConnectionPool):
    """redis-py's bounded, blocking pool, with the fast way in (`take_idle`)."""

    async def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> Any:
        connection = take_idle(self)
        if connection is None:
            return await super().get_connection()
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection


def use_connection_class(client: RedisCluster, connection_class: type[Any]) -> None:
    """Every node the cluster client finds from now on connects with `connection_class`."""
    client.connection_kwargs["connection_class"] = connection_class
    client.nodes_manager.connection_kwargs["connection_class"] = connection_class
