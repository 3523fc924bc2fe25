"""A sweep every process runs in the background: one step every so often, for as long as
the process lives. A store that is away is counted and tried again at the next step; any
other failure is logged with what was being swept, and tried again too."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

from app import metrics

log = logging.getLogger(__name__)


async def sweep_every(seconds: float, step: Callable[[], Awaitable[object]], what: str) -> None:
    """Run `step` every `seconds` until cancelled; `what` names it in the log."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except (RedisError, OSError) as error:
            metrics.count_error(error)
        except Exception:
            log.exception("%s failed; trying again", what)
