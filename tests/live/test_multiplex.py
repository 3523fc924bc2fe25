"""The move path's shared Redis connection: many callers at once, each gets its own reply;
an error reply is its caller's alone; a killed connection or a silent Redis fails only what
was in flight, retryably, and the next command connects again."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.live.multiplex import Multiplexed
from app.live.scripts import run_script
from app.live.store import LiveStore, connect
from tests.faults.stores import PrivateRedis

# Returns its key's new count and the caller's tag, so a reply shows whose it is.
_TAGGED = "return {redis.call('INCR', KEYS[1]), ARGV[1]}"


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    redis = connect(redis_url)
    yield redis
    await redis.aclose()


def lane(redis: aioredis.Redis, *, timeout: float = 5.0, retries: int = 3) -> Multiplexed:
    return Multiplexed(redis.connection_pool, timeout=timeout,
                       retry=Retry(NoBackoff(), retries))


async def _lane_connections(redis: aioredis.Redis, name: str) -> list[int]:
    return [int(c["id"]) for c in await redis.client_list() if c.get("name") == name]


def named(redis_url: str) -> tuple[aioredis.Redis, str]:
    """A client whose connections, the lane's too, carry a name of their own."""
    name = f"mux-test-{secrets.token_hex(4)}"
    return aioredis.Redis.from_url(redis_url, client_name=name, decode_responses=True), name


async def test_concurrent_callers_each_get_their_own_reply_over_one_connection(
    client: aioredis.Redis, redis_url: str, redis_prefix: str
) -> None:
    script = client.register_script(_TAGGED)
    await client.script_load(_TAGGED)
    owner, name = named(redis_url)
    shared = lane(owner)
    key = f"{redis_prefix}_mux_{secrets.token_hex(3)}"
    try:
        replies = await asyncio.gather(*(
            run_script(script, shared, [key], [f"caller-{i}"]) for i in range(500)))
        assert [tag for _n, tag in replies] == [f"caller-{i}" for i in range(500)]
        assert sorted(int(n) for n, _tag in replies) == list(range(1, 501))
        assert len(await _lane_connections(client, name)) == 1, "one connection carried all"
    finally:
        await shared.close()
        await owner.aclose()
        await client.delete(key)


async def test_an_error_reply_is_its_callers_alone(client: aioredis.Redis,
                                                   redis_prefix: str) -> None:
    shared = lane(client)
    key = f"{redis_prefix}_mux_{secrets.token_hex(3)}"
    sha = await client.script_load(_TAGGED)
    try:
        results = await asyncio.gather(
            shared.evalsha(sha, 1, key, "a"),
            shared.evalsha("0" * 40, 1, key, "b"),  # no such script
            shared.execute("EVAL", "return redis.call('NOSUCHCOMMAND')", 0),
            shared.evalsha(sha, 1, key, "c"),
            return_exceptions=True,
        )
        assert results[0] == [1, "a"] and results[3] == [2, "c"]
        assert isinstance(results[1], NoScriptError)
        assert isinstance(results[2], ResponseError)
        # run_script loads a script the server lacks and runs it, over the same lane.
        script = client.register_script("return ARGV[1] .. '!'")
        await client.script_flush()
        assert await run_script(script, shared, [], ["again"]) == "again!"
    finally:
        await shared.close()
        await client.delete(key)


async def test_a_killed_connection_fails_nothing_that_can_be_retried(
    client: aioredis.Redis, redis_url: str, redis_prefix: str
) -> None:
    owner, name = named(redis_url)
    shared = lane(owner)
    key = f"{redis_prefix}_mux_{secrets.token_hex(3)}"
    sha = await client.script_load(_TAGGED)
    try:
        assert await shared.evalsha(sha, 1, key, "first") == [1, "first"]
        ours = await _lane_connections(client, name)
        assert len(ours) == 1, "the lane's connection is not listed"
        await client.client_kill_filter(_id=ours[0])
        # Every command after the kill gets through on a new connection.
        replies = await asyncio.gather(*(shared.evalsha(sha, 1, key, str(i)) for i in range(50)))
        assert sorted(int(n) for n, _tag in replies) == list(range(2, 52))
        assert await _lane_connections(client, name) not in ([], ours)
    finally:
        await shared.close()
        await owner.aclose()
        await client.delete(key)


async def test_a_redis_that_stops_answering_fails_what_waits_and_recovers(
    tmp_path: Path,
) -> None:
    private = PrivateRedis(tmp_path)
    private.start()
    assert private.process is not None
    redis = connect(private.url)
    shared = lane(redis, timeout=1.0, retries=1)
    try:
        assert await shared.execute("PING") == "PONG"
        os.kill(private.process.pid, signal.SIGSTOP)
        try:
            waiting = [asyncio.ensure_future(shared.execute("INCR", "k")) for _ in range(20)]
            # Each waits a second, then its retry waits a second to connect.
            done, pending = await asyncio.wait(waiting, timeout=8)
            assert not pending, "commands to a silent Redis waited without end"
            assert all(isinstance(t.exception(), RedisTimeoutError) for t in done)
        finally:
            os.kill(private.process.pid, signal.SIGCONT)
        # Redis is back: the next command connects again and gets through.
        assert int(await shared.execute("INCR", "after")) == 1
    finally:
        await shared.close()
        await redis.aclose()
        private.kill()


async def test_a_silent_redis_fails_the_stores_commands_within_its_timeout(
    tmp_path: Path,
) -> None:
    """Redis stopped (SIGSTOP), its connections open: a command over the shared lane and one
    over the pool each fail with TimeoutError once the store's timeout is spent, retries
    and reconnects included, instead of waiting the freeze out."""
    private = PrivateRedis(tmp_path)
    private.start()
    store = LiveStore(connect(private.url, timeout=1.0), f"bound_{secrets.token_hex(3)}")
    try:
        assert await store.command("PING") == "PONG"
        assert await store.redis.ping()
        private.freeze()
        try:
            for command in (lambda: store.command("INCR", "k"), lambda: store.redis.get("k"),
                            lambda: store.command("GET", "k")):
                started = time.monotonic()
                with pytest.raises(RedisTimeoutError):
                    await command()
                assert time.monotonic() - started < 1.8
        finally:
            private.thaw()
        assert await store.command("PING") == "PONG"
        assert await store.redis.ping()
    finally:
        await store.close()
        private.kill()


async def test_closing_leaves_no_task_behind(client: aioredis.Redis) -> None:
    def readers() -> set[asyncio.Task[object]]:
        return {t for t in asyncio.all_tasks() if t.get_name() == "redis-multiplexed"}

    others = readers()  # other tests' connections, left to their own closing
    shared = lane(client)
    assert await shared.execute("PING") == "PONG"
    assert readers() - others
    await shared.close()
    assert not readers() - others
