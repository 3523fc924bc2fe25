"""One process's subscriptions on a Redis Cluster: a subscription connection
(app.live.channels) to every master, each reading the shard channels of the slots its node
holds (a table's channel, SSUBSCRIBE) with the same fast reader as on one Redis; the
ordinary channels (the lobby's, the sessions', the processes', which a cluster carries to
every node) are read on one of them.

When a connection is lost, or a node says a channel's slot has moved (SUNSUBSCRIBE), the
cluster's map of slots is read again and every channel is subscribed where its slot is now:
a master that took over from a failed one gets a connection of its own, and a node that is
no longer a master loses its. Each later confirmation is a resubscription (a gap, after
which the channel's reader re-reads what it serves: app.live.hub).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from redis.asyncio.cluster import RedisCluster

from app import metrics
from app.live.channels import RECONNECT_SECONDS, Channels, OnReply, Sharded
from app.live.tasks import stop_task

log = logging.getLogger(__name__)


class ShardedChannels:
    def __init__(self, client: RedisCluster, *, timeout: float, on_reply: OnReply,
                 wanted: Callable[[], Iterable[str]], sharded: Sharded) -> None:
        self._client = client
        self._timeout = timeout
        self._on_reply = on_reply
        self._wanted = wanted
        self._sharded = sharded
        # Each master's connection, by node name; the one that reads the ordinary channels.
        self._shards: dict[str, Channels] = {}
        self._home: str | None = None
        # Where each channel was last subscribed (its node's name).
        self._at: dict[str, str] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        return bool(self._shards) and all(shard.connected for shard in self._shards.values())

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="live-shards")

    async def stop(self) -> None:
        await stop_task(self._task)
        for shard in list(self._shards.values()):
            await shard.stop()
        self._shards.clear()

    def subscribe(self, channel: str) -> None:
        node = self._node_of(channel)
        shard = None if node is None else self._shards.get(node)
        if node is not None:
            self._at[channel] = node
        if shard is not None:
            shard.subscribe(channel)  # else it is subscribed when its node's connection is made

    def unsubscribe(self, channel: str) -> None:
        node = self._at.pop(channel, None)
        shard = None if node is None else self._shards.get(node)
        if shard is not None:
            shard.unsubscribe(channel)

    def _node_of(self, channel: str) -> str | None:
        if not self._sharded(channel):
            return self._home
        try:
            node = self._client.get_node_from_key(channel)
        except Exception:  # the map is not read yet, or lacks the slot for now
            return None
        return None if node is None else str(node.name)

    def _wanted_at(self, node: str) -> list[str]:
        out = []
        for channel in self._wanted():
            if self._node_of(channel) == node:
                self._at[channel] = node
                out.append(channel)
        return out

    def _wanted_of(self, node: str) -> Callable[[], list[str]]:
        return lambda: self._wanted_at(node)

    def _reply(self, kind: bytes, name: bytes, data: Any) -> None:
        if kind == b"sunsubscribe":
            channel = name.decode() if isinstance(name, bytes) else str(name)
            if channel in self._at:  # not ours to drop: its slot moved
                self._changed.set()
            return
        self._on_reply(kind, name, data)

    async def _run(self) -> None:
        while True:
            try:
                await self._place()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                metrics.count_error(error)
                log.warning("the cluster's map of slots could not be read (%r)", error)
                self._changed.set()
            await self._changed.wait()
            self._changed.clear()
            await asyncio.sleep(RECONNECT_SECONDS)
            with contextlib.suppress(Exception):  # tried again on the next change
                await self._client.nodes_manager.initialize()

    async def _place(self) -> None:
        """A connection to every master of the cluster's map as it is now, and every wanted
        channel subscribed on the node that holds it."""
        if not self._client.nodes_manager.slots_cache:
            await self._client.initialize()
        masters = sorted(node.name for node in self._client.get_primaries())
        for name in list(self._shards):
            if name not in masters:
                await self._shards.pop(name).stop()
        if self._home not in masters:
            self._home = masters[0] if masters else None
        for name in masters:
            if name in self._shards:
                continue
            node = self._client.get_node(node_name=name)
            if node is None:
                continue
            shard = self._shards[name] = Channels(
                node.connection_class, node.connection_kwargs, timeout=self._timeout,
                on_reply=self._reply, wanted=self._wanted_of(name),
                sharded=self._sharded, on_lost=self._changed.set)
            shard.start()
        # Channels whose slot is now on another node than where they were subscribed.
        for channel in list(self._wanted()):
            now_at = self._node_of(channel)
            old = self._at.get(channel)
            if now_at is not None and old != now_at:
                if old is not None and old in self._shards:
                    self._shards[old].unsubscribe(channel)
                self.subscribe(channel)
