"""Connecting to the live store: the Redis client, its pool, its retries and timeouts, and
what counts as the store being away."""

from __future__ import annotations

from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.pool import BlockingPool

# How long a command may wait for Redis's answer before Redis counts as away (the default
# of DOMINO_REDIS_TIMEOUT_SECONDS).
TIMEOUT_SECONDS = 2.0


def retry_policy() -> Retry:
    """A command that meets a dropped connection is tried again, on a fresh one (a few
    times, quickly: a restarted Redis is back at once). One that Redis did not answer in
    time is not: the time is spent, and Redis counts as away."""
    return Retry(ExponentialBackoff(cap=0.5, base=0.05), 5,
                 supported_errors=(RedisConnectionError,))


def outage(error: BaseException) -> bool:
    """Whether `error` says the store cannot be reached or did not answer in time (rather
    than that it refused this one command)."""
    return isinstance(error, (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError))


def connect(
    redis_url: str, *, pool_size: int = 64, pool_timeout: float = 10.0,
    timeout: float = TIMEOUT_SECONDS,
) -> aioredis.Redis:
    """A Redis client for `redis_url`, or the in-process fakeredis when it is empty.

    At most `pool_size` connections; a command that finds them all busy waits up to
    `pool_timeout` seconds for one. Connections are health-checked after a quiet spell
    and a command that meets a dropped connection is retried on a fresh one, so the
    first request after a Redis restart succeeds. A command Redis does not answer within
    `timeout` seconds fails with TimeoutError, not retried: a silent Redis (a stopped
    process, a partition, a long fork) is an outage like a refused connection.
    """
    if redis_url:
        pool = BlockingPool.from_url(
            redis_url,
            max_connections=pool_size,
            timeout=pool_timeout,
            decode_responses=True,
            health_check_interval=5,
            # A Redis that stops answering is an outage too, not a wait without end.
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=retry_policy(),
            retry_on_error=[RedisConnectionError],
        )
        return aioredis.Redis(connection_pool=pool)
    import fakeredis

    return cast(aioredis.Redis, fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(),
                                                          decode_responses=True))


def networked(client: aioredis.Redis) -> bool:
    """Whether `client` talks to a Redis server over connections of its own pool (the
    embedded store has none to share)."""
    return isinstance(client.connection_pool, BlockingPool)
