"""One server process under N busy tables of bot sockets, beside the ceiling of a bare server.

Run: .venv/bin/python benchmarks/server.py [--tables 250] [--think 1.0] [--duration 30]

Starts `domino serve` on a private PostgreSQL database and a private Redis key prefix,
then runs bots that behave like players: each signs up over HTTP, opens its websocket
and says hello (the idle sockets' memory is measured here), the first of every four creates
a table, all four subscribe, the other three join over HTTP, and each plays a random move
from `legal` as soon as it is its turn, after `--think` seconds (0: saturation). A game
that ends is followed by a new table of the same four. Over the measured window it
prints the moves per second (and what the bots offered), the p50/p95/p99 of "move sent ->
the last seat of the table has the resulting view", the server's CPU milliseconds per
move, its memory per idle socket, the bytes per move per seat, the failed moves and the
gaps (a socket that saw a seq skipped: a lost announcement).

In the same run it measures the ceiling: a bare FastAPI websocket server (no game, no
store) that answers every move by sending a frame of the same size to the four sockets of
the room, driven by the same bot code, and prints the ratio of the two. The two take turns
`--pairs` times (server, ceiling, server, ceiling, ...; each server fresh, on a database and
key prefix of its own), and the median of the pairs' ratios is printed last: a shared
machine's speed drifts by more than the figures' differences within one run.

`--long-game` instead plays `--tables` games of Sport Goat over twelve rounds (every game
as long) to their end without restarting them, measured from the first move, and prints
the server's CPU per move (and the moves/s) over each tenth of the moves made while no game
has ended, comparing the first and the last.
`--source DIR` runs the server from another checkout (e.g. the code before a change).
`--lobby N` adds N sockets that only watch the lobby (`lobby.subscribe`) and prints the
lobby frames they received per second.
`--redis redis+cluster://host:port` runs on a Redis Cluster and prints each master's
commands and CPU per move and its share of them; `--cluster` on the local three-master one
(`make cluster`: .ci/redis-cluster, started here when it is down).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, cast

import httpx
import orjson
import websockets
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

REPO = Path(__file__).resolve().parents[1]
# The local Redis Cluster of `make cluster` (.ci/redis-cluster).
LOCAL_CLUSTER = "redis+cluster://127.0.0.1:7101"
sys.path.insert(0, str(REPO))

from tests.servers import (  # noqa: E402
    LOAD_LIMITS,
    Server,
    clear_redis_prefix,
    database_url,
    free_port,
    pg_admin,
    run_server,
    sync_redis,
)

TICKS = os.sysconf("SC_CLK_TCK")


# -- the server process as the kernel sees it ----------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / TICKS


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def kernel_counters(pid: int) -> dict[str, int]:
    """A process's system calls that read and that write, and the times it gave up the core
    (waiting for I/O: voluntary) or had it taken (involuntary), so far."""
    counts = {}
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("syscr", "syscw"):
            counts[name] = int(value)
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name.endswith("ctxt_switches"):
            counts[name.split("_")[0]] = int(value)
    return counts


def redis_counters(url: str) -> dict[str, float]:
    """Redis's own counters now (none without a URL). On a Redis Cluster the masters' sums,
    and each master's as "SHARD host:port NAME"."""
    if not url:
        return {}
    import redis

    from app.live.client import clustered_url

    client = sync_redis(url)
    try:
        if clustered_url(url):
            nodes = [(node.name, redis.Redis(host=node.host, port=int(node.port)))
                     for node in cast(redis.RedisCluster, client).get_primaries()]
        else:
            nodes = [("", client)]
        out: dict[str, float] = {}
        for name, node in nodes:
            stats, cpu = node.info("stats"), node.info("cpu")
            mine = {"commands": stats["total_commands_processed"],
                    "bytes_in": stats["total_net_input_bytes"],
                    "bytes_out": stats["total_net_output_bytes"],
                    "cpu": cpu["used_cpu_sys"] + cpu["used_cpu_user"]}
            for key, value in mine.items():
                out[key] = out.get(key, 0) + value
                if name:
                    out[f"SHARD {name} {key}"] = value
            if name:
                node.close()
        return out
    finally:
        client.close()


# -- the bots ------------------------------------------------------------------------

@dataclass
class Stats:
    """What the bots saw; only moves sent inside the measured window count."""

    measuring: bool = False
    moves: int = 0
    failed: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    gaps: int = 0
    bytes: int = 0
    latencies: list[float] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    frame_sizes: list[int] = field(default_factory=list)
    started: int = 0  # tables whose (first) game has begun
    finished: int = 0  # games seen to end
    lobby_frames: int = 0  # frames received by the lobby-only sockets while measuring


