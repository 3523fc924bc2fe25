"""Long fault runs: games on two server processes while a fault is injected, played by bots
that behave like the browser client; prints what the players paid for each fault.

Run: .venv/bin/python benchmarks/faults.py [--games 20] [--faults redis_restart,...]

Every fault gets its own private Redis (with AOF) and PostgreSQL cluster, two `domino serve`
processes and `--games` tables of four bots. A bot is one websocket, as a browser tab: it
plays a random legal move a moment after it is shown its turn; it re-reads the table only
on a seq gap (also one a `table.heartbeat` reveals), a `stale` error or a reconnect; it
tries again after `unavailable` (waiting `retry_ms`); and when its socket closes it
reconnects to whichever process is up and says hello again. The faults:

- `redis_restart`: Redis killed and started again (its AOF kept), twice, mid-game;
- `redis_away`: Redis down for 10 s mid-game;
- `redis_lost`: Redis loses everything (a flush: no persistence) mid-game;
- `postgres_down`: PostgreSQL stopped for 15 s while games end, and every player's
  connection dropped 3 s into it (all reconnect and sign in again while it is away);
- `kill9`: one of the two processes killed with SIGKILL mid-game;
- `redis_frozen`: Redis stopped with SIGSTOP for 10 s mid-game (its connections stay open
  and silent), at tables of 5 s turns: the freeze is longer than a turn;
- `restore_race`: a Redis without persistence that loses everything three times, 6 s
  apart; the lost tables are put back by the processes serving them, both at once (their
  periodic look for lost tables is slowed down to leave it to them), so every table is a
  race between them.

For each it prints the games played, the moves acknowledged to their movers, the
acknowledged moves missing from the stored records (lost) or found twice (doubled), the
games that never reached a stored result (lost), and the unfair timeouts: every timeout,
since a bot always moves as soon as it is shown its turn, and the `table.removed`
messages the bots were sent (a bot told so stops, as a browser showing "gone" would).
Games restored from a snapshot (`redis_lost`, `restore_race`) replay the round that was
being played, so there the moves acknowledged in it are counted apart ("rolled back"), as
the README says that fault costs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import signal
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import orjson
import websockets

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.faults.stores import PrivatePostgres, PrivateRedis  # noqa: E402
from tests.servers import LOAD_LIMITS, Server, run_server  # noqa: E402

FAULTS = ("redis_restart", "redis_away", "redis_lost", "postgres_down", "kill9",
          "redis_frozen", "restore_race")
TURN_SECONDS = 15
# Faults that are run at tables of their own turn length.
FAULT_TURN_SECONDS = {"redis_frozen": 5}
# Faults after which the games go on from their snapshots.
RESTORED = ("redis_lost", "restore_race")


@dataclass
class Tally:
    games: int = 0
    acked: int = 0
    lost_moves: int = 0
    doubled: int = 0
    rolled_back: int = 0
    lost_games: int = 0
    timeouts: int = 0
    unavailable: int = 0
    reconnects: int = 0
    removed: int = 0
    notes: list[str] = field(default_factory=list)


class Servers:
    """The processes of a run; a killed one is skipped when a bot reconnects."""

    def __init__(self, servers: list[Server]) -> None:
        self.all = servers
        self.sockets: set[Any] = set()  # every bot's open socket, to drop them all at once

    def up(self, preferred: int) -> Server:
        alive = [s for s in self.all if s.process.poll() is None]
        return alive[preferred % len(alive)]


class Bot:
    def __init__(self, servers: Servers, index: int, token: str, table_id: str, seat: int,
                 tally: Tally, rng: random.Random) -> None:
        self.servers = servers
        self.index = index
        self.token = token
        self.table_id = table_id
        self.seat = seat
        self.tally = tally
        self.rng = rng
        self.seq = 0
        self.acked: list[tuple[int, str]] = []  # (round, tile) of every acknowledged move
        self.pending: dict[str, tuple[int, str]] = {}
        self.final: dict[str, Any] | None = None
        self.timeouts = 0
        self.removed = False
        self.moving = -1

    async def run(self, deadline: float) -> None:
        first = True
        while self.final is None and not self.removed and time.monotonic() < deadline:
            if not first:
                self.tally.reconnects += 1
                await asyncio.sleep(0.2)
            first = False
            server = self.servers.up(self.index)
            try:
                async with websockets.connect(server.ws_url, ping_interval=None,
                                              open_timeout=5) as ws:
                    self.servers.sockets.add(ws)
                    try:
                        await self.session(ws, deadline)
                    finally:
                        self.servers.sockets.discard(ws)
            except (TimeoutError, OSError, websockets.WebSocketException):
                continue

    async def send(self, ws: Any, message: dict[str, Any]) -> None:
        await ws.send(orjson.dumps(message).decode())

    async def session(self, ws: Any, deadline: float) -> None:
        # A new socket: whatever was in flight on the old one is answered by the state read
        # after hello, and a move it shows as ours to make is ours to make again.
        self.pending.clear()
        self.moving = -1
        await self.send(ws, {"type": "hello", "token": self.token, "id": "hello"})
        while time.monotonic() < deadline:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
            kind = msg.get("type")
            if msg.get("id") == "hello":
                if kind == "error":  # unavailable: say hello again shortly
                    self.tally.unavailable += 1
                    await asyncio.sleep(msg.get("retry_ms", 500) / 1000)
                    await self.send(ws, {"type": "hello", "token": self.token, "id": "hello"})
                else:
                    await self.send(ws, {"type": "table.subscribe", "table_id": self.table_id,
                                         "id": "sub"})
                continue
            if kind == "error":
                move = self.pending.pop(msg.get("id", ""), None)
                if msg.get("code") == "unavailable":
                    self.tally.unavailable += 1
                    await asyncio.sleep(msg.get("retry_ms", 500) / 1000)
                if msg.get("code") in ("unavailable", "stale", "not_your_turn") or move is None:
                    self.moving = -1
                    await self.send(ws, {"type": "table.subscribe", "table_id": self.table_id,
                                         "id": "sub"})
                continue
            if kind == "table.removed":
                self.tally.removed += 1
                self.removed = True
                return
            if kind == "table.heartbeat":
                if msg["tables"].get(self.table_id, 0) > self.seq:
                    await self.send(ws, {"type": "table.subscribe", "table_id": self.table_id,
                                         "id": "sub"})
                continue
            if kind != "table.state" or msg.get("table_id") != self.table_id:
                continue
            move = self.pending.pop(msg.get("id", ""), None)
            if move is not None:
                self.acked.append(move)
            if msg["seq"] < self.seq:
                continue
            self.seq = msg["seq"]
            self.timeouts += sum(1 for e in msg["events"] if e["type"] == "timeout")
            view = msg["view"]
            if view["status"] == "finished":
                self.final = msg
                return
            if view["turn"] == view["you"] == self.seat and view["legal"] \
                    and self.moving < self.seq:
                self.moving = self.seq
                await asyncio.sleep(self.rng.uniform(0.05, 0.3))
                choice = self.rng.choice(view["legal"])
                move_id = f"m{self.seq}"
                self.pending[move_id] = (view["round"], choice["tile"])
                message = {"type": "play", "table_id": self.table_id, "tile": choice["tile"],
                           "seq": self.seq, "id": move_id}
                if choice["end"] is not None:
                    message["end"] = choice["end"]
                await self.send(ws, message)


async def new_game(http: httpx.AsyncClient, servers: Servers, tally: Tally, index: int,
                   rng: random.Random, turn_seconds: int = TURN_SECONDS) -> list[Bot]:
    tokens = []
    for _ in range(4):
        r = await http.post("/api/auth/register", json={
            "username": f"f{secrets.token_hex(6)}", "password": "password123"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
        http.cookies.clear()
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    r = await http.post("/api/tables", headers=auth[0], json={
        "variant": "goat", "seats": 4, "options": {}, "turn_seconds": turn_seconds,
        "rated": True, "round_pause_seconds": 0})
    r.raise_for_status()
    table_id = r.json()["id"]
    # The last seat is taken (and the game started) once the bots watch the table.
    for seat in range(1, 3):
        r = await http.post(f"/api/tables/{table_id}/join", headers=auth[seat],
                            json={"seat": seat})
        r.raise_for_status()
    return [Bot(servers, 4 * index + s, tokens[s], table_id, s, tally,
                random.Random(rng.random())) for s in range(4)]


async def start_game(http: httpx.AsyncClient, bots: list[Bot]) -> None:
    """The last seat joins: the game starts, with every bot shown the table already."""
    while not all(bot.seq for bot in bots):
        await asyncio.sleep(0.1)
    r = await http.post(f"/api/tables/{bots[3].table_id}/join",
                        headers={"Authorization": f"Bearer {bots[3].token}"}, json={"seat": 3})
    r.raise_for_status()


async def stored(servers: Servers, game_id: str, wait: float) -> dict[str, Any] | None:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            async with httpx.AsyncClient(base_url=servers.up(0).url, timeout=5) as http:
                r = await http.get(f"/api/games/{game_id}")
                if r.status_code == 200:
                    return dict(r.json())
        await asyncio.sleep(0.5)
    return None


def check(bots: list[Bot], final: dict[str, Any], record: dict[str, Any] | None,
          tally: Tally, fault: str) -> None:
    """Count the acknowledged moves of one game missing from its record or found twice,
    and its timeouts (a bot that read the table again was shown none of its events: the
    result says so too)."""
    ended_on_time = (final["view"].get("result") or {}).get("reason") == "timeout"
    tally.timeouts += max(int(ended_on_time), *(b.timeouts for b in bots))
    if record is None:
        tally.lost_games += 1
        tally.notes.append(f"table {bots[0].table_id}: no stored result")
        return
    for bot in bots:
        for rnd, tile in bot.acked:
            rounds = record["rounds"]
            found = 0 if rnd >= len(rounds) else sum(
                1 for m in rounds[rnd]["moves"]
                if m.get("seat") == bot.seat and m.get("tile") == tile)
            tally.acked += 1
            if found == 0:
                if fault in RESTORED:
                    tally.rolled_back += 1
                else:
                    tally.lost_moves += 1
            elif found > 1:
                tally.doubled += 1


async def inject(fault: str, redis: PrivateRedis, postgres: PrivatePostgres,
                 servers: Servers, tally: Tally) -> None:
    await asyncio.sleep(4)
    if fault == "redis_restart":
        for _ in range(2):
            redis.kill()
            redis.start()
            await asyncio.sleep(5)
    elif fault == "redis_away":
        redis.kill()
        await asyncio.sleep(10)
        redis.start()
    elif fault == "redis_lost":
        await asyncio.create_subprocess_exec("redis-cli", "-p", str(redis.port), "flushall",
                                             stdout=asyncio.subprocess.DEVNULL)
    elif fault == "postgres_down":
        postgres.stop()
        await asyncio.sleep(3)
        # Every player's connection drops meanwhile: all of them sign in again while the
        # database is away.
        for ws in list(servers.sockets):
            await ws.close()
        await asyncio.sleep(12)
        postgres.start()
    elif fault == "kill9":
        os.kill(servers.all[0].process.pid, signal.SIGKILL)
    elif fault == "redis_frozen":
        redis.freeze()
        try:
            await asyncio.sleep(10)
        finally:
            redis.thaw()
    elif fault == "restore_race":
        for flush in range(3):
            if flush:
                await asyncio.sleep(6)
            await asyncio.create_subprocess_exec(
                "redis-cli", "-p", str(redis.port), "flushall",
                stdout=asyncio.subprocess.DEVNULL)
    tally.notes.append(f"{fault} injected")


async def run_fault(fault: str, games: int, seed: int) -> Tally:
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        redis = PrivateRedis(Path(tmp), persistent=fault != "restore_race")
        redis.start()
        stack.callback(redis.kill)
        postgres = PrivatePostgres()
        postgres.init()
        postgres.start()
        stack.callback(postgres.remove)
        admin = await asyncpg.connect(postgres.admin_dsn)
        await admin.execute('CREATE DATABASE "domino"')
        await admin.close()
        env = {
            "DOMINO_DATABASE_URL": postgres.url("domino"),
            "DOMINO_REDIS_URL": redis.url,
            "DOMINO_REDIS_PREFIX": "faults",
            "DOMINO_HEARTBEAT_SECONDS": "2",
            "DOMINO_RECOVER_SECONDS": "60" if fault == "restore_race" else "2",
            **LOAD_LIMITS,
        }
        processes = [stack.enter_context(run_server(env, log_dir=Path(tmp))) for _ in range(2)]
        servers = Servers(processes)
        rng = random.Random(seed)
        async with httpx.AsyncClient(base_url=processes[1].url, timeout=30) as http:
            turn = FAULT_TURN_SECONDS.get(fault, TURN_SECONDS)
            tables = [await new_game(http, servers, tally, i, rng, turn) for i in range(games)]
            deadline = time.monotonic() + 300
            playing = asyncio.gather(*(bot.run(deadline) for bots in tables for bot in bots))
            for bots in tables:
                await start_game(http, bots)
        injector = asyncio.create_task(inject(fault, redis, postgres, servers, tally))
        await playing
        await injector
        for bots in tables:
            tally.games += 1
            final = next((b.final for b in bots if b.final is not None), None)
            if final is None:
                tally.lost_games += 1
                tally.notes.append(f"table {bots[0].table_id}: never finished"
                                   f"{' (removed)' if any(b.removed for b in bots) else ''}")
                continue
            record = await stored(servers, final["view"]["game_id"], 60)
            if record is None:
                tally.notes.append(f"final {final['view']['status']} "
                                   f"{final['view'].get('result')} game {final['view']['game_id']}")
                for server in processes:
                    tally.notes.append(server.output()[-3000:])
            check(bots, final, record, tally, fault)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {os.getloadavg()[0]:.2f} load (1 min), {os.cpu_count()} cores")
    print("| fault | games | acknowledged moves | lost | doubled | rolled back | games lost "
          "| unfair timeouts | `unavailable` replies | reconnects | `table.removed` |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for fault in args.faults.split(","):
        started = time.monotonic()
        tally = asyncio.run(run_fault(fault, args.games, args.seed))
        print(f"| {fault} | {tally.games} | {tally.acked} | {tally.lost_moves} | "
              f"{tally.doubled} | {tally.rolled_back} | {tally.lost_games} | {tally.timeouts} "
              f"| {tally.unavailable} | {tally.reconnects} | {tally.removed} |", flush=True)
        print(f"  ({time.monotonic() - started:.0f} s; {'; '.join(tally.notes[:8])})",
              file=sys.stderr, flush=True)
        failed |= bool(tally.lost_moves or tally.doubled or tally.lost_games or tally.timeouts
                       or tally.removed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
