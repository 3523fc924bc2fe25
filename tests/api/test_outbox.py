"""A socket's outbox (app.api.outbox): a message goes out at once when the socket keeps
up; behind a send that has to wait, every later one waits its turn; nothing is lost,
doubled or reordered, and one socket that waits holds up no other."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from app.api.outbox import Outbox


class Socket:
    """A send like uvicorn's: it waits while the transport is not writable."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[Any] = []
        self.cleaned_up = 0

    async def send(self, message: object) -> None:
        try:
            await self.writable.wait()
            self.sent.append(message)
        finally:
            self.cleaned_up += 1


async def test_a_socket_that_keeps_up_is_sent_each_message_before_put_returns() -> None:
    socket = Socket()
    box: Outbox[int] = Outbox(socket.send)
    for n in range(3):
        box.put(n)
        assert socket.sent == list(range(n + 1))  # no task, no turn of the loop
    assert len(box) == 0


async def test_behind_a_send_that_waits_the_later_messages_wait_their_turn_in_order() -> None:
    slow, fast = Socket(), Socket()
    slow.writable.clear()
    slow_box: Outbox[int] = Outbox(slow.send)
    fast_box: Outbox[int] = Outbox(fast.send)
    for n in range(5):
        slow_box.put(n)
        fast_box.put(n)
    assert fast.sent == [0, 1, 2, 3, 4]  # the slow socket held up nobody else
    assert slow.sent == []
    assert len(slow_box) == 4
    await asyncio.sleep(0.01)
    assert slow.sent == []
    slow.writable.set()
    slow_box.put(5)  # queued behind the waiting send, not sent ahead of it
    for _ in range(100):
        if len(slow.sent) == 6:
            break
        await asyncio.sleep(0.001)
    assert slow.sent == [0, 1, 2, 3, 4, 5]
    assert len(slow_box) == 0
    slow_box.put(6)  # caught up: at once again
    assert slow.sent[-1] == 6


async def test_closing_stops_a_waiting_send_and_drops_what_waits_behind_it() -> None:
    socket = Socket()
    socket.writable.clear()
    box: Outbox[int] = Outbox(socket.send)
    box.put(1)
    box.put(2)
    await box.close()
    assert socket.cleaned_up == 1  # the waiting send was cancelled where it waited
    assert len(box) == 0
    socket.writable.set()
    await asyncio.sleep(0.01)
    assert socket.sent == []
    box.put(3)
    assert socket.sent == [3]


async def test_many_producers_and_a_socket_that_stalls_now_and_then() -> None:
    socket = Socket()
    box: Outbox[tuple[int, int]] = Outbox(socket.send)
    rng = random.Random(5)

    async def stalls() -> None:
        for _ in range(50):
            socket.writable.clear()
            await asyncio.sleep(rng.uniform(0, 0.002))
            socket.writable.set()
            await asyncio.sleep(rng.uniform(0, 0.002))

    async def producer(p: int) -> None:
        for n in range(300):
            box.put((p, n))
            if rng.random() < 0.2:
                await asyncio.sleep(0)

    await asyncio.gather(stalls(), *(producer(p) for p in range(4)))
    for _ in range(500):
        if len(socket.sent) == 4 * 300:
            break
        await asyncio.sleep(0.002)
    assert sorted(socket.sent) == [(p, n) for p in range(4) for n in range(300)]
    for p in range(4):
        assert [n for q, n in socket.sent if q == p] == list(range(300))