@dataclass
class Table:
    """One table the bots play at: the move in flight and which seats have seen it."""

    table_id: str
    sent_at: float = 0.0
    waiting_for: int = 0  # the seq the move in flight will produce; 0: none
    seen: set[int] = field(default_factory=set)
    counted: bool = False
    started: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Bot:
    """One seat's socket: plays its turns, times the move's arrival at every seat."""

    def __init__(self, seat: int, token: str, stats: Stats, think: float, rng: random.Random,
                 address: str = "") -> None:
        self.seat = seat
        self.token = token
        # where the socket says it comes from (X-Forwarded-For, as behind the proxy)
        self.address = address
        self.stats = stats
        self.think = think
        self.rng = rng
        self.table: Table | None = None
        self.last_seq: dict[str, int] = {}
        self.moved_at_seq = -1
        self.ws: Any = None

    async def connect(self, ws_url: str) -> None:
        # Offers permessage-deflate, as browsers do: the server's setting decides.
        headers = {"X-Forwarded-For": self.address} if self.address else None
        self.ws = await websockets.connect(ws_url, max_size=2**22, ping_interval=None,
                                           additional_headers=headers)
        await self.send({"type": "hello", "token": self.token})
        welcome = orjson.loads(await self.ws.recv())
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"hello refused: {welcome}")

    async def sit(self, table: Table) -> None:
        if self.table is not None:
            await self.send({"type": "table.unsubscribe", "table_id": self.table.table_id})
        self.table = table
        self.moved_at_seq = -1
        await self.send({"type": "table.subscribe", "table_id": table.table_id,
                         "id": f"s{table.table_id}"})

    async def run(self) -> None:
        async for text in self.ws:
            await self.on_frame(text)

    async def on_frame(self, text: str | bytes) -> None:
        stats = self.stats
        msg = orjson.loads(text)
        kind = msg.get("type")
        table = self.table
        if stats.measuring:
            stats.bytes += len(text)
        if kind == "error":
            if msg.get("code") == "unavailable" and msg.get("id", "").startswith("s"):
                # As the browser does: the server asks us to try again shortly.
                await asyncio.sleep(msg.get("retry_ms", 500) / 1000)
                await self.send({"type": "table.subscribe", "table_id": msg["id"][1:],
                                 "id": msg["id"]})
                return
            if msg.get("id", "").startswith("m"):
                if table is not None and table.counted:
                    stats.failed += 1
                    stats.failures[msg["code"]] = stats.failures.get(msg["code"], 0) + 1
                if table is not None:
                    table.waiting_for = 0
            return
        if kind != "table.state" or table is None or msg["table_id"] != table.table_id:
            return
        seq = msg["seq"]
        last = self.last_seq.get(table.table_id)
        if last is not None and seq > last + 1:
            stats.gaps += 1
        self.last_seq[table.table_id] = max(seq, last or 0)
        if table.waiting_for and seq >= table.waiting_for and self.seat not in table.seen:
            table.seen.add(self.seat)
            if len(table.seen) == 4:
                if table.counted:
                    stats.latencies.append(time.perf_counter() - table.sent_at)
                    stats.frame_sizes.append(len(text))
                table.waiting_for = 0
        view = msg["view"]
        if not table.started and view["status"] == "playing":
            table.started = True
            stats.started += 1
        if view["status"] == "finished":
            if not table.done.is_set():
                stats.finished += 1
                table.done.set()
            return
        if view["turn"] == self.seat and view["legal"] and seq > self.moved_at_seq:
            self.moved_at_seq = seq
            asyncio.get_running_loop().create_task(self.move(table, seq, view))

    async def move(self, table: Table, seq: int, view: dict[str, Any]) -> None:
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.9, 1.1))
        choice = self.rng.choice(view["legal"])
        table.sent_at = time.perf_counter()
        table.waiting_for = seq + 1
        table.seen = set()
        table.counted = self.stats.measuring
        if table.counted:
            self.stats.moves += 1
            self.stats.rounds.append(view.get("round", 0))
        move = {"type": "play", "table_id": table.table_id, "tile": choice["tile"],
                "seq": seq, "id": f"m{seq}"}
        if choice["end"] is not None:
            move["end"] = choice["end"]
        await self.send(move)

    async def send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(orjson.dumps(message).decode())


