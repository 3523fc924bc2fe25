"""The players of benchmarks/faults.py: bots that behave like the browser client, and what
they are counted for (see that file's description)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

from tests.faults.gate import RedisGate
from tests.servers import Server

TURN_SECONDS = 15
# How long a fault run may last at most.
RUN_SECONDS = 300
# Once every player told of his table is done, how long those never told are waited for.
UNTOLD_GRACE = 20
# How long after a `not_found` the browser asks for its table again before it shows it gone.
NOT_FOUND_RECHECK = 1.0
# What a player is told of a table made for him.
TOLD = ("tournament.pairing", "seek.matched")


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
    not_found: int = 0  # tabs shown their table gone after a second `not_found`
    not_found_answers: int = 0  # every `not_found` a subscription was answered with
    untold: int = 0
    longest_wait: float = 0.0
    seeks_ended: int = 0
    notes: list[str] = field(default_factory=list)


class Servers:
    """The processes of a run; one killed, or stopped by a deploy (`retire`), is skipped when
    a bot reconnects or a request is sent."""

    def __init__(self, servers: list[Server], gates: list[RedisGate]) -> None:
        self.all = servers
        self.gates = gates  # each process's gate to Redis, when the fault has them
        self.retired: set[int] = set()
        self.sockets: set[Any] = set()  # every bot's open socket, to drop them all at once
        self.deadline = time.monotonic() + RUN_SECONDS

    def up(self, preferred: int) -> Server:
        alive = [s for s in self.all if s.process.poll() is None and id(s) not in self.retired]
        return alive[preferred % len(alive)]

    def retire(self, server: Server) -> None:
        self.retired.add(id(server))

    async def drop_sockets(self) -> None:
        """Every player's connection drops at once (they all come back)."""
        await asyncio.gather(*(ws.close() for ws in list(self.sockets)),
                             return_exceptions=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Bot:
    """One player's tab. It knows its table from the start (`table_id`) or learns it from the
    notice it is sent (a pairing, a seek's match)."""

    def __init__(self, servers: Servers, index: int, token: str, table_id: str | None,
                 seat: int | None, tally: Tally, rng: random.Random) -> None:
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
        self.removed = False  # shown its table gone
        self.moving = -1
        self.greeted = False
        self.asked_again = False
        self.asked_at: float | None = None  # when he asked for a table (a seek, a round)
        self.told_at: float | None = None

    @property
    def done(self) -> bool:
        return self.final is not None or self.removed

    async def run(self) -> None:
        first = True
        while not self.done and time.monotonic() < self.servers.deadline:
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
                        await self.session(ws)
                    finally:
                        self.servers.sockets.discard(ws)
            except (TimeoutError, OSError, websockets.WebSocketException):
                continue

    async def send(self, ws: Any, message: dict[str, Any]) -> None:
        await ws.send(orjson.dumps(message).decode())

    async def subscribe(self, ws: Any) -> None:
        await self.send(ws, {"type": "table.subscribe", "table_id": self.table_id, "id": "sub"})

    async def session(self, ws: Any) -> None:
        # A new socket: whatever was in flight on the old one is answered by the state read
        # after hello, and a move it shows as ours to make is ours to make again.
        self.pending.clear()
        self.moving = -1
        await self.send(ws, {"type": "hello", "token": self.token, "id": "hello"})
        while (left := self.servers.deadline - time.monotonic()) > 0:
            # A tab with a table hears from it (heartbeats); one waiting to be told may not.
            wait = min(30, left) if self.table_id is not None else left
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), wait))
            if not await self.on_message(ws, msg):
                return

    async def on_message(self, ws: Any, msg: dict[str, Any]) -> bool:
        """Act on one message; False when the tab is done (its game over, or shown gone)."""
        kind = msg.get("type")
        if msg.get("id") == "hello":
            if kind == "error":  # unavailable: say hello again shortly
                self.tally.unavailable += 1
                await asyncio.sleep(msg.get("retry_ms", 500) / 1000)
                await self.send(ws, {"type": "hello", "token": self.token, "id": "hello"})
            else:
                self.greeted = True
                if self.table_id is not None:
                    await self.subscribe(ws)
            return True
        if kind in TOLD:
            if self.table_id is None:
                self.table_id = msg["table_id"]
                self.told_at = time.monotonic()
                await self.subscribe(ws)
            return True
        if kind == "seek.ended":
            self.tally.seeks_ended += 1
            return True
        if kind == "error":
            move = self.pending.pop(msg.get("id", ""), None)
            code = msg.get("code")
            if code == "not_found" and msg.get("id") == "sub":
                # As the browser: asked for once more a moment later, then shown gone.
                self.tally.not_found_answers += 1
                if self.asked_again:
                    self.tally.not_found += 1
                    self.removed = True
                    return False
                self.asked_again = True
                await asyncio.sleep(NOT_FOUND_RECHECK)
                await self.subscribe(ws)
                return True
            if code == "unavailable":
                self.tally.unavailable += 1
                await asyncio.sleep(msg.get("retry_ms", 500) / 1000)
            if code in ("unavailable", "stale", "not_your_turn", "not_known") or move is None:
                self.moving = -1
                await self.subscribe(ws)
            return True
        if kind == "table.removed":
            self.tally.removed += 1
            self.removed = True
            return False
        if kind == "table.heartbeat":
            if msg["tables"].get(self.table_id, 0) > self.seq:
                await self.subscribe(ws)
            return True
        if kind != "table.state" or msg.get("table_id") != self.table_id:
            return True
        self.asked_again = False
        move = self.pending.pop(msg.get("id", ""), None)
        if move is not None:
            self.acked.append(move)
        if msg["seq"] < self.seq:
            return True
        self.seq = msg["seq"]
        self.timeouts += sum(1 for e in msg["events"] if e["type"] == "timeout")
        view = msg["view"]
        if self.seat is None:
            self.seat = view["you"]
        if view["status"] == "finished":
            self.final = msg
            return False
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
        return True


async def sign_up(http: httpx.AsyncClient) -> str:
    """A new account's token."""
    r = await http.post("/api/auth/register", json={
        "username": f"f{secrets.token_hex(6)}", "password": "password123"})
    r.raise_for_status()
    http.cookies.clear()
    return str(r.json()["token"])


async def new_game(http: httpx.AsyncClient, servers: Servers, tally: Tally, index: int,
                   rng: random.Random, turn_seconds: int = TURN_SECONDS) -> list[Bot]:
    tokens = [await sign_up(http) for _ in range(4)]
    auth = [bearer(t) for t in tokens]
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
                        headers=bearer(bots[3].token), json={"seat": 3})
    r.raise_for_status()


async def settle(servers: Servers, bots: list[Bot]) -> None:
    """End the run `UNTOLD_GRACE` after every player told of his table is done, when only
    players never told are left (they would wait to the end of the run)."""
    while not all(b.done for b in bots) and time.monotonic() < servers.deadline:
        await asyncio.sleep(1)
        told = [b for b in bots if b.table_id is not None]
        if told and all(b.done for b in told):
            servers.deadline = min(servers.deadline, time.monotonic() + UNTOLD_GRACE)


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
          tally: Tally, restored: bool) -> None:
    """Count the acknowledged moves of one game missing from its record or found twice,
    and its timeouts (a bot that read the table again was shown none of its events: the
    result says so too). `restored`: the games went on from their snapshots (the moves of
    the round then being played are rolled back, not lost)."""
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
                if restored:
                    tally.rolled_back += 1
                else:
                    tally.lost_moves += 1
            elif found > 1:
                tally.doubled += 1
