"""Redis time of a seek's add and of one seek sweep, at 1,000 and 20,000 open seeks.

Run: .venv/bin/python benchmarks/seeks.py [--open 1000 20000] [--adds 200] [--pairs 3]
         [--compare DIR]

Starts a private `redis-server` (so that INFO commandstats counts this run's commands
only), fills one pool with `--open` seeks that no newcomer can meet (ratings 1000-2000,
ranges 4000-5000: the audit's unmatchable pool), then times `--adds` adds of a newcomer
rated 1500 who takes anyone (each taken out again after it is timed): the Redis
microseconds of the add's script, from the `cmdstat_evalsha` usec before and after it. A
sweep: every owner has a socket, and the Redis microseconds and round trips of one sweep
of the pool are counted (the new sweep looks at each owner every 5 s: the median over ten
sweeps a second apart).

`--compare DIR`: also run the code of another checkout (e.g. `git worktree add --detach
/tmp/before main`), in turns with this one (A B A B ...), each run a child process with a
fresh Redis; prints the medians of each and their ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _seek(player: int, rating: float, span: list[float], now: int) -> dict[str, Any]:
    return {"id": f"s{player:08d}", "player": {"id": player, "name": f"p{player}"},
            "pool": "bench", "variant": "goat", "seats": 2, "rating": rating, "range": span,
            "avoid": [], "created_at": now, "expires_at": now + 3_600_000}


async def child(source: str, redis_url: str, n: int, adds: int) -> dict[str, Any]:
    """One measurement with the `app` importable from `source` (a fresh Redis)."""
    sys.path.insert(0, source)
    import redis.asyncio as aioredis

    from app.live.caps import Caps
    from app.live.seek_pool import SeekBook
    from app.live.store import connect

    client: aioredis.Redis = connect(redis_url)
    prefix = "bench"
    book = SeekBook(client, prefix)
    old: Any = book  # the other checkout's, when it has no index
    indexed = hasattr(book, "sweep")
    rng = random.Random(1)
    now = int(time.time() * 1000)
    owners = list(range(1, n + 1))
    pipe = client.pipeline(transaction=False)
    for player in owners:
        pipe.zadd(f"{prefix}:cap:sockets:{player}", {"socket": now + 10**9})
    await pipe.execute()
    for player in owners:
        seek = _seek(player, rng.uniform(1000, 2000), [4000.0, 5000.0], now)
        if indexed:
            # owners first looked at over the next 5 s, as seeks opened at any time are
            added = await book.add(seek, now, "t", now + rng.randrange(5000))
            assert added.kind == "open"
        else:  # what its add leaves, written at once (its add scans: n² to fill)
            await client.hset(f"{prefix}:seeks", seek["id"], json.dumps(seek))
            await client.hset(f"{prefix}:seek-owners", str(player), seek["id"])
            await client.sadd(f"{prefix}:seek-pool:bench", seek["id"])
            await client.zadd(f"{prefix}:seek-expiry", {seek["id"]: seek["expires_at"]})

    async def usec(command: str | None = None) -> tuple[int, int]:
        """Microseconds and calls so far of `command`, or of every command (the commands
        a script runs are counted in its own time and again as commands: only one of the
        two ways is ever measured at once here)."""
        stats = await client.info("commandstats")
        if command is not None:
            found = stats.get(f"cmdstat_{command}", {"usec": 0, "calls": 0})
            return int(found["usec"]), int(found["calls"])
        return (sum(int(v["usec"]) for k, v in stats.items() if k != "cmdstat_info"),
                sum(int(v["calls"]) for k, v in stats.items() if k != "cmdstat_info"))

    times, looked = [], []
    for i in range(adds):
        newcomer = _seek(n + 1 + i, 1500.0, [-1e9, 1e9], now)
        before, _ = await usec("evalsha")
        if indexed:
            added = await book.add(newcomer, now, "t", now + 5000)
            kind = added.kind
            looked.append(added.looked)
        else:
            kind, _matched = await old.add(newcomer, now, "t")
        after, _ = await usec("evalsha")
        assert kind == "open", kind
        times.append(after - before)
        await book.remove(newcomer["id"])

    caps = Caps(client, prefix)
    sweeps, trips = [], []
    for k in range(10):
        at = now + 1000 * (k + 1)
        before, _ = await usec("evalsha" if indexed else None)
        if indexed:
            ended = await book.sweep(at, caps.key("sockets", "") if hasattr(caps, "key")
                                     else f"{prefix}:cap:sockets:", 30_000, 5_000, 1_000)
            assert ended == []
            trips.append(1)
        else:  # its sweep's calls (app/services/gathering/seeks.py before the index)
            await old.expired(at)
            seeks = await old.all()
            await old.absent()
            for seek in seeks:
                assert await caps.held("sockets", seek["player"]["id"], at)
            trips.append(3 + len(seeks))
        after, _ = await usec("evalsha" if indexed else None)
        sweeps.append(after - before)
    await client.aclose()
    return {"add_us": statistics.median(times), "looked": statistics.median(looked or [n]),
            "sweep_us": statistics.median(sweeps), "sweep_trips": statistics.median(trips)}


def run_child(source: str, n: int, adds: int) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            out = subprocess.run(
                [sys.executable, __file__, "--child", source, "--redis",
                 f"redis://127.0.0.1:{port}/0", "--open", str(n), "--adds", str(adds)],
                check=True, capture_output=True, text=True,
                env={**os.environ, "PYTHONPATH": source})
            return dict(json.loads(out.stdout.strip().splitlines()[-1]))
        finally:
            server.terminate()
            server.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--open", type=int, nargs="+", default=[1000, 20000])
    parser.add_argument("--adds", type=int, default=200)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--compare", default="", help="another checkout, run in turns")
    parser.add_argument("--child", default="", help=argparse.SUPPRESS)
    parser.add_argument("--redis", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import asyncio
        print(json.dumps(asyncio.run(child(args.child, args.redis, args.open[0], args.adds))))
        return 0
    sources = [("this", str(HERE))] + ([("compare", args.compare)] if args.compare else [])
    print(f"load: {os.getloadavg()}")
    for n in args.open:
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in sources}
        for _ in range(args.pairs):
            for name, source in reversed(sources):  # the other checkout first, then this
                runs[name].append(run_child(source, n, args.adds))
        medians = {name: {k: statistics.median(r[k] for r in got) for k in got[0]}
                   for name, got in runs.items()}
        for name, source in sources:
            m = medians[name]
            print(f"{n:6} open, {name} ({source}): add {m['add_us']:9.1f} µs of Redis"
                  f" (seeks read {m['looked']:.0f}), sweep {m['sweep_us']:9.1f} µs of Redis"
                  f" in {m['sweep_trips']:.0f} round trips")
        if args.compare:
            new, old = medians["this"], medians["compare"]
            print(f"{n:6} open: add ratio {new['add_us'] / old['add_us']:.4f},"
                  f" sweep ratio {new['sweep_us'] / old['sweep_us']:.4f}")
    print(f"load: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