class Lobby:
    """How bots get seated: real HTTP against the server, a room number on the bare one."""

    async def table_for(self, owner: int, seats: list[int]) -> str:
        raise NotImplementedError

    async def join(self, table_id: str, seat: int, who: int) -> None:
        raise NotImplementedError


class HttpLobby(Lobby):
    def __init__(self, http: httpx.AsyncClient, tokens: list[str], variant: str = "goat",
                 options: dict[str, Any] | None = None) -> None:
        self.http = http
        self.tokens = tokens
        self.variant = variant
        self.options = options or {}
        # People do not all sit down in the same millisecond.
        self.limit = asyncio.Semaphore(16)

    def headers(self, who: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}

    async def table_for(self, owner: int, seats: list[int]) -> str:
        async with self.limit:
            r = await self.http.post("/api/tables", headers=self.headers(owner), json={
                "variant": self.variant, "seats": 4, "options": self.options,
                "turn_seconds": 300,
                # no pause between rounds: the benchmark measures moves, not waiting
                "rated": True, "round_pause_seconds": 0})
        r.raise_for_status()
        return str(r.json()["id"])

    async def join(self, table_id: str, seat: int, who: int) -> None:
        async with self.limit:
            r = await self.http.post(f"/api/tables/{table_id}/join",
                                     headers=self.headers(who), json={"seat": seat})
        r.raise_for_status()


class RoomLobby(Lobby):
    def __init__(self) -> None:
        self.rooms = 0

    async def table_for(self, owner: int, seats: list[int]) -> str:
        self.rooms += 1
        return f"room{self.rooms}"

    async def join(self, table_id: str, seat: int, who: int) -> None:
        return None


async def play_table(lobby: Lobby, bots: list[Bot], accounts: list[int], restart: bool) -> None:
    """Seat four bots at a new table and play; with `restart`, a new table after each end."""
    while True:
        table = Table(await lobby.table_for(accounts[0], accounts))
        for bot in bots:
            await bot.sit(table)
        for seat in range(1, 4):
            await lobby.join(table.table_id, seat, accounts[seat])
        await table.done.wait()
        if not restart:
            return


async def sign_up(http: httpx.AsyncClient, count: int) -> list[str]:
    limit = asyncio.Semaphore(8)

    async def one() -> str:
        async with limit:
            r = await http.post("/api/auth/register", json={
                "username": f"b{secrets.token_hex(6)}", "password": "password123"})
            r.raise_for_status()
            return str(r.json()["token"])

    tokens = await asyncio.gather(*(one() for _ in range(count)))
    http.cookies.clear()
    return list(tokens)


class Tenth(NamedTuple):
    cpu_ms_per_move: float
    moves_per_s: float
    mean_round: float


