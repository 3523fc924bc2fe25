"""The live store's guarantees, on a real Redis and on the embedded fakeredis alike."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
import pytest

from app.live.hub import Hub, Message
from app.live.store import Announced, Announcement, LiveStore, Outage, Write, connect, dumps
from app.wire.notes import TABLE_NOTES


@pytest.fixture(params=["redis", "embedded"])
async def store(request: pytest.FixtureRequest, redis_url: str, redis_prefix: str
                ) -> AsyncIterator[LiveStore]:
    url = redis_url if request.param == "redis" else ""
    live = LiveStore(connect(url), f"{redis_prefix}_store_{secrets.token_hex(3)}")
    yield live
    await live.close()


@pytest.fixture
async def another(store: LiveStore) -> AsyncIterator[Callable[[], LiveStore]]:
    """Stores of other processes on the same Redis (and the same embedded one): they share
    `store`'s client, and their own connections are closed after the test."""
    made: list[LiveStore] = []

    def make() -> LiveStore:
        made.append(LiveStore(store.redis, store.keys.prefix))
        return made[-1]

    yield make
    for other in made:
        await other.release()


def state(n: int) -> dict[str, Any]:
    return {"n": n}


def data(n: int) -> bytes:
    return dumps(state(n))


async def test_only_one_of_many_concurrent_writes_of_a_version_wins(store: LiveStore) -> None:
    tid = secrets.token_hex(4)
    assert await store.write(Write(tid, 0, data(0), 1)) == 1
    assert await store.write(Write(tid, 0, data(0), 1)) is None
    results = await asyncio.gather(
        *(store.write(Write(tid, 1, data(i), 1)) for i in range(20))
    )
    winners = [i for i, v in enumerate(results) if v == 2]
    assert len(winners) == 1 and results.count(None) == 19
    current = await store.load(tid)
    assert current is not None and current.version == 2 and current.state == state(winners[0])


async def test_a_claimed_deadline_dropped_after_a_write_set_a_new_one_keeps_the_new_one(
    store: LiveStore,
) -> None:
    """The clock claims a table's deadline, finds nothing to do and drops it (the game is
    over); a write that set the table a new deadline meanwhile (a courtyard's next game,
    waiting for a player) keeps its deadline, or nothing would ever look at the table."""
    tid, done = secrets.token_hex(4), secrets.token_hex(4)
    await store.write(Write(tid, 0, data(0), 1, deadline_ms=1000))
    await store.write(Write(done, 0, data(0), 1, deadline_ms=1000))
    assert sorted(await store.claim_deadlines(5000, 1000)) == sorted([tid, done])
    await store.write(Write(tid, 1, data(1), 1, deadline_ms=10**13))  # meanwhile
    assert not await store.drop_deadline(tid)
    assert await store.deadline_of(tid) == 10**13
    assert await store.drop_deadline(done)  # nobody wrote: the claimed entry goes
    assert await store.deadline_of(done) is None
    # Not claimed here: only a due entry is dropped (the scores are epoch ms).
    assert not await store.drop_deadline(tid)
    await store.write(Write(tid, 2, data(2), 1, deadline_ms=2000))
    assert await store.drop_deadline(tid)


async def test_each_expired_deadline_is_claimed_once_and_returns_after_its_lease(
    store: LiveStore,
) -> None:
    ids = [secrets.token_hex(4) for _ in range(10)]
    for i, tid in enumerate(ids):
        await store.write(Write(tid, 0, data(i), 1, deadline_ms=1000 + i))
    await store.write(Write("later", 0, data(0), 1, deadline_ms=10**13))
    claims = await asyncio.gather(*(store.claim_deadlines(5000, 1000) for _ in range(8)))
    claimed = [tid for claim in claims for tid in claim]
    assert sorted(claimed) == sorted(ids)
    assert await store.claim_deadlines(5500, 1000) == []
    # Nobody acted on them (a crashed claimer): after the lease they come back.
    assert sorted(await store.claim_deadlines(6000, 1000)) == sorted(ids)
    # A write without a deadline (the game moved on to its end) removes the deadline.
    await store.write(Write(ids[0], 1, data(0), 1))
    assert ids[0] not in await store.claim_deadlines(10**12, 1000)


