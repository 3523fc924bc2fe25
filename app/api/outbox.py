"""A socket's outbox: each message is sent at once, in the caller's task, unless the socket
is still busy with an earlier one; then it waits its turn.

A send to a socket whose reader keeps up finishes without waiting: the transport takes the
bytes. So a move's views go out in the step that made them, with no writer task to wake
per socket (four wake-ups a move, a few per cent of the server's CPU at saturation). A send
to a socket that does not keep up waits (its transport's buffer is full): that send goes on
in a task of its own, and every later message waits in the queue until it is done, so one
slow reader holds up nobody else, and no message overtakes another.
"""

from __future__ import annotations

import asyncio
import contextlib
import types
from collections import deque
from collections.abc import Callable, Coroutine, Generator
from typing import Any, Generic, TypeVar

T = TypeVar("T")
Send = Callable[[T], Coroutine[Any, Any, None]]

_DONE: Any = object()


def _start(coro: Coroutine[Any, Any, None]) -> Any:
    """Run `coro` in the caller's task until it is done (`_DONE`) or waits: then what it
    waits on (as a task's step would get it)."""
    try:
        return coro.send(None)
    except StopIteration:
        return _DONE


@types.coroutine
def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """The rest of a coroutine that `_start` ran until it waited on `waiting`, to be awaited
    by a task: that task waits on what the coroutine waits on and resumes it (or throws a
    cancellation into it) as if it had run the coroutine from the start."""
    while True:
        try:
            yield waiting
        except BaseException as error:  # e.g. the task was cancelled while it waited
            try:
                waiting = coro.throw(error)
            except StopIteration:
                return
            continue
        try:
            waiting = coro.send(None)
        except StopIteration:
            return


class Outbox(Generic[T]):
    """`send` is the socket's own send of one message; it must not raise (a socket that
    failed is the sender's to mark)."""

    __slots__ = ("_inline", "_items", "_send", "_started", "_task")

    def __init__(self, send: Send[T]) -> None:
        self._send = send
        self._items: deque[T] = deque()
        # The send that waits, and what comes after it.
        self._task: asyncio.Task[None] | None = None
        self._started: Coroutine[Any, Any, None] | None = None
        self._inline = False

    def __len__(self) -> int:
        """Messages waiting for an earlier one's send to finish."""
        return len(self._items)

    def put(self, item: T) -> None:
        if self._task is not None or self._inline:
            self._items.append(item)
            return
        coro = self._send(item)
        # Anything put while this send runs (nothing, as a rule) waits behind it.
        self._inline = True
        try:
            waiting = _start(coro)
        finally:
            self._inline = False
        if waiting is not _DONE or self._items:
            self._started = coro
            self._task = asyncio.get_running_loop().create_task(self._drain(coro, waiting))

    async def _drain(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        try:
            if waiting is not _DONE:
                await _finish(coro, waiting)
            while self._items:
                await self._send(self._items.popleft())
        finally:
            self._task = self._started = None

    async def close(self) -> None:
        """Stop a send still waiting; what is queued behind it is dropped."""
        task, started = self._task, self._started
        self._items.clear()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if started is not None:
            started.close()  # cancelled before its task began: it stops where it waits
        self._task = self._started = None
