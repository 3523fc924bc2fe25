"""How late tournament tables start after their pairing, on two real server processes.

Run: .venv/bin/python benchmarks/tournament.py [--players 64] [--format swiss|arena]
     [--seats 4] [--rounds 2] [--minutes 1 --minute-seconds 20] [--think 0.2]

Starts two `domino serve` processes sharing a private PostgreSQL database and a private
Redis key prefix, signs up `--players` players (a websocket each, spread over the two
processes), makes a Swiss or an arena of Sport Goat (4 rounds a game) and starts it;
every player plays each table he is paired at with random legal moves, `--think`
seconds a move. For every pairing it records the lag from the pairing (the table's row
written, `created_at`) to the player's `tournament.pairing` arriving, which is sent once
the table's game is running; prints the median, 95th percentile and largest lag, and the
director's pairings (tables per pairing).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import REDIS_URL
from tests.e2e.client import Player, autoplay, register
from tests.servers import LOAD_LIMITS, clear_redis_prefix, database_url, pg_admin, run_server


async def follow(player: Player, tournament_id: str, rng: random.Random, think: float,
                 arrivals: list[tuple[str, float]]) -> None:
    handled = -1

    async def thinking(view: dict[str, Any], r: random.Random) -> dict[str, Any]:
        await asyncio.sleep(think)
        return dict(r.choice(view["legal"]))

    while True:
        index = await player.expect_index(
            lambda m: m["type"] == "tournament.pairing" and m["tournament_id"] == tournament_id,
            after=handled, timeout=3600)
        handled = index
        table_id = player.frames[index]["table_id"]
        arrivals.append((table_id, time.time() * 1000))
        await player.request({"type": "table.subscribe", "table_id": table_id})
        await autoplay(player, table_id, rng, timeout=600, choose=thinking)


async def run(args: argparse.Namespace, urls: list[str], ws_urls: list[str]) -> None:
    players: list[Player] = []
    accounts = []
    for i in range(args.players):
        async with httpx.AsyncClient(base_url=urls[i % 2], timeout=60) as http:
            accounts.append(await register(http))
        players.append(await Player(ws_urls[i % 2], accounts[-1]).connect())
    async with httpx.AsyncClient(base_url=urls[0], timeout=60) as http:
        body: dict[str, Any] = {
            "name": "bench", "variant": "sport_goat", "options": {"rounds": 4},
            "seats": args.seats, "format": args.format, "turn_seconds": 120,
            "round_pause_seconds": 0, "rated": False}
        if args.format == "swiss":
            body["rounds"] = args.rounds
        else:
            body["minutes"] = args.minutes
        made = await http.post("/api/tournaments", headers=accounts[0].headers, json=body)
        made.raise_for_status()
        tournament_id = made.json()["id"]
        for i, account in enumerate(accounts):
            async with httpx.AsyncClient(base_url=urls[i % 2], timeout=60) as h:
                (await h.post(f"/api/tournaments/{tournament_id}/join",
                              headers=account.headers)).raise_for_status()
        arrivals: list[tuple[str, float]] = []
        tasks = [asyncio.create_task(follow(p, tournament_id, random.Random(i), args.think,
                                            arrivals)) for i, p in enumerate(players)]
        started = time.monotonic()
        (await http.post(f"/api/tournaments/{tournament_id}/start",
                         headers=accounts[0].headers)).raise_for_status()
        while True:
            await asyncio.sleep(1)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            state = (await http.get(f"/api/tournaments/{tournament_id}")).json()
            if state["status"] == "finished":
                break
        elapsed = time.monotonic() - started
        for task in tasks:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    created = {t["table_id"]: t["created_at"] for t in state["tables"]}
    lags = [(at - created[table_id]) / 1000 for table_id, at in arrivals]
    lags.sort()
    batches: dict[int, int] = {}
    for t in state["tables"]:
        batches[t["created_at"] // 1000] = batches.get(t["created_at"] // 1000, 0) + 1
    print(f"{args.format}, {args.players} players at {args.seats} seats: {len(state['tables'])} "
          f"tables in {elapsed:.0f} s; pairing -> player told (table running): median "
          f"{statistics.median(lags):.3f} s, p95 {lags[int(len(lags) * 0.95) - 1]:.3f} s, "
          f"max {lags[-1]:.3f} s over {len(lags)} seats")
    for p in players:
        await p.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--format", choices=["swiss", "arena"], default="swiss")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--minutes", type=int, default=5)
    parser.add_argument("--minute-seconds", type=float, default=6.0)
    parser.add_argument("--think", type=float, default=0.2)
    args = parser.parse_args()
    name = f"domino_bench_{secrets.token_hex(4)}"
    prefix = f"domino_bench_{secrets.token_hex(4)}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    env = {
        "DOMINO_DATABASE_URL": database_url(name), "DOMINO_REDIS_URL": REDIS_URL,
        "DOMINO_REDIS_PREFIX": prefix, "DOMINO_TOURNAMENT_MINUTE_SECONDS": str(args.minute_seconds),
        **LOAD_LIMITS,
    }
    try:
        with tempfile.TemporaryDirectory() as logs, \
                run_server(env, log_dir=Path(logs)) as one, \
                run_server(env, log_dir=Path(logs)) as two:
            asyncio.run(run(args, [one.url, two.url], [one.ws_url, two.ws_url]))
    finally:
        clear_redis_prefix(REDIS_URL, prefix)
        asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