@dataclass
class Result:
    label: str
    stats: Stats
    elapsed: float
    cpu: float | None
    offered: float | None
    memory_per_socket: float | None = None
    # a long game's figures by tenth of its moves
    tenths: list[Tenth] = field(default_factory=list)
    # Redis over the measured window (INFO's counters: the whole server, so nothing else
    # should use it meanwhile): commands, bytes in and out, its CPU seconds.
    redis: dict[str, float] = field(default_factory=dict)
    # each server process's CPU seconds, in the order they were started
    cpu_each: list[float] = field(default_factory=list)
    # each server process's system calls and context switches (`kernel_counters`)
    kernel_each: list[dict[str, int]] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        """The `p` quantile of move -> last seat's view, in ms."""
        lat = sorted(self.stats.latencies) or [float("nan")]
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000

    def print(self) -> None:
        s = self.stats
        pct = self.percentile

        moves_per_s = s.moves / self.elapsed
        line = f"{self.label}: {moves_per_s:.0f} moves/s"
        if self.offered:
            line += f" of {self.offered:.0f} offered ({100 * moves_per_s / self.offered:.0f} %)"
        print(line)
        print(f"  move -> last seat's view: p50 {pct(0.50):.1f} ms, p95 {pct(0.95):.1f} ms, "
              f"p99 {pct(0.99):.1f} ms ({len(s.latencies)} moves)")
        if self.cpu is not None and s.moves:
            print(f"  server CPU per move: {1000 * self.cpu / s.moves:.2f} ms")
            if len(self.cpu_each) > 1:
                # Which process does a move's work: the table's writer applies and
                # serialises, the others route what it announced.
                print("  by process: " + ", ".join(
                    f"{1000 * c / s.moves:.3f}" for c in self.cpu_each) + " ms per move")
        if self.kernel_each and s.moves:
            # How often a process goes to the kernel and loses the core for each move: the
            # same figures summed over two processes as for one mean no wake-ups are added.
            print("  per move, by process: " + "; ".join(
                f"{(k['syscr'] + k['syscw']) / s.moves:.2f} system calls, "
                f"{k['voluntary'] / s.moves:.2f} + {k['nonvoluntary'] / s.moves:.2f} "
                "context switches (voluntary + involuntary)" for k in self.kernel_each))
        if self.tenths:
            (first, _, round_first), (last, _, round_last) = self.tenths[0], self.tenths[-1]
            print(f"  server CPU per move while every game is on, first tenth of the moves "
                  f"(mean round {round_first:.1f}): {first:.2f} ms; last tenth "
                  f"(mean round {round_last:.1f}): {last:.2f} ms "
                  f"({100 * (last / first - 1):+.0f} %)")
            print("  by tenth: " + ", ".join(f"{t.cpu_ms_per_move:.3f}" for t in self.tenths)
                  + " ms per move; " + ", ".join(f"{t.moves_per_s:.0f}" for t in self.tenths)
                  + " moves/s")
        if s.moves:
            print(f"  bytes per move per seat (uncompressed): {s.bytes / s.moves / 4:.0f}")
        if self.memory_per_socket is not None:
            print(f"  server memory per idle socket: {self.memory_per_socket / 1024:.1f} KiB")
        print(f"  failed moves: {s.failed} {s.failures or ''}; seq gaps seen: {s.gaps}")
        if self.redis and s.moves:
            r = self.redis
            print(f"  Redis per move: {r['commands'] / s.moves:.1f} commands, "
                  f"{r['bytes_in'] / s.moves:.0f} bytes in, {r['bytes_out'] / s.moves:.0f} "
                  f"bytes out, {1e6 * r['cpu'] / s.moves:.0f} us CPU")
            shards = sorted({k.split()[1] for k in r if k.startswith("SHARD ")})
            for shard in shards:  # a cluster's masters: each one's part of the work
                commands, cpu = r[f"SHARD {shard} commands"], r[f"SHARD {shard} cpu"]
                print(f"    shard {shard}: {commands / s.moves:.2f} commands and "
                      f"{1e6 * cpu / s.moves:.0f} us CPU a move, "
                      f"{100 * commands / max(r['commands'], 1):.0f} % of the commands, "
                      f"{100 * cpu / max(r['cpu'], 1e-9):.0f} % of the CPU")
        if s.lobby_frames:
            print(f"  lobby frames received by the lobby's watchers: "
                  f"{s.lobby_frames / self.elapsed:.0f}/s")


async def watch_lobby(ws_url: str, stats: Stats, ready: asyncio.Event) -> None:
    """A person in the lobby: subscribes to it and reads every frame."""
    async with websockets.connect(ws_url, max_size=2**22, ping_interval=None) as ws:
        await ws.send('{"type":"lobby.subscribe","id":"l"}')
        await ws.recv()
        ready.set()
        async for _ in ws:
            if stats.measuring:
                stats.lobby_frames += 1


