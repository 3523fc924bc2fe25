"""The live store: every table's state in Redis, written only by compare-and-set.

One hash per table holds `version` and `data` (the JSON state of the current round). What
the store does is split by job, one module each, and `LiveStore` is all of them on one
client:

- app.live.writes: the compare-and-set write and its announcement, restore, delete;
- app.live.reads: loading tables and a game's archived rounds;
- app.live.deadlines: the turn deadlines, each claimed once;
- app.live.housekeeping: the retire, unwritten and snapshot-due sets;
- app.live.presence: who is connected, and the spectators;
- app.live.outage: outages of the store and the one restart of the clocks after each;
- app.live.announce: what an announcement carries, and who makes it ready;
- app.live.client and app.live.pool: connecting, the pool, retries and timeouts.

Its scripts are in app/live/lua/ (app.live.scripts), its byte layouts in app.wire.bytes.

Connections come from one bounded, blocking pool: a burst waits for a free connection
instead of failing. Every write carries an id the script remembers, so a write retried
after a lost reply recognises itself instead of reporting a conflict; the id names the
process, which shows its own writes at once (`announcer`) and ignores their echo.

The embedded default (no DOMINO_REDIS_URL) is fakeredis' asyncio client with Lua (lupa):
the very same code and scripts, in one process. On a Redis Cluster (a `redis+cluster://`
URL) the same code runs on redis-py's cluster client: every key and channel of a table
shares its hash tag (app.live.keys), the sets every table shares are kept by a call of
their own after the table's script (app.live.writes), and the table channels are read on
each master (app.live.shards).
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterable
from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from app.live.announce import (
    WRITER_PREFIX_BYTES,
    Announced,
    Announcement,
    Announcer,
    announced,
    writer_process,
)
from app.live.base import dumps
from app.live.channels import Channels, OnReply, PubSubChannels
from app.live.client import (
    TIMEOUT_SECONDS,
    clustered,
    connect,
    networked,
    outage,
    retry_policy,
)
from app.live.deadlines import Deadlines
from app.live.housekeeping import Housekeeping
from app.live.keys import CLUSTER_PARTS, Keys
from app.live.lanes import ClusterLanes
from app.live.multiplex import Multiplexed
from app.live.outage import Outage, Outages
from app.live.presence import Presence
from app.live.ratelimit import Taker
from app.live.reads import Reads, Versioned
from app.live.scripts import register
from app.live.shards import ShardedChannels
from app.live.writes import SetCommand, Write, Writes, Written

__all__ = [
    "TIMEOUT_SECONDS", "WRITER_PREFIX_BYTES", "Announced", "Announcement", "Announcer",
    "LiveStore", "Outage", "Versioned", "Write", "Written", "announced", "connect", "dumps",
    "outage", "writer_process",
]


class LiveStore(Writes, Reads, Presence, Deadlines, Housekeeping, Outages):
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.clustered = clustered(client)
        self.keys = Keys(prefix, CLUSTER_PARTS if self.clustered else 1)
        self.writer_prefix = secrets.token_hex(WRITER_PREFIX_BYTES)
        self._writes = itertools.count()
        # What prepares this process's changes for their announcement and shows them here
        # once written (app.services.fanout.feed.Feed; None: nothing shows them here).
        self.announcer: Announcer | None = None
        self.outage_since = None
        self._outage_over_at = 0
        self._write = register(client, "write")
        self._delete = register(client, "delete")
        self._claim = register(client, "claim")
        self._drop = register(client, "deadline_drop")
        self._claimed = {}
        self._retire = register(client, "retire")
        self._resume = register(client, "resume")
        self._presence = register(client, "presence")
        self._restore = register(client, "restore")
        self._listen = register(client, "listen")
        self._spectators = register(client, "spectators")
        self._taker = Taker(client)
        self._unkept: list[SetCommand] = []
        # The move path's writes share one connection (see app.live.multiplex), on a
        # cluster one to each master (app.live.lanes); the in-process store has no
        # connections to share.
        kwargs = (cast(RedisCluster, client).connection_kwargs if self.clustered
                  else client.connection_pool.connection_kwargs)
        self.timeout = float(kwargs.get("socket_timeout") or TIMEOUT_SECONDS)
        self._lane: Multiplexed | ClusterLanes | None = None
        if self.clustered:
            self._lane = ClusterLanes(cast(RedisCluster, client), timeout=self.timeout,
                                      retry=retry_policy())
        elif networked(client):
            self._lane = Multiplexed(client.connection_pool, timeout=self.timeout,
                                     retry=retry_policy())

    def channels(self, on_reply: OnReply, wanted: Callable[[], Iterable[str]]
                 ) -> Channels | PubSubChannels | ShardedChannels:
        """This process's subscription connection (see app.live.channels): its own socket
        to Redis, one to each master of a cluster, or redis-py's PubSub for the in-process
        store."""
        if self.clustered:
            return ShardedChannels(cast(RedisCluster, self.redis), timeout=self.timeout,
                                   on_reply=on_reply, wanted=wanted, sharded=self.keys.sharded)
        if self._lane is None:
            return PubSubChannels(self.redis, on_reply=on_reply, sharded=self.keys.sharded)
        return Channels.of_pool(self.redis.connection_pool, timeout=self.timeout,
                                on_reply=on_reply, wanted=wanted, sharded=self.keys.sharded)

    async def ping(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    async def release(self) -> None:
        """Close this store's own connection (the move path's), leaving the client open
        for whoever shares it."""
        if self._lane is not None:
            await self._lane.close()

    async def close(self) -> None:
        await self.release()
        await self.redis.aclose()

    async def persistent(self) -> bool:
        """Whether Redis (every master of a cluster) writes every change to its append-only
        file (survives a restart)."""
        if self.clustered:  # every master
            cluster = cast(RedisCluster, self.redis)
            answers = [await cluster.config_get("appendonly", target_nodes=node)
                       for node in cluster.get_primaries()]
        else:
            answers = [await self.redis.config_get("appendonly")]
        return all(str(a.get("appendonly", "no")).lower() == "yes" for a in answers)
