"""The move path's connections on a Redis Cluster: one pipelined connection
(app.live.multiplex) to each master, each command sent to the master of its key's slot.

redis-py's cluster client spends some 60 us of CPU on a command (finding the key, its slot
and node, lending a pooled connection, its timers), and a move on a cluster makes five
calls. Over these lanes a command costs what it costs on one Redis's shared connection.
The map of slots is the cluster client's own. A MOVED reply (the slot is served elsewhere
now: a failover, a resharding) has the map read again and the command sent where its slot
is then; a lost connection or a master that does not answer fails the command as an
outage does on one Redis (the caller answers `unavailable`, the clocks wait) and has the
map read again, so the next command finds the replica that took over. An ASK (a slot half
moved) is left to the cluster client, which follows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.exceptions import AskError, MovedError, RedisClusterException
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.client import ClusterUnreachable, unreachable
from app.live.multiplex import Multiplexed
from app.live.tasks import stop_task

# The map of slots is read again at most this often (each command that meets a moved slot
# or a lost master asks for it).
REFRESH_SECONDS = 0.5
# How many times a command follows MOVED before it gives up (a map that keeps changing).
MOVES = 3
SCRIPT_COMMANDS = frozenset({"EVALSHA", "EVAL", "EVALSHA_RO", "EVAL_RO"})


def key_of(args: tuple[Any, ...]) -> Any:
    """The key whose slot a command goes to: a script's first key, else the first argument
    (every command the move path sends names its key first; a channel for SPUBLISH)."""
    name = args[0].upper() if isinstance(args[0], str) else args[0]
    if name in SCRIPT_COMMANDS:
        return args[3] if int(args[2]) > 0 else None
    return args[1] if len(args) > 1 else None


class ClusterLanes:
    def __init__(self, cluster: RedisCluster, *, timeout: float, retry: Retry) -> None:
        self._cluster = cluster
        self._timeout = timeout
        self._retry = retry
        self._lanes: dict[str, Multiplexed] = {}
        self._refreshing: asyncio.Task[None] | None = None
        self._refreshed_at = 0.0

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        return await self.execute("EVALSHA", sha, numkeys, *keys_and_args)

    async def execute(self, *args: Any) -> Any:
        """The command's reply, as Redis sent it (see Multiplexed.execute)."""
        key = key_of(args)
        if key is None:
            return await self._cluster.execute_command(*args)
        for _ in range(MOVES):
            lane = await self._lane_for(key)
            try:
                return await lane.execute(*args)
            except MovedError:  # (before AskError, of which redis-py makes it a kind)
                await self._refresh(force=True)
            except AskError:
                return await self._cluster.execute_command(*args)
            except (RedisConnectionError, RedisTimeoutError):
                self._refresh_soon()
                raise
        return await self._cluster.execute_command(*args)

    execute_command = execute

    async def _lane_for(self, key: Any) -> Multiplexed:
        if not self._cluster.nodes_manager.slots_cache:
            await self._cluster.initialize()
        try:
            node = self._cluster.get_node_from_key(key)
        except RedisClusterException as error:
            if not unreachable(error):
                raise
            node = None
        if node is None:  # the map lacks the slot for now (a failover)
            self._refresh_soon()
            raise ClusterUnreachable("no master holds the slot of this key now")
        lane = self._lanes.get(node.name)
        if lane is None:
            lane = self._lanes[node.name] = Multiplexed.of(
                node.connection_class, node.connection_kwargs, timeout=self._timeout,
                retry=self._retry)
        return lane

    def _refresh_soon(self, force: bool = False) -> asyncio.Task[None]:
        """The map read again (one reading at a time; `force`: even within
        `REFRESH_SECONDS` of the last, after waiting out the rest of them)."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self._read_map(force),
                                                   name="live-lanes-refresh")
        return self._refreshing

    async def _refresh(self, *, force: bool) -> None:
        await asyncio.shield(self._refresh_soon(force))

    async def _read_map(self, force: bool) -> None:
        wait = self._refreshed_at + REFRESH_SECONDS - time.monotonic()
        if wait > 0:
            if not force:
                return
            await asyncio.sleep(wait)
        self._refreshed_at = time.monotonic()
        with contextlib.suppress(Exception):  # the next command that fails asks again
            await self._cluster.nodes_manager.initialize()

    async def close(self) -> None:
        await stop_task(self._refreshing)
        for lane in self._lanes.values():
            await lane.close()
        self._lanes.clear()


# What runs the hot commands and scripts (`LiveStore.runner`): a shared connection, the
# lanes of a cluster, or the client itself (the in-process store).
Runner = aioredis.Redis | Multiplexed | ClusterLanes
