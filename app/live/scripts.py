"""Calling the live store's Lua scripts."""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from app.live.multiplex import Multiplexed


async def run_script(script: AsyncScript, client: aioredis.Redis | Multiplexed,
                     keys: list[str], args: list[Any]) -> Any:
    """`script(keys, args)` by its sha over `client` (the script's own client, or a
    connection shared with it), loading it first where the server lacks it: what
    AsyncScript.__call__ does, without its per-call pipeline check (the move path's cost)."""
    try:
        return await client.evalsha(script.sha, len(keys), *keys, *args)  # type: ignore[misc]
    except NoScriptError:
        return await script(keys=keys, args=args)
