"""One Redis connection that carries many callers' commands at once.

redis-py lends a pooled connection to one command for its whole round trip, with the
pool's lock, a write timer and a read timer around it. At saturation a process has
hundreds of moves in flight, and that lending was a tenth of its CPU. The move path's
scripts go over this connection instead: each caller writes its command and waits for
its own reply, and one reader takes the replies in the order Redis sends them (Redis
answers one connection's commands in the order it got them).

Nothing else changes for the caller: a reply that is an error (NOSCRIPT, a script error)
is raised to its own caller and the connection goes on; a lost connection fails every
command in flight with redis-py's ConnectionError and the next command connects again;
a Redis that stops answering for `timeout` seconds fails them with TimeoutError. A
command that meets a lost connection is retried like the pool's (the live store's writes
recognise their own retry), within its `timeout`; one that was not answered is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.pool import stream_writer
from app.live.tasks import stop_task


class _Link:
    """One connection and the commands written to it that wait for their replies."""

    def __init__(self, connection: AbstractConnection) -> None:
        self.connection = connection
        # Oldest first: (the caller's reply, when the command was written).
        self.waiting: deque[tuple[asyncio.Future[Any], float]] = deque()
        # Commands packed and not yet written (see Multiplexed._flush).
        self.outgoing: list[bytes] = []
        self.reader: asyncio.Task[None] | None = None


@dataclass(frozen=True)
class Connections:
    """How to make a connection: what a pool knows (a cluster node knows it too)."""

    connection_class: type[AbstractConnection]
    connection_kwargs: dict[str, Any]


class Multiplexed:
    def __init__(self, pool: aioredis.ConnectionPool | Connections, *, timeout: float,
                 retry: Retry) -> None:
        # Timers are ours (one per connection, not one per command), so the connection
        # itself has none; health checks are the reader's: a dead socket fails its read.
        self._kwargs = {**pool.connection_kwargs, "socket_timeout": None,
                        "health_check_interval": 0}
        self._kwargs.pop("retry", None)
        self._connection_class = pool.connection_class
        self._timeout = timeout
        self._retry = retry
        self._link: _Link | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._opening: asyncio.Task[_Link] | None = None

    @classmethod
    def of(cls, connection_class: type[AbstractConnection], connection_kwargs: dict[str, Any],
           *, timeout: float, retry: Retry) -> Multiplexed:
        """One to the Redis that `connection_class(**connection_kwargs)` connects to."""
        return cls(Connections(connection_class, connection_kwargs), timeout=timeout,
                   retry=retry)

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        return await self.execute("EVALSHA", sha, numkeys, *keys_and_args)

    async def execute(self, *args: Any) -> Any:
        """The command's reply. A dropped connection is retried on a new one; an answer
        that has not come within `timeout` seconds of sending, retries included, fails
        the command with TimeoutError (the command may still be carried out, as any whose
        reply was lost: the live store's writes recognise their own)."""
        link = self._link
        if link is not None:
            # Connected, as a rule: no timer of its own (the watchdog fails the command when
            # Redis has not answered it `timeout` seconds after it was written).
            sent = time.monotonic()
            try:
                return await self._write(link, args)
            except RedisConnectionError:  # dropped meanwhile: tried again, within the time left
                left = self._timeout - (time.monotonic() - sent)
                if left <= 0:
                    raise RedisTimeoutError("the live store did not answer in time") from None
                return await self._retried(args, left)
        return await self._retried(args, self._timeout)

    async def _retried(self, args: tuple[Any, ...], timeout: float) -> Any:
        used: list[_Link] = []
        try:
            async with asyncio.timeout(timeout):
                return await self._retry.call_with_retry(lambda: self._once(args, used),
                                                         _ignore)
        except TimeoutError:
            error = RedisTimeoutError("the live store did not answer in time")
            if used and used[-1] is self._link:
                # Unanswered for the whole timeout: the link is dropped now, as the watchdog
                # would a moment later, so no command sent after this one waits on it.
                self._drop(used[-1], error)
            raise error from None

    # redis-py's name, so a caller may take either; the reply is as Redis sent it (no
    # response callback), the same as redis-py's for scripts and integer replies.
    execute_command = execute

    async def close(self) -> None:
        await stop_task(self._opening)
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        link = self._link
        if link is not None:
            reader = link.reader
            self._drop(link, RedisConnectionError("the live store's client is closed"))
            await stop_task(reader)

    async def _once(self, args: tuple[Any, ...], used: list[_Link]) -> Any:
        link = self._link or await self._connect()
        used.append(link)
        return await self._write(link, args)

    async def _write(self, link: _Link, args: tuple[Any, ...]) -> Any:
        packed = hiredis.pack_command(args)  # in C; redis-py's own packing is Python
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        now = time.monotonic()
        link.waiting.append((reply, now))
        if self._watchdog is None:
            self._arm(now + self._timeout)
        # The commands of one turn of the event loop leave in one write, in the order of
        # `waiting` (the order of the replies).
        link.outgoing.append(packed)
        if len(link.outgoing) == 1:
            asyncio.get_running_loop().call_soon(self._flush, link)
        return await reply

    def _flush(self, link: _Link) -> None:
        batch, link.outgoing = link.outgoing, []
        if self._link is not link:
            return  # dropped meanwhile: its commands have failed already
        # redis-py's stream writer, written to directly: its send_packed_command would
        # wait for the buffer to drain, per command. The buffer holds at most the commands
        # in flight, each of whose callers waits for its reply (and the watchdog).
        writer = stream_writer(link.connection)
        try:
            if writer is None:
                raise RedisConnectionError("the live store's connection is closed")
            writer.writelines(batch)
        except Exception as error:
            self._drop(link, error)

    async def _connect(self) -> _Link:
        """The link, connecting first: every caller that finds none waits for the same
        attempt, and shares its failure (a silent Redis costs one timeout, not one each)."""
        if self._opening is None:
            self._opening = asyncio.create_task(self._open(), name="redis-multiplexed-connect")
            self._opening.add_done_callback(self._opened)
        return await asyncio.shield(self._opening)

    def _opened(self, attempt: asyncio.Task[_Link]) -> None:
        if self._opening is attempt:
            self._opening = None
        if not attempt.cancelled():
            attempt.exception()  # its callers have it; not "never retrieved"

    async def _open(self) -> _Link:
        connection = self._connection_class(**self._kwargs)
        try:
            # The handshake reads a reply too: a silent Redis must not hold it forever.
            await asyncio.wait_for(connection.connect(), self._timeout)
        except TimeoutError:
            await _disconnect(connection)
            # Retryable: a caller that joined this attempt late still has time of its own.
            raise RedisConnectionError("the live store did not accept a connection in time"
                                       ) from None
        link = self._link = _Link(connection)
        link.reader = asyncio.create_task(self._read(link), name="redis-multiplexed")
        return link

    async def _read(self, link: _Link) -> None:
        try:
            while True:
                try:
                    response = await link.connection.read_response(timeout=math.inf)
                    error = None
                except ResponseError as refused:  # this command's own error reply
                    response, error = None, refused
                if not link.waiting:
                    raise RedisConnectionError("a reply that no command waits for")
                reply, _written = link.waiting.popleft()
                if reply.done():
                    continue
                if error is None:
                    reply.set_result(response)
                else:
                    reply.set_exception(error)
        except asyncio.CancelledError:
            await _disconnect(link.connection)
            raise
        except Exception as error:
            self._drop(link, error)
            await _disconnect(link.connection)

    def _drop(self, link: _Link, error: BaseException) -> None:
        """`link` cannot be trusted any more: every command in flight on it fails with a
        retryable error, and the next command connects again."""
        if self._link is link:
            self._link = None
        if not isinstance(error, (RedisConnectionError, RedisTimeoutError)):
            error = RedisConnectionError(f"the live store's connection broke: {error!r}")
        while link.waiting:
            reply, _written = link.waiting.popleft()
            if not reply.done():
                reply.set_exception(error)
        reader, link.reader = link.reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()  # it disconnects

    def _arm(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        # (monotonic time is the event loop's clock)
        self._watchdog = loop.call_at(when, self._watch)

    def _watch(self) -> None:
        """When the oldest command still waiting was due: has it waited `timeout`? Then the
        link is dropped (every command on it fails); else the watch moves to its time."""
        self._watchdog = None
        link = self._link
        if link is None or not link.waiting:
            return
        due = link.waiting[0][1] + self._timeout
        if time.monotonic() >= due:
            self._drop(link, RedisTimeoutError("the live store did not answer in time"))
            return
        self._arm(due)


async def _ignore(error: Exception) -> None:
    """The retry's failure callback: the connection has already been dealt with."""


async def _disconnect(connection: AbstractConnection) -> None:
    with contextlib.suppress(Exception):  # already gone
        await connection.disconnect(nowait=True)
