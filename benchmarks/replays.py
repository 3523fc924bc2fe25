"""Server CPU per request of a table's log (`GET /api/tables/{id}/log`) and of a finished
game's positions (`GET /api/games/{id}/positions`), for eight seats of Mexican Train.

Run: .venv/bin/python benchmarks/replays.py [--requests 40] [--pairs 3] [--compare DIR]

Starts `domino serve` from this checkout (and, with `--compare DIR`, one from another
checkout, e.g. `git worktree add --detach /tmp/before main`) on one private database and
Redis key prefix, so both serve the same tables and games. Eight players play one game of
Mexican Train to its end (its positions are asked for) and a second one as far as half
the first one's moves (its log is asked for). Then each server in turn (A B A B ...) answers
`--requests` requests of each, one at a time as a browser sends them (`Accept-Encoding:
gzip`); a server's CPU per request is its process's user+system time over them (from
/proc) divided by their number. The first request to each server, which computes what
is kept, is printed apart. Prints each turn, the medians and the ratios, and the bytes sent.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.server import private_database
from tests.e2e.client import Account, Player, autoplay, create_table, join, register
from tests.servers import LOAD_LIMITS, Server, clear_redis_prefix, run_server

SEATS = 8
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def play(server: Server, accounts: list[Account], stop_at: int | None
               ) -> tuple[str, str, int]:
    """A table of eight seats of Mexican Train played to its end or to its version
    `stop_at`; its table id, game id and last version."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        table = await create_table(http, accounts[0], seats=SEATS, variant="mexican_train",
                                   rated=False, turn_seconds=300, reserve_seconds=600)
        table_id = table["id"]
        players = [await Player(server.ws_url, a).connect() for a in accounts]
        for p in players:
            await p.request({"type": "table.subscribe", "table_id": table_id})
        for seat in range(1, SEATS):
            await join(http, table_id, accounts[seat], seat=seat)

    def stop(state: dict[str, Any]) -> bool:
        return stop_at is not None and state["seq"] >= stop_at

    finals = await asyncio.gather(*(autoplay(p, table_id, random.Random(i), stop=stop,
                                             timeout=120) for i, p in enumerate(players)))
    for p in players:
        await p.close()
    return table_id, str(finals[0]["view"]["game_id"]), int(finals[0]["seq"])


def measure(server: Server, path: str, requests: int) -> tuple[float, float, int]:
    """CPU ms per request, median wall ms, bytes of one answer."""
    walls = []
    with httpx.Client(base_url=server.url, timeout=60,
                      headers={"accept-encoding": "gzip"}) as http:
        before = cpu_seconds(server.process.pid)
        for _ in range(requests):
            start = time.perf_counter()
            reply = http.get(path)
            walls.append(time.perf_counter() - start)
            assert reply.status_code == 200, reply.text
            size = len(reply.content) if "content-encoding" not in reply.headers else \
                int(reply.headers.get("content-length", 0))
        spent = cpu_seconds(server.process.pid) - before
    return spent / requests * 1000, statistics.median(walls) * 1000, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--compare", default="", help="another checkout, run in turns")
    parser.add_argument("--redis", default=os.environ.get("DOMINO_TEST_REDIS",
                                                          "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()
    prefix = f"bench_{secrets.token_hex(4)}"
    log_dir = Path(f"/tmp/{prefix}")
    log_dir.mkdir()
    with ExitStack() as stack:
        stack.callback(clear_redis_prefix, args.redis, prefix)
        env = {"DOMINO_DATABASE_URL": stack.enter_context(private_database()),
               "DOMINO_REDIS_URL": args.redis, "DOMINO_REDIS_PREFIX": prefix,
               "DOMINO_REVIEW_WORKER": "off", **LOAD_LIMITS,
               "DOMINO_API_BURST": "1000000", "DOMINO_API_RATE": "1000000",
               "DOMINO_WS_SOCKET_BURST": "1000000", "DOMINO_WS_SOCKET_RATE": "1000000",
               "DOMINO_WS_PLAYER_RATE": "1000000", "DOMINO_WS_ADDRESS_RATE": "1000000"}
        servers = {"this": stack.enter_context(run_server(env, log_dir=log_dir))}
        if args.compare:
            servers["compare"] = stack.enter_context(run_server(
                {**env, "PYTHONPATH": str(Path(args.compare).resolve())}, log_dir=log_dir))
        this = servers["this"]

        async def setup() -> tuple[str, str]:
            async with httpx.AsyncClient(base_url=this.url, timeout=60) as http:
                accounts = [await register(http) for _ in range(SEATS)]
            _, game_id, last = await play(this, accounts, None)
            table_id, _, _ = await play(this, accounts, last // 2)
            return table_id, game_id

        table_id, game_id = asyncio.run(setup())
        time.sleep(2)  # the finished game written
        paths = {"log": f"/api/tables/{table_id}/log",
                 "positions": f"/api/games/{game_id}/positions"}
        print(f"load: {os.getloadavg()}")
        for name in reversed(servers):  # the first request: nothing kept yet
            for what, path in paths.items():
                got = measure(servers[name], path, 1)
                print(f"first   {name:7} {what:9}: {got[0]:8.2f} ms CPU, {got[1]:8.2f} ms wall")
        runs: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
        for turn in range(args.pairs):
            for name in reversed(servers):
                for what, path in paths.items():
                    got = measure(servers[name], path, args.requests)
                    runs.setdefault((what, name), []).append(got)
                    print(f"turn {turn} {name:7} {what:9}: {got[0]:8.2f} ms CPU a request,"
                          f" {got[1]:8.2f} ms wall, {got[2]} bytes")
        for what in paths:
            medians = {}
            for name in servers:
                turns = runs[(what, name)]
                medians[name] = statistics.median(g[0] for g in turns)
                print(f"{what:9} {name:7}: median {medians[name]:8.2f} ms CPU a request,"
                      f" {statistics.median(g[1] for g in turns):8.2f} ms wall,"
                      f" {turns[0][2]} bytes")
            if args.compare:
                print(f"{what:9} ratio {medians['this'] / medians['compare']:.4f}")
        print(f"load: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
