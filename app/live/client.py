"""Connecting to the live store: the Redis client, its pool, its retries and timeouts, and
what counts as the store being away.

`DOMINO_REDIS_URL` names one Redis (`redis://`, `rediss://`, `unix://`) or a Redis Cluster:
`redis+cluster://[user:password@]host:port[,host:port...]` (`rediss+cluster://` for TLS),
any of whose nodes tells the client the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import (
    ClusterDownError,
    ClusterError,
    RedisClusterException,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.pool import BlockingPool, use_connection_class

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
    than that it refused this one command); on a cluster also that it is failing over or
    moving a slot (CLUSTERDOWN, TRYAGAIN: a command on keys of a slot whose keys are half
    moved, which redis-py retries until its redirections run out, ClusterError)."""
    return isinstance(error, (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError,
                              ClusterDownError, TryAgainError, ClusterError))


class ClusterUnreachable(RedisConnectionError):
    """No node of the cluster could be reached, or none holds a key's slot now: an outage,
    as a refused connection to one Redis is."""


def unreachable(error: RedisClusterException) -> bool:
    """Whether redis-py's cluster error says no node can be reached, or none holds a slot
    now (an outage, not a bug)."""
    return isinstance(error, SlotNotCoveredError) or "cannot be connected" in str(error)


class Cluster(RedisCluster):
    """redis-py's cluster client, whose "cannot reach the cluster" is a ConnectionError (a
    RedisError) like one Redis's; redis-py raises RedisClusterException, which is none."""

    async def initialize(self, *args: Any, **kwargs: Any) -> RedisCluster:
        try:
            return await super().initialize(*args, **kwargs)
        except RedisClusterException as error:
            if not unreachable(error):
                raise
            raise ClusterUnreachable(str(error)) from error

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().execute_command(*args, **kwargs)
        except RedisClusterException as error:
            if not unreachable(error):
                raise
            raise ClusterUnreachable(str(error)) from error


CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")


class _ClosedIsConnectionError:
    """A write to a connection that was closed meanwhile (as a failed master's are) is the
    ConnectionError it is, which the cluster client retries on the new map of slots;
    redis-py 8.1 lets asyncio's own AttributeError or TypeError out (redis/redis-py#4287)."""

    _writer: Any

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        try:
            await super().send_packed_command(command, check_health)  # type: ignore[misc]
        except (AttributeError, TypeError) as error:
            if self._writer is not None and "NoneType" not in str(error):
                raise  # not a closed connection's
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise RedisConnectionError(f"the connection was closed while written to: "
                                       f"{error!r}") from error


class ClusterConnection(_ClosedIsConnectionError, aioredis.Connection):
    pass


class ClusterSSLConnection(_ClosedIsConnectionError, aioredis.SSLConnection):
    pass


@dataclass(frozen=True)
class ClusterAddress:
    """What a `redis+cluster://` URL says: the nodes to ask first and how to sign in."""

    nodes: list[tuple[str, int]] = field(default_factory=list)
    username: str | None = None
    password: str | None = None
    tls: bool = False


def clustered_url(redis_url: str) -> bool:
    """Whether `redis_url` names a Redis Cluster."""
    return redis_url.split("://", 1)[0].lower() in CLUSTER_SCHEMES


def cluster_address(redis_url: str) -> ClusterAddress:
    """The nodes, user and password of a `redis+cluster://` URL; ValueError if it names
    no node or a port that is not a number."""
    parts = urlsplit(redis_url)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    nodes = []
    for node in hosts.split(","):
        node = node.strip()
        if not node:
            continue
        if node.startswith("["):  # [IPv6]:port
            host, _, rest = node[1:].partition("]")
            port_text = rest.removeprefix(":")
        else:
            host, _, port_text = node.partition(":")
        if not host:
            raise ValueError(f"a node of the cluster URL has no host: {node!r}")
        if port_text and not port_text.isdigit():
            raise ValueError(f"a node of the cluster URL has a port that is not a number: "
                             f"{node!r}")
        nodes.append((host, int(port_text or 6379)))
    if not nodes:
        raise ValueError("a redis+cluster:// URL names at least one node, host:port")
    return ClusterAddress(nodes, unquote(user) or None, unquote(password) or None,
                          parts.scheme.lower().startswith("rediss"))


def connect_cluster(
    redis_url: str, *, pool_size: int = 64, timeout: float = TIMEOUT_SECONDS,
) -> RedisCluster:
    """A client of the Redis Cluster `redis_url` names: at most `pool_size` connections to
    each node, commands sent to the node of their keys' slot (following a moved slot and a
    failover), the same timeouts and retries as for one Redis."""
    address = cluster_address(redis_url)
    connection_class = ClusterSSLConnection if address.tls else ClusterConnection
    client = Cluster(
        startup_nodes=[ClusterNode(host, port, connection_class=connection_class)
                       for host, port in address.nodes],
        username=address.username,
        password=address.password,
        ssl=address.tls,
        max_connections=pool_size,
        decode_responses=True,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=retry_policy(),
        retry_on_error=[RedisConnectionError],
    )
    use_connection_class(client, connection_class)
    return client


def connect(
    redis_url: str, *, pool_size: int = 64, pool_timeout: float = 10.0,
    timeout: float = TIMEOUT_SECONDS,
) -> aioredis.Redis:
    """A Redis client for `redis_url`, or the in-process fakeredis when it is empty; a
    cluster's client (`connect_cluster`) when it names a cluster.

    At most `pool_size` connections; a command that finds them all busy waits up to
    `pool_timeout` seconds for one. Connections are health-checked after a quiet spell
    and a command that meets a dropped connection is retried on a fresh one, so the
    first request after a Redis restart succeeds. A command Redis does not answer within
    `timeout` seconds fails with TimeoutError, not retried: a silent Redis (a stopped
    process, a partition, a long fork) is an outage like a refused connection.
    """
    if clustered_url(redis_url):
        return cast(aioredis.Redis, connect_cluster(redis_url, pool_size=pool_size,
                                                     timeout=timeout))
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
    return isinstance(getattr(client, "connection_pool", None), BlockingPool)


def clustered(client: aioredis.Redis) -> bool:
    """Whether `client` talks to a Redis Cluster."""
    return isinstance(client, RedisCluster)
