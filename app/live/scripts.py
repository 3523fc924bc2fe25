"""The live store's Lua scripts: their text, from app/live/lua/, and calling them.

Each script is a file of its own, read once; a line `--#include NAME.lua` stands for that
file's text (the rate limits' `take`, shared by two scripts). A script is registered with
its client (redis-py's `register_script`: it is sent by its sha, and loaded first where the
server lacks it).
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from app.live.lanes import Runner

INCLUDE = "--#include "


@functools.cache
def source(name: str) -> str:
    """The text of app/live/lua/`name`.lua, its includes in place."""
    text = (resources.files("app.live") / "lua" / f"{name}.lua").read_text(encoding="utf-8")
    return "".join(
        source(line[len(INCLUDE):].strip().removesuffix(".lua"))
        if line.startswith(INCLUDE) else line
        for line in text.splitlines(keepends=True)
    )


def names() -> list[str]:
    """Every script's name (the included ones too)."""
    folder = resources.files("app.live") / "lua"
    return sorted(entry.name.removesuffix(".lua") for entry in folder.iterdir()
                  if entry.name.endswith(".lua"))


def register(client: aioredis.Redis, name: str) -> AsyncScript:
    """The script app/live/lua/`name`.lua, for `client`."""
    return client.register_script(source(name))


async def run_script(script: AsyncScript, client: Runner,
                     keys: list[str], args: list[Any]) -> Any:
    """`script(keys, args)` by its sha over `client` (the script's own client, or a
    connection shared with it), loading it first where the server lacks it: what
    AsyncScript.__call__ does, without its per-call pipeline check (the move path's cost)."""
    try:
        return await client.evalsha(script.sha, len(keys), *keys, *args)  # type: ignore[misc]
    except NoScriptError:
        return await script(keys=keys, args=args)
