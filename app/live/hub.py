"""Pub/sub fan-in for one process: one Redis subscription, one handler per channel.

The reader only hands messages on: a handler is a plain function that must not wait for
anything (it queues work of its own if it needs I/O), so no table's work ever delays
another's announcements. `add` returns once the subscription is in effect, so a state
read after it misses no announcement. Pub/sub is at-most-once across a dropped
connection: every later confirmation of a subscription (redis-py subscribes again when
it reconnects) is handed to the channel's handler as `{"kind": "resubscribed"}`, a gap
after which the handler re-reads what it serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app import metrics
from app.live.store import LiveStore, change_head
from app.live.tasks import stop_task

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]
# The newest table version a handler already has: older change announcements are dropped
# before their state is parsed (the process that made a change has shown it already).
Seen = Callable[[], int]
RESUBSCRIBED: dict[str, Any] = {"kind": "resubscribed"}
SUBSCRIBE_TIMEOUT_SECONDS = 10.0
SUBSCRIBE_ATTEMPTS = 4


class Hub:
    def __init__(self, store: LiveStore) -> None:
        self.store = store
        self._pubsub = store.redis.pubsub()
        self._handlers: dict[str, Handler] = {}
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

    async def add(self, channel: str, handler: Handler, seen: Seen | None = None) -> None:
        """Hand `channel`'s messages to `handler`; returns when Redis has subscribed us.

        A subscription that meets a dropped connection is tried again on the new one."""
        for attempt in range(SUBSCRIBE_ATTEMPTS):
            try:
                await self._add(channel, handler, seen)
                return
            except RedisConnectionError:
                if attempt == SUBSCRIBE_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.1 * 2**attempt)

    async def _add(self, channel: str, handler: Handler, seen: Seen | None) -> None:
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
        if not isinstance(channel, str):
            return
        handler = self._handlers.get(channel)
        if handler is None:
            return
        kind = message.get("type")
        if kind == "subscribe":
            waiter = self._waiting.pop(channel, None)
            if waiter is not None:
                if not waiter.done():
                    waiter.set_result(None)
                return
            payload = RESUBSCRIBED
        elif kind == "message":
            data = message["data"]
            seen = self._seen.get(channel)
            head = change_head(data) if isinstance(data, str) else None
            if head is not None:
                version, writer = head
                if writer.startswith(self.store.writer_prefix):
                    return  # written here, and shown here when it was written
                if seen is not None and version <= seen():
                    return
            try:
                payload = orjson.loads(data)
            except (TypeError, ValueError):
                return
        else:
            return
        try:
            handler(payload)
        except Exception:
            log.exception("pub/sub handler of %s failed", channel)
