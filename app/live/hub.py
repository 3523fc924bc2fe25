"""Pub/sub fan-in for one process: one Redis subscription, handlers per channel.

Pub/sub is at-most-once; every message names a version, and the handlers re-read the
state instead of trusting the message, so a lost message only delays an update.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app import metrics
from app.live.store import LiveStore
from app.live.tasks import stop_task

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Hub:
    def __init__(self, store: LiveStore) -> None:
        self.store = store
        self._pubsub = store.redis.pubsub()
        self._handlers: dict[str, list[Handler]] = {}
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def start(self, lobby_handler: Handler) -> None:
        # The lobby channel is always subscribed, so the connection exists from the start.
        await self.add(self.store.keys.lobby_channel, lobby_handler)
        self._task = asyncio.create_task(self._run(), name="live-hub")

    async def stop(self) -> None:
        await stop_task(self._task)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()

    async def add(self, channel: str, handler: Handler) -> None:
        async with self._lock:
            handlers = self._handlers.setdefault(channel, [])
            handlers.append(handler)
            if len(handlers) == 1:
                await self._pubsub.subscribe(channel)

    async def remove(self, channel: str, handler: Handler) -> None:
        async with self._lock:
            handlers = self._handlers.get(channel, [])
            if handler in handlers:
                handlers.remove(handler)
            if not handlers and channel in self._handlers:
                del self._handlers[channel]
                await self._pubsub.unsubscribe(channel)

    async def _run(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=1.0
                )
            except asyncio.CancelledError:
                raise
            except Exception as error:
                metrics.count_error(error)
                log.exception("pub/sub read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                payload = json.loads(message["data"])
            except (TypeError, ValueError):
                continue
            for handler in list(self._handlers.get(message["channel"], ())):
                try:
                    await handler(payload)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("pub/sub handler failed")