async def test_each_outage_is_resumed_once_and_kept_as_seen_by_the_earliest_process(
    store: LiveStore, another: Callable[[], LiveStore],
) -> None:
    assert await store.last_outage() is None
    # Two processes saw the store go away, at 1000 and at 900; the first back resumes.
    assert await store.claim_resumption(1000, 5000)
    assert await store.last_outage() == Outage(1000, 5000)
    assert not await another().claim_resumption(900, 5100)
    window = await store.last_outage()
    assert window == Outage(900, 5000)
    assert window.covers(900) and window.covers(5000) and not window.covers(5001)
    # The next outage replaces it.
    assert await another().claim_resumption(8000, 9000)
    assert await store.last_outage() == Outage(8000, 9000)


async def test_writes_are_announced_and_finished_tables_retire_from_the_lobby(
    store: LiveStore, another: Callable[[], LiveStore],
) -> None:
    hub = Hub(store)
    # Another process's writes: this one shows its own as it makes them.
    other = another()
    lobby: list[dict[str, Any]] = []
    table: list[Message] = []

    def on_lobby(message: dict[str, Any]) -> None:
        lobby.append(message)

    def on_table(message: Message) -> None:
        table.append(message)

    await hub.start(on_lobby)
    tid = secrets.token_hex(4)
    try:
        entry = {"id": tid, "status": "waiting"}
        await other.write(Write(tid, 0, data(0), 1, lobby_entry=entry))
        assert [t.state for t in await store.listed() if t.state == state(0)]
        # Subscribed, then listed as a listener, as a process serving the table does.
        await hub.add_table(store.keys.table_channel(tid), on_table, lambda: 1)
        await store.listen(tid)
        # A change the lobby does not show is announced to the table only; what the writer
        # adds to the announcement (non-ASCII too) arrives byte for byte after the state.
        ready = Announcement(b',"extra":"\xd0\xb1"', "готово ✓".encode())
        await other.write(Write(tid, 1, data(1), 1, announcement=ready))
        await other.write(Write(tid, 2, data(2), 1, finished=True,
                          retire_at_ms=2000, lobby_entry={**entry, "status": "finished"}))
        assert tid in await store.unwritten()
        assert await store.retire_due(1999) == []
        assert await store.retire_due(2000) == [tid]
        for _ in range(50):
            if len(table) == 2 and len(lobby) == 3:
                break
            await asyncio.sleep(0.05)
        # Each announcement carries the state it announces: nobody reads it back.
        changes = [m for m in table if isinstance(m, Announced)]
        assert len(changes) == len(table) == 2
        assert [(m.version, orjson.loads(m.state())) for m in changes] == [
            (v, state(v - 1)) for v in (2, 3)]
        assert changes[0].header["extra"] == "\u0431"
        assert changes[0].parts() == "готово ✓".encode()
        assert changes[1].parts() == b"" and "extra" not in changes[1].header
        assert lobby == [{"kind": "update", "table_id": tid, "v": 1, "table": entry},
                         {"kind": "update", "table_id": tid, "v": 3,
                          "table": {**entry, "status": "finished"}},
                         {"kind": "remove", "table_id": tid}]
        assert await store.listed() == []
        assert (await store.load(tid)) is not None  # still readable
        await store.mark_written(tid, 60)
        assert tid not in await store.unwritten()
        assert 0 < await store.redis.ttl(store.keys.table(tid)) <= 60
    finally:
        await hub.stop()


