"""Move throughput and latency of real server processes under concurrent bot games.

Run: .venv/bin/python benchmarks/live.py [--games 8] [--processes 1|2] [--redis URL]

Starts `domino serve` (loopback only; the embedded store unless --redis is given, in which
case --processes 2 shares it between two processes), seats 4 bots per table on websockets
(spread over the processes), and lets every bot play random legal moves until all games
end. Prints the moves per second over the whole run and the median and 95th percentile
of one move's round trip (play sent -> the reply carrying its id). Bounded: each game
must end within --timeout seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.servers import LOAD_LIMITS, Server, clear_redis_prefix, run_server


async def register(http: httpx.AsyncClient) -> dict[str, Any]:
    r = await http.post(
        "/api/auth/register",
        json={"username": f"b{secrets.token_hex(6)}", "password": "password123"},
    )
    r.raise_for_status()
    http.cookies.clear()
    return dict(r.json())


async def bot(ws_url: str, token: str, table_id: str, rng: random.Random, lat: list[float]) -> int:
    """Play until the game ends; returns the moves made, appends each move's round trip."""
    moves = 0
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "table.subscribe", "table_id": table_id}))
        pending: dict[str, float] = {}
        async for text in ws:
            msg = json.loads(text)
            if msg.get("id") in pending:
                lat.append(time.perf_counter() - pending.pop(msg["id"]))
            if msg.get("type") == "error" and msg.get("code") == "rate_limited":
                await asyncio.sleep(0.1)
                await ws.send(json.dumps({"type": "table.subscribe", "table_id": table_id}))
                continue
            if msg.get("type") != "table.state":
                continue
            view = msg["view"]
            if view["status"] == "finished":
                return moves
            if view["turn"] == view["you"] and view["legal"] and not pending:
                move = rng.choice(view["legal"])
                msg_id = secrets.token_hex(4)
                pending[msg_id] = time.perf_counter()
                await ws.send(json.dumps({
                    "type": "play", "table_id": table_id, "tile": move["tile"],
                    "end": move["end"], "seq": msg["seq"], "id": msg_id,
                }))
                moves += 1
    return moves


async def run(servers: list[Server], games: int, timeout: float) -> None:
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
        seatings = []
        for _ in range(games):
            players = [await register(http) for _ in range(4)]
            owner = players[0]
            r = await http.post(
                "/api/tables",
                headers={"Authorization": f"Bearer {owner['token']}"},
                # No pause between rounds: the benchmark measures moves, not waiting.
                json={"variant": "goat", "seats": 4, "options": {}, "turn_seconds": 60,
                      "rated": True, "round_pause_seconds": 0},
            )
            r.raise_for_status()
            seatings.append((r.json()["id"], players))
        latencies: list[float] = []
        rng = random.Random(1)
        tasks = []
        for table_id, players in seatings:
            for i, p in enumerate(players):
                ws_url = servers[i % len(servers)].ws_url
                tasks.append(bot(ws_url, p["token"], table_id, random.Random(rng.random()),
                                 latencies))
        started = time.perf_counter()
        runner = asyncio.gather(*tasks)
        for table_id, players in seatings[:]:
            for i, p in enumerate(players[1:], start=1):
                r = await http.post(
                    f"/api/tables/{table_id}/join",
                    headers={"Authorization": f"Bearer {p['token']}"}, json={"seat": i},
                )
                r.raise_for_status()
        moves = sum(await asyncio.wait_for(runner, timeout))
        elapsed = time.perf_counter() - started
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"{games} games x 4 bots on {len(servers)} process(es): {moves} moves in "
          f"{elapsed:.1f} s = {moves / elapsed:.0f} moves/s")
    print(f"move round trip: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--processes", type=int, default=1, choices=(1, 2))
    parser.add_argument("--redis", default="", help="redis://127.0.0.1:6379/0 (default: embedded)")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    if args.processes > 1 and not args.redis:
        parser.error("--processes 2 needs --redis")
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        env = {
            "DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.db",
            "DOMINO_REDIS_URL": args.redis,
            "DOMINO_REDIS_PREFIX": f"bench_{secrets.token_hex(4)}",
            **LOAD_LIMITS,
        }
        servers = [
            stack.enter_context(run_server(env, log_dir=Path(tmp)))
            for _ in range(args.processes)
        ]
        asyncio.run(run(servers, args.games, args.timeout))
    if args.redis:
        clear_redis_prefix(args.redis, env["DOMINO_REDIS_PREFIX"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
