"""Pub/sub fan-in for one process: one Redis subscription, one handler per channel.

The reader only hands messages on: a handler is a plain function that must not wait for
anything (it queues work of its own if it needs I/O), so no table's work ever delays
another's announcements. `add` returns once the subscription is in effect, so a state
read after it misses no announcement. Pub/sub is at-most-once across a dropped
connection: every later confirmation of a subscription (the connection subscribes again
when it reconnects: app.live.channels) is handed to the channel's handler as
`{"kind": "resubscribed"}`, a gap after which the handler re-reads what it serves.

Messages arrive as bytes: a change's announcement goes to its handler as `Announced`, its
header read and nothing else (older versions, and this process's own, are dropped before
that); any other message as its parsed JSON, read by its channel's reader
(app.wire.notes: one of the channel's TypedDicts, or dropped if it is none of them). A
change that carries out a request of this process's (its header `answers` names it: a
relayed move) is first handed to `on_answer`, whatever its version; whoever waits for that
answer resumes after the change is handled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import orjson
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.store import Announced, LiveStore, announced
from app.wire.between import Resubscribed
from app.wire.notes import (
    LOBBY_NOTES,
    RESUBSCRIBED,
    TABLE_NOTES,
    LobbyNoteIn,
    Reader,
    TableNoteIn,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
# What a table channel's handler (`add_table`) gets: its notes and its change announcements.
Message = TableNoteIn | Resubscribed | Announced
TableHandler = Callable[[Message], None]
LobbyHandler = Callable[[LobbyNoteIn | Resubscribed], None]
# The newest table version a handler already has: older change announcements are dropped
# before their state is parsed (the process that made a change has shown it already).
Seen = Callable[[], int]
# Takes a change made for this process: the request it answers, and the change.
OnAnswer = Callable[[str, Announced], None]
SUBSCRIBE_TIMEOUT_SECONDS = 10.0


class Hub:
    def __init__(self, store: LiveStore) -> None:
        self.store = store
        # Each channel's handler, and the reader of its messages.
        self._handlers: dict[str, tuple[Callable[[Any], None], Reader[Any]]] = {}
        self._seen: dict[str, Seen] = {}
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._lock = asyncio.Lock()
        self._channels = store.channels(self._on_reply, lambda: list(self._handlers))
        self.on_answer: OnAnswer | None = None

    async def start(self, lobby_handler: LobbyHandler) -> None:
        # The lobby channel is always subscribed, so the connection exists from the start.
        self._channels.start()
        await self.add(self.store.keys.lobby_channel, lobby_handler, LOBBY_NOTES)

    async def stop(self) -> None:
        await self._channels.stop()

    async def add(self, channel: str, handler: Callable[[T | Resubscribed], None],
                  reader: Reader[T]) -> None:
        """Hand `channel`'s messages, read by `reader`, to `handler`; returns when Redis
        has subscribed us.

        A subscription that meets a dropped connection is tried again on the new one."""
        await self._subscribe(channel, handler, reader, None)

    async def add_table(self, channel: str, handler: TableHandler, seen: Seen) -> None:
        """`add` for a table's channel: its change announcements newer than `seen()` that
        another process made go to `handler` too."""
        await self._subscribe(channel, handler, TABLE_NOTES, seen)

    async def _subscribe(self, channel: str, handler: Callable[[Any], None],
                         reader: Reader[Any], seen: Seen | None) -> None:
        async with self._lock:
            self._handlers[channel] = (handler, reader)
            if seen is not None:
                self._seen[channel] = seen
            waiter = self._waiting.get(channel)
            if waiter is None:
                waiter = self._waiting[channel] = asyncio.get_running_loop().create_future()
            # Not connected now: the connection subscribes to it once it is.
            self._channels.subscribe(channel)
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
            self._channels.unsubscribe(channel)

    async def remove(self, channel: str) -> None:
        async with self._lock:
            if self._handlers.pop(channel, None) is not None:
                self._waiting.pop(channel, None)
                self._seen.pop(channel, None)
                self._channels.unsubscribe(channel)

    def _on_reply(self, kind: bytes, name: bytes, data: Any) -> None:
        channel = name.decode() if isinstance(name, bytes) else str(name)
        route = self._handlers.get(channel)
        if route is None:
            return
        handler, reader = route
        payload: object
        if kind in (b"message", b"smessage"):
            if isinstance(data, str):
                data = data.encode()
            change = announced(data) if isinstance(data, bytes) else None
            if change is not None:
                answers = change.header.get("answers")
                if isinstance(answers, str) and self.on_answer is not None \
                        and answers.startswith(self.store.writer_prefix):
                    self.on_answer(answers, change)
                seen = self._seen.get(channel)
                if seen is None or change.writer.startswith(self.store.writer_prefix):
                    return  # not a table's channel; or written here, and shown here then
                if change.version <= seen():
                    return
                payload = change
            else:
                try:
                    read = reader.read(orjson.loads(data))
                except (TypeError, ValueError):
                    read = None
                if read is None:
                    log.warning("a message of no known shape on %s was dropped", channel)
                    return
                payload = read
        elif kind in (b"subscribe", b"ssubscribe"):
            waiter = self._waiting.pop(channel, None)
            if waiter is not None:
                if not waiter.done():
                    waiter.set_result(None)
                return
            payload = RESUBSCRIBED
        else:
            return
        try:
            handler(payload)
        except Exception:
            log.exception("pub/sub handler of %s failed", channel)