async def test_a_process_ignores_the_echo_of_its_own_writes(
    store: LiveStore, another: Callable[[], LiveStore],
) -> None:
    hub = Hub(store)
    heard: list[Message] = []
    await hub.start(lambda message: None)
    tid = secrets.token_hex(4)
    try:
        await store.write(Write(tid, 0, data(0), 1))
        await hub.add_table(store.keys.table_channel(tid), heard.append, lambda: 0)
        await store.listen(tid)
        await store.write(Write(tid, 1, data(1), 1))
        await another().write(Write(tid, 2, data(2), 1))
        for _ in range(50):
            if heard:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
        assert [m.version for m in heard if isinstance(m, Announced)] == [3]
        assert len(heard) == 1
    finally:
        await hub.stop()


async def test_a_change_is_published_only_while_another_process_listens(
    store: LiveStore, another: Callable[[], LiveStore],
) -> None:
    """A process alone at a table is not sent its own changes back; once another process
    listens it gets every change; a store that lost who listens publishes every change."""
    other = another()
    # Another process's hub: hears what is published (not the writer's echo to itself),
    # without being listed unless `other` says so.
    spy = Hub(other)
    heard: list[int] = []
    await spy.start(lambda message: None)
    tid = secrets.token_hex(4)

    async def change(to: int) -> None:
        assert await store.write(Write(tid, to - 1, data(to), 1)) == to

    try:
        await change(1)
        await spy.add_table(store.keys.table_channel(tid),
                            lambda m: heard.append(m.version if isinstance(m, Announced) else 0),
                            lambda: 0)
        await store.listen(tid)
        await change(2)  # the writer alone listens: not published
        await other.listen(tid)
        await change(3)
        await other.unlisten(tid)
        await change(4)
        await store.redis.delete(store.keys.listeners(tid))  # as a flushed store would
        await store.listen(tid)  # a set not known to be whole is not started again
        await change(5)
        await other.listen(tid)
        await change(6)
        for _ in range(50):
            if heard[-1:] == [6]:
                break
            await asyncio.sleep(0.05)
        assert heard == [3, 5, 6]
    finally:
        await spy.stop()


async def test_presence_is_shared_and_expires_with_its_process(store: LiveStore) -> None:
    tid = secrets.token_hex(4)
    await store.set_presence(tid, "p1", {0, 2}, set(), 0, 10_000, 60)
    await store.set_presence(tid, "p2", {2, 3}, set(), 0, 20_000, 60)
    assert await store.presence(tid, 5_000) == {0, 2, 3}
    await store.set_presence(tid, "p2", set(), {2}, 0, 20_000, 60)
    assert await store.presence(tid, 5_000) == {0, 2, 3}
    assert await store.presence(tid, 15_000) == {3}  # p1 stopped refreshing


async def test_a_vanished_table_cannot_be_written_back(store: LiveStore) -> None:
    tid = secrets.token_hex(4)
    await store.write(Write(tid, 0, data(0), 1))
    assert await store.delete(tid, 0) is False
    assert await store.delete(tid, 1) is True
    assert await store.load(tid) is None
    assert await store.write(Write(tid, 1, data(1), 1)) is None


async def test_spectators_are_counted_over_every_process_and_the_total_announced(
    store: LiveStore,
) -> None:
    hub = Hub(store)
    heard: list[object] = []
    await hub.start(lambda message: None)
    tid = secrets.token_hex(4)
    try:
        await hub.add(store.keys.table_channel(tid), heard.append, TABLE_NOTES)
        now = 10_000
        assert await store.count_spectators(tid, "a", 3, now, now + 30_000, 60) == 3
        assert await store.count_spectators(tid, "b", 2, now, now + 30_000, 60) == 5
        # A process whose entry ran out (it crashed) is not counted...
        assert await store.count_spectators(tid, "c", 4, now, now + 10, 60) == 9
        assert await store.count_spectators(tid, "a", 1, now + 20, now + 30_000, 60) == 3
        # ...and one whose last spectator left has no entry at all.
        assert await store.count_spectators(tid, "b", 0, now + 20, now + 30_000, 60) == 1
        for _ in range(50):
            if len(heard) == 5:
                break
            await asyncio.sleep(0.05)
        assert heard == [{"kind": "spectators", "table_id": tid, "count": n}
                         for n in (3, 5, 9, 3, 1)]
    finally:
        await hub.stop()
