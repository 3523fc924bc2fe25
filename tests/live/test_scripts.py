"""The live store's Lua scripts, read from app/live/lua/: each one loads on a real Redis
and on the embedded store, and the write script publishes the announcement app.wire.bytes
lays out, byte for byte, on both."""

from __future__ import annotations

import asyncio
import secrets
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from app.live.announce import Announcement
from app.live.scripts import names, register, source
from app.live.store import LiveStore, Write, connect, dumps
from app.wire.bytes import change_header, change_message

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["redis", "embedded"])
async def client(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[aioredis.Redis]:
    made = connect(redis_url if request.param == "redis" else "")
    yield made
    await made.aclose()


def test_every_script_is_package_data_and_its_includes_are_in_place() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "live/lua/*.lua" in pyproject["tool"]["setuptools"]["package-data"]["app"]
    files = sorted(p.stem for p in (REPO / "app" / "live" / "lua").iterdir())
    assert files == names() and "write" in files
    for name in names():
        assert "--#include" not in source(name)
    assert "local function take" in source("write") and "local function take" in source(
        "rate_take")


async def test_every_script_loads_under_its_sha(client: aioredis.Redis) -> None:
    for name in names():
        script = register(client, name)
        assert await client.script_load(source(name)) == script.sha
    # The embedded store runs the scripts with cjson too.
    assert await client.eval("return cjson.decode(ARGV[1]).a", 0, '{"a":"\u0431"}') == "\u0431"


async def test_the_write_scripts_announcement_is_the_one_laid_out_in_python(
    client: aioredis.Redis, redis_prefix: str,
) -> None:
    store = LiveStore(client, f"{redis_prefix}_scripts_{secrets.token_hex(3)}")
    tid = secrets.token_hex(4)
    # Another process listens to the table, so the change is published.
    other = LiveStore(client, store.keys.prefix)
    pubsub = client.pubsub()
    channel = store.keys.table_channel(tid)
    try:
        await pubsub.ssubscribe(channel)
        state = dumps({"id": tid, "name": "готово \"log\":[1]}"})
        ready = Announcement(b',"sizes":[3]', "✓".encode())
        await store.write(Write(tid, 0, dumps({}), 1))
        await other.listen(tid)
        await store.write(Write(tid, 1, state, 1, announcement=ready, answers="r1"))
        message = None
        for _ in range(100):
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.05)
            if message is not None:
                break
            await asyncio.sleep(0.01)
        assert message is not None
        sent = message["data"]
        sent = sent if isinstance(sent, bytes) else sent.encode()
        writer = f"{store.writer_prefix}1"
        assert sent == change_message(
            change_header(tid, 2, writer, b',"sizes":[3],"answers":"r1"', len(state)),
            state, "✓".encode())
    finally:
        await pubsub.aclose()
        await store.release()
        await other.release()
