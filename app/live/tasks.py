"""Stopping a background task for sure, even when one cancellation gets lost.

On Python 3.11 `asyncio.wait_for` swallows a cancellation that arrives just as the
awaited thing completes (CPython gh-86296, fixed in 3.12). The in-process store
(fakeredis) waits for every reply through `wait_for`, and its replies are ready at once,
so a loop cancelled during a store call often never sees the `CancelledError` and runs
on. `stop_task` therefore cancels again until the task is really done, within a bound.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

RECANCEL_SECONDS = 0.05


async def stop_task(task: asyncio.Task[Any] | None, timeout: float = 5.0) -> None:
    """Cancel `task` (again and again if a cancellation is lost) and wait for its end."""
    if task is None:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not task.done():
        remaining = deadline - loop.time()
        if remaining <= 0:
            log.error("task %s did not stop within %.1f s; leaving it", task.get_name(), timeout)
            return
        task.cancel()
        await asyncio.wait({task}, timeout=min(RECANCEL_SECONDS, remaining))
    if not task.cancelled() and task.exception() is not None:
        log.error("task %s ended with an error", task.get_name(), exc_info=task.exception())
