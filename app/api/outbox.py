"""A socket's outbox: the messages waiting for its writer, in order.

asyncio.Queue does more than one writer needs (bounded puts, a getters' queue, task
accounting), and at saturation its put and get were a few per cent of the server's CPU:
every move puts a message in four outboxes. This holds a deque and at most one waiting
writer; the writer takes everything queued at once.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Outbox(Generic[T]):
    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    def put(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def take(self) -> list[T]:
        """Everything queued, oldest first; waits while there is nothing (one taker)."""
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("an outbox has one writer")
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        items = list(self._items)
        self._items.clear()
        return items
