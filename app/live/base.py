"""What every part of the live store shares: its client, its key names, its process's
writer prefix and the connection the hot commands go over."""

from __future__ import annotations

from typing import Any

import orjson
import redis.asyncio as aioredis

from app.live.keys import Keys
from app.live.lanes import ClusterLanes, Runner
from app.live.multiplex import Multiplexed


def dumps(value: Any) -> bytes:
    """Compact JSON (orjson), as the UTF-8 bytes Redis is sent: the live store's one
    serialiser (a state is a few kilobytes a move; no copy into a str and back)."""
    return orjson.dumps(value)


class StoreBase:
    redis: aioredis.Redis
    keys: Keys
    # Every write id of this process starts with this, so its own announcements are known
    # as such when they come back.
    writer_prefix: str
    # The move path's shared connection (app.live.multiplex), a cluster's one to each
    # master (app.live.lanes); None for the in-process store.
    _lane: Multiplexed | ClusterLanes | None
    # Whether the store is a Redis Cluster (a script may touch one slot only).
    clustered: bool

    @property
    def runner(self) -> Runner:
        """What runs the hot commands and scripts: the shared connection where there is one
        (a few µs of CPU a command, against a pooled connection's tens), else the client.
        For commands whose reply is used as Redis sends it (strings, integers, lists of
        them): no redis-py response conversion."""
        return self._lane or self.redis

    async def command(self, *args: Any) -> Any:
        """One command over `runner`."""
        return await self.runner.execute_command(*args)
