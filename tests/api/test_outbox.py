"""A socket's outbox (app.api.outbox): its writer gets every message once, in order,
sleeps while there is none and wakes for the next."""

from __future__ import annotations

import asyncio

import pytest

from app.api.outbox import Outbox


async def test_the_writer_takes_everything_queued_in_order_and_waits_for_more() -> None:
    box: Outbox[int] = Outbox()
    for n in range(3):
        box.put(n)
    assert len(box) == 3
    assert await box.take() == [0, 1, 2]
    assert len(box) == 0

    waiting = asyncio.ensure_future(box.take())
    await asyncio.sleep(0)
    assert not waiting.done()  # nothing queued: the writer sleeps
    box.put(3)
    box.put(4)
    assert await asyncio.wait_for(waiting, 1) == [3, 4]


async def test_a_writer_cancelled_while_waiting_leaves_the_outbox_usable() -> None:
    box: Outbox[str] = Outbox()
    waiting = asyncio.ensure_future(box.take())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    box.put("after")
    assert await asyncio.wait_for(box.take(), 1) == ["after"]


async def test_an_outbox_has_one_writer() -> None:
    box: Outbox[str] = Outbox()
    first = asyncio.ensure_future(box.take())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError):
        await box.take()
    box.put("x")
    assert await asyncio.wait_for(first, 1) == ["x"]


async def test_many_messages_from_many_producers_arrive_once_each_in_order() -> None:
    box: Outbox[tuple[int, int]] = Outbox()
    got: list[tuple[int, int]] = []

    async def writer() -> None:
        while len(got) < 4 * 500:
            got.extend(await box.take())

    async def producer(p: int) -> None:
        for n in range(500):
            box.put((p, n))
            if n % 7 == 0:
                await asyncio.sleep(0)

    task = asyncio.ensure_future(writer())
    await asyncio.gather(*(producer(p) for p in range(4)))
    await asyncio.wait_for(task, 5)
    assert sorted(got) == [(p, n) for p in range(4) for n in range(500)]
    for p in range(4):
        assert [n for q, n in got if q == p] == list(range(500))
