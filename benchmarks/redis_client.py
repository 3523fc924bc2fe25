"""CPU per Redis command: the live store's pool against the move path's shared connection.

Run: .venv/bin/python benchmarks/redis_client.py [--callers 250] [--calls 40] [--pool 64]

`--callers` coroutines each run a small script `--calls` times, all at once (as the moves of
many tables are in flight at once), first through redis-py's pool (`connect`, at most
`--pool` connections) and then over one pipelined connection (`app/live/multiplex.py`),
alternating five times; prints the median CPU microseconds per command and commands/s of
each. Needs the Redis of `DOMINO_TEST_REDIS` (default redis://127.0.0.1:6379/0).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from app.live.multiplex import Multiplexed
from app.live.store import connect

SCRIPT = "return redis.call('INCR', KEYS[1])"


async def run(client: Any, sha: str, callers: int, calls: int) -> tuple[float, float]:
    async def caller(i: int) -> None:
        for _ in range(calls):
            await client.evalsha(sha, 1, f"bench:redis-client:{i}")

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(callers)))
    count = callers * calls
    return (time.process_time() - cpu) / count * 1e6, count / (time.perf_counter() - wall)


async def main(args: argparse.Namespace) -> None:
    url = os.environ.get("DOMINO_TEST_REDIS", "redis://127.0.0.1:6379/0")
    redis = connect(url, pool_size=args.pool)
    sha = await redis.script_load(SCRIPT)
    shared = Multiplexed(redis.connection_pool, timeout=5.0, retry=Retry(NoBackoff(), 0))
    results: dict[str, list[tuple[float, float]]] = {"pool": [], "shared": []}
    try:
        for _ in range(5):
            results["pool"].append(await run(redis, sha, args.callers, args.calls))
            results["shared"].append(await run(shared, sha, args.callers, args.calls))
        for name, runs in results.items():
            print(f"{name:6}: {statistics.median(r[0] for r in runs):6.1f} µs CPU per command,"
                  f" {statistics.median(r[1] for r in runs):8.0f} commands/s")
    finally:
        await redis.delete(*(f"bench:redis-client:{i}" for i in range(args.callers)))
        await shared.close()
        await redis.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=250)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--pool", type=int, default=64)
    uvloop.run(main(parser.parse_args()))
