"""One process's subscription connection: the pub/sub replies Redis sends, as bytes.

redis-py's PubSub costs about 20 us of CPU per message (a health check, a timeout, a
dict, a logger lookup and an awaited metrics hook each); at saturation every process that
serves a table receives every change of it, so that was a tenth of a move's cost per
process. Here one task reads the connection's socket into hiredis and hands each reply,
`[kind, channel, data]`, to `on_reply` (2 us a message). Commands (SUBSCRIBE, UNSUBSCRIBE,
PING; SSUBSCRIBE and SUNSUBSCRIBE for a shard channel, a table's) are written to the same
socket; their confirmations come back as replies too.

The connection is redis-py's (its URL, password and TLS settings), opened by the reader;
when it breaks or goes silent (a PING after `HEALTH_SECONDS` of quiet that gets no answer
within `PONG_SECONDS`), the reader connects again and subscribes to every channel
`wanted()` names, so a later confirmation of a channel is how a resubscription shows.
Whatever was published meanwhile is lost to this process, so the wait for the PONG is
long: a Redis that is only slow (or a process starved of CPU for a moment) keeps its
subscription; a Redis that froze keeps it too, and what it publishes when it comes back
still arrives.

On a Redis Cluster a shard channel is read from the node that holds its slot: one such
connection per node (app.live.shards).

The embedded store (fakeredis) has no socket: `PubSubChannels` reads it through redis-py's
PubSub, with the same interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

import hiredis
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from app import metrics
from app.live.pool import stream_reader, stream_writer
from app.live.tasks import stop_task

log = logging.getLogger(__name__)

# A reply: kind (b"message", b"subscribe", ...), channel, data.
OnReply = Callable[[bytes, bytes, Any], None]
# Whether a channel is a shard channel (SSUBSCRIBE): app.live.keys.Keys.sharded.
Sharded = Callable[[str], bool]
# How long the connection may be quiet before it is asked whether it is still there.
HEALTH_SECONDS = 5.0
# How long a PING may go unanswered before the connection counts as dead.
PONG_SECONDS = 30.0
RECONNECT_SECONDS = 0.5
READ_BYTES = 1 << 16


class Channels:
    def __init__(self, connection_class: type[Any], connection_kwargs: dict[str, Any], *,
                 timeout: float, on_reply: OnReply, wanted: Callable[[], Iterable[str]],
                 sharded: Sharded, on_lost: Callable[[], None] | None = None) -> None:
        """A connection made by `connection_class(**connection_kwargs)` (a pool's or a
        cluster node's); `on_lost` is called whenever it is lost (before it reconnects)."""
        self._kwargs = {**connection_kwargs, "socket_timeout": None,
                        "health_check_interval": 0, "decode_responses": False}
        self._kwargs.pop("retry", None)
        self._connection_class = connection_class
        self._timeout = timeout
        self._on_reply = on_reply
        self._wanted = wanted
        self._sharded = sharded
        self._on_lost = on_lost
        self._connection: Any = None
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def of_pool(cls, pool: aioredis.ConnectionPool, *, timeout: float, on_reply: OnReply,
                wanted: Callable[[], Iterable[str]], sharded: Sharded) -> Channels:
        return cls(pool.connection_class, pool.connection_kwargs, timeout=timeout,
                   on_reply=on_reply, wanted=wanted, sharded=sharded)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="live-channels")

    async def stop(self) -> None:
        await stop_task(self._task)

    @property
    def connected(self) -> bool:
        return self._connection is not None

    def subscribe(self, channel: str) -> None:
        """Ask for `channel` (its confirmation comes as a reply). Not connected: the reader
        subscribes to it, with every other wanted channel, once it is."""
        self._send("SSUBSCRIBE" if self._sharded(channel) else "SUBSCRIBE", channel)

    def unsubscribe(self, channel: str) -> None:
        self._send("SUNSUBSCRIBE" if self._sharded(channel) else "UNSUBSCRIBE", channel)

    def _send(self, *command: str) -> None:
        writer = None if self._connection is None else stream_writer(self._connection)
        if writer is None:
            return
        try:
            writer.write(hiredis.pack_command(cast(Any, command)))
        except Exception as error:  # the reader finds the broken connection too
            log.debug("pub/sub write failed: %r", error)

    async def _run(self) -> None:
        while True:
            connection = self._connection_class(**self._kwargs)
            try:
                await asyncio.wait_for(connection.connect(), self._timeout)
                self._connection = connection
                ordinary = []
                for channel in self._wanted():
                    if self._sharded(channel):
                        # one at a time: a cluster refuses shard channels of two slots at once
                        self._send("SSUBSCRIBE", channel)
                    else:
                        ordinary.append(channel)
                if ordinary:
                    self._send("SUBSCRIBE", *ordinary)
                await self._read(connection)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                metrics.count_error(error)
                log.warning("pub/sub connection failed (%r); reconnecting", error)
            finally:
                self._connection = None
                with contextlib.suppress(Exception):
                    await connection.disconnect(nowait=True)
            if self._on_lost is not None:
                self._on_lost()
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _read(self, connection: Any) -> None:
        reader = stream_reader(connection)
        if reader is None:
            raise RedisConnectionError("the live store's pub/sub connection is closed")
        parser = hiredis.Reader()
        asked = False  # a PING is out: the next quiet spell is the store's silence
        while True:
            try:
                async with asyncio.timeout(PONG_SECONDS if asked else HEALTH_SECONDS):
                    data = await reader.read(READ_BYTES)
            except TimeoutError:
                if asked:
                    raise RedisConnectionError("the live store did not answer a PING") from None
                asked = True
                self._send("PING")
                continue
            if not data:
                raise RedisConnectionError("the live store closed the pub/sub connection")
            asked = False
            parser.feed(data)
            while (reply := parser.gets()) is not False:
                if isinstance(reply, list) and len(reply) >= 3:
                    self._on_reply(reply[0], reply[1], reply[2])


class PubSubChannels:
    """`Channels` for a client without a socket (the embedded store): redis-py's PubSub."""

    def __init__(self, client: aioredis.Redis, *, on_reply: OnReply, sharded: Sharded) -> None:
        pool = client.connection_pool
        self._client = aioredis.Redis(connection_pool=aioredis.ConnectionPool(
            connection_class=pool.connection_class,
            **{**pool.connection_kwargs, "decode_responses": False}))
        self._pubsub = self._client.pubsub()
        self._on_reply = on_reply
        self._sharded = sharded
        self._task: asyncio.Task[None] | None = None
        self._asking: set[asyncio.Task[None]] = set()

    connected = True

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="live-channels")

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose(close_connection_pool=True)

    def subscribe(self, channel: str) -> None:
        self._ask(self._pubsub.ssubscribe(channel) if self._sharded(channel)
                  else self._pubsub.subscribe(channel))

    def unsubscribe(self, channel: str) -> None:
        self._ask(self._pubsub.sunsubscribe(channel) if self._sharded(channel)
                  else self._pubsub.unsubscribe(channel))

    def _ask(self, command: Awaitable[Any]) -> None:
        async def run() -> None:
            await command

        task = asyncio.get_running_loop().create_task(run())
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)

    async def _run(self) -> None:
        while True:
            if not self._pubsub.subscribed:
                await asyncio.sleep(0.05)
                continue
            message = await self._pubsub.get_message(timeout=1.0)
            if message is not None:
                kind = message["type"]
                self._on_reply(kind.encode() if isinstance(kind, str) else kind,
                               message["channel"], message["data"])
