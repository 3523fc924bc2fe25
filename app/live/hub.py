"""Pub/sub fan-in for one process: one Redis subscription, one handler per channel.

The reader only hands messages on: a handler is a plain function that must not wait for
anything (it queues work of its own if it needs I/O), so no table's work ever delays
another's announcements. `add` returns once the subscription is in effect, so a state
read after it misses no announcement. Pub/sub is at-most-once across a dropped
connection: every later confirmation of a subscription (redis-py subscribes again when
it reconnects) is handed to the channel's handler as `{"kind": "resubscribed"}`, a gap
after which the handler re-reads what it serves.

Messages arrive as bytes: a change's announcement goes to its handler as `Announced`, its
header read and nothing else (older versions, and this process's own, are dropped before
that); any other message as its parsed JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app import metrics
from app.live.store import Announced, LiveStore, announced
from app.live.tasks import stop_task

log = logging.getLogger(__name__)

Message = dict[str, Any] | Announced
# A channel's handler; a table channel's (`add_table`) also gets its change announcements.
Handler = Callable[[dict[str, Any]], None]
TableHandler = Callable[[Message], None]
# The newest table version a handler already has: older change announcements are dropped
# before their state is parsed (the process that made a change has shown it already).
Seen = Callable[[], int]
RESUBSCRIBED: dict[str, Any] = {"kind": "resubscribed"}
SUBSCRIBE_TIMEOUT_SECONDS = 10.0
SUBSCRIBE_ATTEMPTS = 4


class Hub:
    def __init__(self, store: LiveStore) -> None:
        self.store = store
        # Bytes, not text: an announcement's parts are sliced by their length in bytes.
        pool = store.redis.connection_pool
        self._client = aioredis.Redis(connection_pool=aioredis.ConnectionPool(
            connection_class=pool.connection_class,
            **{**pool.connection_kwargs, "decode_responses": False}))
        self._pubsub = self._client.pubsub()
        self._handlers: dict[str, Callable[[Any], None]] = {}
        self._seen: dict[str, Seen] = {}
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def start(self, lobby_handler: Handler) -> None:
        # The lobby channel is always subscribed, so the connection exists from the start.
        self._task = asyncio.create_task(self._run(), name="live-hub")
        await self.add(self.store.keys.lobby_channel, lobby_handler)

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose(close_connection_pool=True)

    async def add(self, channel: str, handler: Handler) -> None:
        """Hand `channel`'s messages to `handler`; returns when Redis has subscribed us.

        A subscription that meets a dropped connection is tried again on the new one."""
        await self._subscribe(channel, handler, None)

    async def add_table(self, channel: str, handler: TableHandler, seen: Seen) -> None:
        """`add` for a table's channel: its change announcements newer than `seen()` that
        another process made go to `handler` too."""
        await self._subscribe(channel, handler, seen)

    async def _subscribe(self, channel: str, handler: Callable[[Any], None],
                         seen: Seen | None) -> None:
        for attempt in range(SUBSCRIBE_ATTEMPTS):
            try:
                await self._add(channel, handler, seen)
                return
            except RedisConnectionError:
                if attempt == SUBSCRIBE_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.1 * 2**attempt)

    async def _add(self, channel: str, handler: Callable[[Any], None], seen: Seen | None
                   ) -> None:
        async with self._lock:
            self._handlers[channel] = handler
            if seen is not None:
                self._seen[channel] = seen
            waiter = self._waiting.get(channel)
            if waiter is None:
                waiter = self._waiting[channel] = asyncio.get_running_loop().create_future()
            try:
                await self._pubsub.subscribe(channel)
            except BaseException:
                self._forget(channel, waiter)
                raise
        try:
            await asyncio.wait_for(asyncio.shield(waiter), SUBSCRIBE_TIMEOUT_SECONDS)
        except TimeoutError:
            self._forget(channel, waiter)
            # A silent store, as any command of it would find (an outage, not a bug).
            raise RedisTimeoutError("the live store did not confirm a subscription") from None
        except BaseException:
            self._forget(channel, waiter)
            raise

    def _forget(self, channel: str, waiter: asyncio.Future[None]) -> None:
        if self._waiting.get(channel) is waiter:
            del self._waiting[channel]
            self._handlers.pop(channel, None)
            self._seen.pop(channel, None)

    async def remove(self, channel: str) -> None:
        async with self._lock:
            if self._handlers.pop(channel, None) is not None:
                self._waiting.pop(channel, None)
                self._seen.pop(channel, None)
                await self._pubsub.unsubscribe(channel)

    async def _run(self) -> None:
        while True:
            try:
                if not self._pubsub.subscribed:
                    await asyncio.sleep(0.05)
                    continue
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                metrics.count_error(error)
                log.warning("pub/sub read failed (%r); reconnecting", error)
                await asyncio.sleep(0.5)
                continue
            if message is not None:
                self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if not isinstance(channel, str):
            return
        handler = self._handlers.get(channel)
        if handler is None:
            return
        kind = message.get("type")
        if isinstance(kind, bytes):
            kind = kind.decode()
        payload: Message
        if kind == "subscribe":
            waiter = self._waiting.pop(channel, None)
            if waiter is not None:
                if not waiter.done():
                    waiter.set_result(None)
                return
            payload = RESUBSCRIBED
        elif kind == "message":
            data = message["data"]
            if isinstance(data, str):
                data = data.encode()
            change = announced(data) if isinstance(data, bytes) else None
            if change is not None:
                seen = self._seen.get(channel)
                if seen is None or change.writer.startswith(self.store.writer_prefix):
                    return  # not a table's channel; or written here, and shown here then
                if change.version <= seen():
                    return
                payload = change
            else:
                try:
                    payload = orjson.loads(data)
                except (TypeError, ValueError):
                    return
                if not isinstance(payload, dict):
                    return
        else:
            return
        try:
            handler(payload)
        except Exception:
            log.exception("pub/sub handler of %s failed", channel)