async def drive(
    label: str, servers: list[Server], *, tables: int, think: float, by_table: bool = False,
    warmup: float, duration: float, accounts: int, long_game: bool, real: bool,
    lobby_watchers: int = 0, redis_url: str = "",
) -> Result:
    stats = Stats()
    seats = tables * 4
    # Seats round-robin over the processes, as a round-robin proxy places sockets: with two,
    # seats 0 and 2 of every table on one and 1 and 3 on the other (`by_table`: each table's
    # four on one process, the tables round-robin). HTTP goes to the first.
    url = servers[0].url
    pids = [server.process.pid for server in servers]
    # Idle connections are dropped before uvicorn's 5-s keep-alive closes them: at the same
    # 5 s (httpx's default) a request could go out on a connection the server was closing,
    # and that bot's table stopped with a ReadError.
    limits = httpx.Limits(keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        if real:
            tokens = await sign_up(http, min(seats, max(4, accounts - accounts % 4)))
            # A long game is Sport Goat's twelve rounds: every game lasts as long, and its
            # first tenth of moves already spans a whole round, round end included.
            lobby: Lobby = (HttpLobby(http, tokens, "sport_goat", {"rounds": 12}) if long_game
                            else HttpLobby(http, tokens))
        else:
            tokens = [f"bare{i}" for i in range(seats)]
            lobby = RoomLobby()
        rng = random.Random(1)
        # each player from an address of his own, as the site's are (the per-address
        # buckets spread as the players' do)
        bots = [Bot(i % 4, tokens[i % len(tokens)], stats, think, random.Random(rng.random()),
                    f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}")
                for i in range(seats)]
        rss_before = sum(rss_bytes(pid) for pid in pids)
        limit = asyncio.Semaphore(50)

        async def connect(i: int, bot: Bot) -> None:
            async with limit:
                await bot.connect(servers[(i // 4 if by_table else i) % len(servers)].ws_url)

        await asyncio.gather(*(connect(i, b) for i, b in enumerate(bots)))
        await asyncio.sleep(2)
        memory = (sum(rss_bytes(pid) for pid in pids) - rss_before) / seats
        watchers = []
        for _ in range(lobby_watchers):
            ready = asyncio.Event()
            watchers.append(asyncio.create_task(watch_lobby(servers[0].ws_url, stats, ready)))
            await ready.wait()
        readers = [asyncio.create_task(b.run()) for b in bots]
        players = [
            asyncio.create_task(play_table(
                lobby, bots[4 * t:4 * t + 4],
                [(4 * t + i) % len(tokens) for i in range(4)], not long_game))
            for t in range(tables)
        ]
        setup = time.perf_counter()
        while stats.started < tables and time.perf_counter() - setup < 600:
            failed = [p for p in players if p.done()]
            if failed:  # a table that could not be set up never starts: say why, now
                failed[0].result()
            await asyncio.sleep(0.2)
        print(f"{label}: {stats.started} tables playing after {time.perf_counter() - setup:.0f}"
              " s of setup", file=sys.stderr, flush=True)
        if not long_game:  # a long game is measured from its first move
            await asyncio.sleep(warmup)
        print(f"{label}: measuring", file=sys.stderr, flush=True)
        stats.measuring = True
        redis0 = redis_counters(redis_url)
        each0 = [cpu_seconds(pid) for pid in pids]
        kernel0 = [kernel_counters(pid) for pid in pids]
        cpu0, t0 = sum(each0), time.perf_counter()
        cpu_marks: list[tuple[int, float, float]] = [(0, cpu0, t0)]
        if long_game:
            # Only while every game is still on: later, fewer games share the same
            # background work (clock sweeps, heartbeats) and results are being written.
            # A mark is taken only while no game has ended, so the last one holds no
            # result's writing (a per-game cost, not a move's).
            while True:
                await asyncio.sleep(0.1)
                if stats.finished or any(p.done() for p in players):  # or a bot failed
                    break
                cpu_marks.append((stats.moves, sum(map(cpu_seconds, pids)),
                                  time.perf_counter()))
            await asyncio.gather(*players)
        else:
            await asyncio.sleep(duration)
        stats.measuring = False
        each1 = [cpu_seconds(pid) for pid in pids]
        kernel1 = [kernel_counters(pid) for pid in pids]
        cpu1, t1 = sum(each1), time.perf_counter()
        redis1 = redis_counters(redis_url)
        broken = [t.exception() for t in players + readers if t.done() and not t.cancelled()
                  and t.exception() is not None]
        if broken:
            print(f"{len(broken)} bot tasks failed, e.g. {broken[0]!r}", file=sys.stderr)
        for task in players + readers + watchers:
            task.cancel()
        for bot in bots:
            await bot.ws.close()
    offered = None if think == 0 or long_game else tables / think
    result = Result(label, stats, t1 - t0, cpu1 - cpu0, offered, memory,
                    redis={k: redis1[k] - redis0[k] for k in redis0},
                    cpu_each=[b - a for a, b in zip(each0, each1, strict=True)],
                    kernel_each=[{k: b[k] - a[k] for k in a}
                                 for a, b in zip(kernel0, kernel1, strict=True)])
    if long_game and cpu_marks[-1][0] >= 20:
        result.tenths = _cpu_per_move_by_tenth(cpu_marks, stats.rounds)
    return result


def _cpu_per_move_by_tenth(marks: list[tuple[int, float, float]], rounds: list[int]
                           ) -> list[Tenth]:
    """CPU ms per move, moves/s and the mean round over each tenth of the moves made while
    every game was on (by sampled marks: a tenth runs from the last mark before it to the
    first mark after it)."""
    total = marks[-1][0]
    tenths = []
    for k in range(10):
        start = next(m for m in reversed(marks) if m[0] <= k * total / 10)
        end = next(m for m in marks if m[0] >= (k + 1) * total / 10)
        moves = max(1, end[0] - start[0])
        tenths.append(Tenth(1000 * (end[1] - start[1]) / moves,
                            moves / max(1e-9, end[2] - start[2]),
                            statistics.mean(rounds[start[0]:end[0]] or [0])))
    return tenths


# -- the ceiling: a bare FastAPI websocket server ---------------------------------------

def bare_app(frame_bytes: int) -> Any:
    """Rooms of four sockets; each move is answered by a frame of `frame_bytes` to all four."""
    app = FastAPI()
    rooms: dict[str, dict[str, Any]] = {}

    def frame(room_id: str, room: dict[str, Any], seat: int, msg_id: str | None) -> bytes:
        message: dict[str, Any] = {
            "type": "table.state", "table_id": room_id, "seq": room["seq"],
            "view": {"status": "playing", "you": seat, "turn": room["turn"], "round": 0,
                     "legal": [{"tile": "0-0", "end": None}] if seat == room["turn"] else []},
            "events": [], "pad": "",
        }
        if msg_id is not None:
            message["id"] = msg_id
        pad = frame_bytes - len(orjson.dumps(message))
        message["pad"] = "x" * max(0, pad)
        return orjson.dumps(message)

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        seat = 0
        room_id = ""
        try:
            while True:
                msg = orjson.loads(await websocket.receive_text())
                kind = msg.get("type")
                if kind == "hello":
                    seat = int(msg["token"][4:]) % 4
                    await websocket.send_text('{"type":"welcome","player":{"id":0,"name":"b"}}')
                elif kind == "table.subscribe":
                    room_id = msg["table_id"]
                    room = rooms.setdefault(room_id, {"seq": 1, "turn": 0, "sockets": {}})
                    room["sockets"][seat] = websocket
                    await websocket.send_text(frame(room_id, room, seat, None).decode())
                elif kind == "play":
                    room = rooms[room_id]
                    room["seq"] += 1
                    room["turn"] = (room["turn"] + 1) % 4
                    for s, sock in list(room["sockets"].items()):
                        await sock.send_text(
                            frame(room_id, room, s, msg["id"] if s == seat else None).decode())
        except WebSocketDisconnect:
            return

    return app


@contextmanager
def run_bare(frame_bytes: int, log_dir: Path) -> Iterator[Server]:
    port = free_port()
    log = log_dir / "bare.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, __file__, "--bare-server", str(port), "--frame-bytes",
             str(frame_bytes)], stdout=out, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", process, log)
    try:
        for _ in range(300):
            try:
                httpx.get(f"{server.url}/docs", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=15)


# -- setting up ---------------------------------------------------------------------------

@contextmanager
def private_server(redis_url: str, source: str, log_dir: Path, processes: int = 1
                   ) -> Iterator[list[Server]]:
    """`processes` x `domino serve` sharing a database and a Redis key prefix of their own,
    their limits out of the way (one address plays every seat); both are gone when they have
    stopped. `source`: a checkout to run the servers from instead of this one."""
    prefix = f"bench_{secrets.token_hex(4)}"
    with ExitStack() as stack:
        # Last out, once the servers have stopped: however the run ends, its keys go.
        stack.callback(clear_redis_prefix, redis_url, prefix)
        env = {
            "DOMINO_DATABASE_URL": stack.enter_context(private_database()),
            "DOMINO_REDIS_URL": redis_url,
            "DOMINO_REDIS_PREFIX": prefix,
            # No review worker beside each server: its reviews of the finished games are not
            # the server's work, and one stopped by a signal outlives its server.
            "DOMINO_REVIEW_WORKER": "off",
            **LOAD_LIMITS,
            "DOMINO_API_BURST": "1000000",
            "DOMINO_API_RATE": "1000000",
            "DOMINO_AUTH_BURST": "1000000",
            "DOMINO_AUTH_RATE": "1000000",
            # A bot at saturation sends more moves a second than a person's socket may.
            "DOMINO_WS_SOCKET_BURST": "1000000",
            "DOMINO_WS_SOCKET_RATE": "1000000",
            "DOMINO_WS_PLAYER_RATE": "1000000",
            "DOMINO_WS_ADDRESS_RATE": "1000000",
            # the bots' sockets say where they come from, as the proxy's do
            "DOMINO_TRUSTED_PROXIES": "127.0.0.1",
        }
        if source:
            env["PYTHONPATH"] = str(Path(source).resolve())
        yield [stack.enter_context(run_server(env, log_dir=log_dir))
               for _ in range(processes)]


@contextmanager
def private_database() -> Iterator[str]:
    name = f"domino_bench_{secrets.token_hex(4)}"
    asyncio.run(pg_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield database_url(name)
    finally:
        asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--accounts", type=int, default=0,
                        help="sign up this many players and seat them at several tables "
                             "each (default: one per seat)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--cluster", action="store_true",
                        help=f"run on the local Redis Cluster ({LOCAL_CLUSTER})")
    parser.add_argument("--source", default="", help="run the server from this checkout")
    parser.add_argument("--compare", default="",
                        help="also run the server from this checkout, in turns with --source "
                             "(A B A B ...), and print the ratios")
    parser.add_argument("--processes", default="1",
                        help="server processes, seats spread over them round-robin; a list "
                             "(1,2,4) measures each in turns and prints the ratios to the first")
    parser.add_argument("--by-table", action="store_true",
                        help="each table's four seats on one process (the tables round-robin) "
                             "instead of every seat round-robin")
    parser.add_argument("--pin", action="store_true",
                        help="the servers on the first core, the bots on the second")
    parser.add_argument("--long-game", action="store_true")
    parser.add_argument("--no-ceiling", action="store_true")
    parser.add_argument("--pairs", type=int, default=3,
                        help="measure the server and the ceiling this many times each, "
                             "taking turns, and print the median ratio")
    parser.add_argument("--lobby", type=int, default=0,
                        help="also this many sockets watching the lobby only")
    parser.add_argument("--ceiling-only", action="store_true",
                        help="with a --processes list: measure the bare ceiling server instead "
                             "of `domino serve`, as many processes of it in turns (what several "
                             "interpreters on one core cost with no application in them)")
    parser.add_argument("--bare-server", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--frame-bytes", type=int, default=2000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cluster:
        subprocess.run([str(REPO / ".ci" / "redis-cluster"), "7101"], check=True,
                       stdout=subprocess.DEVNULL)
        args.redis = LOCAL_CLUSTER
    if args.bare_server:
        import uvicorn

        # Uncompressed frames, as the server sends by default (DOMINO_WS_COMPRESSION).
        uvicorn.run(bare_app(args.frame_bytes), host="127.0.0.1", port=args.bare_server,
                    log_level="warning", ws_per_message_deflate=False)
        return 0
    accounts = args.accounts or 4 * args.tables
    if args.pin:
        os.sched_setaffinity(0, {1})
    print(f"machine: {os.getloadavg()[0]:.2f} load (1 min), {os.cpu_count()} cores")
    setups = [Setup(source, int(n)) for source in [args.source] + ([args.compare] if args.compare
                                                                    else [])
              for n in args.processes.split(",")]
    if len(setups) > 1:
        compare(args, accounts, setups)
        return 0
    if args.no_ceiling or args.long_game:
        with tempfile.TemporaryDirectory() as tmp:
            measure_server(args, accounts, Path(tmp), setups[0])
        return 0
    ratios = []
    # The machine's speed drifts within a run: server and ceiling take turns, each pair
    # giving a ratio, and the median of those is the figure.
    for _ in range(args.pairs):
        with tempfile.TemporaryDirectory() as tmp:
            result = measure_server(args, accounts, Path(tmp), setups[0])
            frame = int(statistics.median(result.stats.frame_sizes or [2000]))
            with run_bare(frame, Path(tmp)) as bare:
                pin(args, [bare])
                ceiling = asyncio.run(drive(
                    f"ceiling (bare FastAPI, {frame}-byte frames)", [bare],
                    tables=args.tables, think=args.think,
                    warmup=args.warmup, duration=args.duration, accounts=accounts,
                    long_game=False, real=False))
        ceiling.print()
        ratios.append(result.stats.moves / result.elapsed
                      / (ceiling.stats.moves / ceiling.elapsed))
        print(f"server / ceiling: {100 * ratios[-1]:.0f} % of the bare server's moves/s")
    if len(ratios) > 1:
        print(f"server / ceiling, median of {len(ratios)} interleaved pairs: "
              f"{100 * statistics.median(ratios):.0f} % "
              f"({', '.join(f'{100 * r:.0f}' for r in ratios)})")
    return 0


class Setup(NamedTuple):
    """What one measurement runs: the checkout (\"\": this one) and how many processes."""

    source: str
    processes: int

    def __str__(self) -> str:
        where = self.source or "this checkout"
        return f"{where}, {self.processes} process{'es' if self.processes > 1 else ''}"


def compare(args: argparse.Namespace, accounts: int, setups: list[Setup]) -> None:
    """Each setup measured in turns, `--pairs` rounds (A B C A B C ...): per setup the
    medians of moves/s and CPU per move, and each round's ratios to the first setup."""
    results: dict[Setup, list[Result]] = {setup: [] for setup in setups}
    for _ in range(args.pairs):
        for setup in setups:
            with tempfile.TemporaryDirectory() as tmp:
                measure = measure_bare if args.ceiling_only else measure_server
                results[setup].append(measure(args, accounts, Path(tmp), setup))
    base = results[setups[0]]
    print(f"\nmedians over {args.pairs} rounds, setups in turns; ratios to '{setups[0]}' "
          "round by round:")
    for setup in setups:
        runs = results[setup]
        rates = [r.stats.moves / r.elapsed for r in runs]
        cpus = [1000 * (r.cpu or 0) / max(1, r.stats.moves) for r in runs]
        p99s = [r.percentile(0.99) for r in runs]
        line = (f"  {setup}: {statistics.median(rates):.0f} moves/s, "
                f"{statistics.median(cpus):.3f} ms CPU per move (summed over its processes), "
                f"p99 {statistics.median(p99s):.1f} ms")
        if all(r.redis and r.stats.moves for r in runs):
            def per_move(key: str, runs: list[Result] = runs) -> float:
                return statistics.median(r.redis[key] / r.stats.moves for r in runs)
            line += (f"; Redis per move {per_move('commands'):.1f} commands, "
                     f"{per_move('bytes_in'):.0f} B in, {per_move('bytes_out'):.0f} B out, "
                     f"{1e6 * per_move('cpu'):.0f} us CPU")
        if setup != setups[0]:
            rate_ratios = [a / (b.stats.moves / b.elapsed)
                           for a, b in zip(rates, base, strict=True)]
            cpu_ratios = [c / (1000 * (b.cpu or 0) / max(1, b.stats.moves))
                          for c, b in zip(cpus, base, strict=True)]
            line += (f"; moves/s x{statistics.median(rate_ratios):.2f} "
                     f"({', '.join(f'{r:.2f}' for r in rate_ratios)}), CPU per move "
                     f"x{statistics.median(cpu_ratios):.2f} "
                     f"({', '.join(f'{r:.2f}' for r in cpu_ratios)})")
        print(line)


def pin(args: argparse.Namespace, servers: list[Server]) -> None:
    """With --pin, every server process on the first core (the bots have the second)."""
    if args.pin:
        for server in servers:
            os.sched_setaffinity(server.process.pid, {0})


def measure_bare(args: argparse.Namespace, accounts: int, log_dir: Path,
                 setup: Setup) -> Result:
    """One measurement of `setup.processes` fresh bare ceiling servers (`--frame-bytes`
    frames), the tables spread over them like the real servers' (`--by-table`)."""
    with ExitStack() as stack:
        servers = []
        for n in range(setup.processes):
            (log_dir / str(n)).mkdir()
            servers.append(stack.enter_context(run_bare(args.frame_bytes, log_dir / str(n))))
        pin(args, servers)
        result = asyncio.run(drive(
            f"ceiling x{setup.processes}, {args.frame_bytes}-byte frames", servers,
            tables=args.tables, by_table=args.by_table, think=args.think, warmup=args.warmup,
            duration=args.duration, accounts=accounts, long_game=False, real=False))
    result.print()
    return result


def measure_server(args: argparse.Namespace, accounts: int, log_dir: Path,
                   setup: Setup) -> Result:
    """One measurement of fresh `domino serve` processes on a database and key prefix of
    their own."""
    with private_server(args.redis, setup.source, log_dir, setup.processes) as servers:
        pin(args, servers)
        label = f"server ({setup}), {args.tables} tables, think {args.think:g} s"
        try:
            result = asyncio.run(drive(
                label, servers, tables=args.tables, by_table=args.by_table,
                think=args.think, warmup=args.warmup, duration=args.duration,
                accounts=accounts, long_game=args.long_game, real=True,
                lobby_watchers=args.lobby, redis_url=args.redis))
        except BaseException:
            for server in servers:
                print(server.output()[-5000:], file=sys.stderr)
            raise
        result.print()
        problems = [line for server in servers for line in server.output().splitlines()
                    if " INFO " not in line and not line.startswith(("INFO", "Domino server"))]
        if problems:
            print(f"server log ({len(problems)} lines besides INFO), last ones:")
            print("\n".join(problems[-15:]))
    return result


if __name__ == "__main__":
    sys.exit(main())
