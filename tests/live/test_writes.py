"""The write script's named arguments carry every guarantee the positional ones did, on a
real Redis and on the embedded store: a charge taken with the write or not at all, a
write retried after its reply was lost recognises itself, and a restore only where the
table is gone."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncIterator

import orjson
import pytest

from app.live.ratelimit import Budget, RateLimiter, Refused
from app.live.store import LiveStore, Write, connect, dumps


@pytest.fixture(params=["redis", "embedded"])
async def store(request: pytest.FixtureRequest, redis_url: str, redis_prefix: str
                ) -> AsyncIterator[LiveStore]:
    url = redis_url if request.param == "redis" else ""
    live = LiveStore(connect(url), f"{redis_prefix}_writes_{secrets.token_hex(3)}")
    yield live
    await live.close()


async def test_a_writes_charge_is_taken_with_it_and_a_refused_one_writes_nothing(
        store: LiveStore) -> None:
    limiter = RateLimiter(store.redis, store.keys.prefix, runner=store.runner)
    buckets = {"move:p1": Budget(rate=0.001, burst=2), "move:addr": Budget(rate=0.001, burst=10)}
    tid = secrets.token_hex(4)
    for version in range(2):
        charge = limiter.charge(buckets)
        assert await store.write(Write(tid, version, dumps({"n": version}), 1),
                                 charge) == version + 1
        assert charge.verdict is not None and charge.verdict.allowed
    charge = limiter.charge(buckets)
    with pytest.raises(Refused) as refused:
        await store.write(Write(tid, 2, dumps({"n": 2}), 1, deadline_ms=5000), charge)
    assert refused.value.retry_ms > 0
    assert charge.verdict is not None and not charge.verdict.allowed
    current = await store.load(tid)
    assert current is not None and (current.version, current.state) == (2, {"n": 1})
    assert await store.deadline_of(tid) is None
    # Neither bucket gave a token to the refused write: the address's has 8 left.
    tokens = await store.redis.hget(limiter.key("move", "addr"), "tokens")
    assert 8 <= float(tokens) < 8.1
    # A charge made by no write is settled alone, by the same take.
    assert not (await limiter.settle(limiter.charge(buckets))).allowed


async def test_a_write_retried_after_its_reply_was_lost_recognises_itself(
        store: LiveStore) -> None:
    tid = secrets.token_hex(4)
    write = Write(tid, 0, dumps({"n": 0}), 1, lobby_entry={"id": tid})
    assert await store.write(write) == 1
    # The same write again, with the same id (as a retry sends it): done, not a conflict.
    store._writes = itertools.count(0)
    done = await store.written(write)
    assert done is not None and done.version == 1
    # Another write of that version is a conflict.
    assert await store.write(write) is None
    assert await LiveStore(store.redis, store.keys.prefix).write(write) is None


async def test_a_restore_puts_back_only_a_table_that_is_gone(store: LiveStore) -> None:
    tid = secrets.token_hex(4)
    rounds = [{"round": 1, "moves": ["6:6"]}]
    state = dumps({"id": tid, "name": "\u0431"})
    assert await store.restore(tid, 7, state, rounds, created_ms=1, deadline_ms=5000,
                               lobby_entry={"id": tid})
    current = await store.load(tid)
    assert current is not None and current.version == 7
    assert current.state == orjson.loads(state)
    assert await store.archived_rounds(tid) == rounds
    assert await store.deadline_of(tid) == 5000
    assert [t.version for t in await store.listed()] == [7]
    assert not await store.restore(tid, 9, dumps({}), [], created_ms=1, deadline_ms=None,
                                   lobby_entry=None)
    assert await store.write(Write(tid, 7, dumps({"n": 8}), 1)) == 8
