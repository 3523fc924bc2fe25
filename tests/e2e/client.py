"""Real clients for end-to-end tests: HTTP accounts and tables, websocket players.

Every frame a `Player` receives is kept (`frames`), so tests can scan all of them
afterwards, e.g. for tiles a seat must not have seen.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

Message = dict[str, Any]


@dataclass
class Account:
    name: str
    token: str
    id: int

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def register(http: httpx.AsyncClient, name: str | None = None) -> Account:
    name = name or f"p{secrets.token_hex(5)}"
    r = await http.post("/api/auth/register", json={"username": name, "password": "password123"})
    assert r.status_code == 201, r.text
    body = r.json()
    # Registering also sets the session cookie; these accounts use Bearer tokens only.
    http.cookies.clear()
    return Account(body["player"]["name"], body["token"], body["player"]["id"])


async def create_table(
    http: httpx.AsyncClient, owner: Account, *, seats: int = 4, variant: str = "goat",
    options: dict[str, Any] | None = None, turn_seconds: int = 60, rated: bool = True,
    round_pause_seconds: int = 0, reserve_seconds: int = 0, on_timeout: str | None = None,
) -> Message:
    """A new table (no reserve unless asked: tests that wait for a timeout stay short)."""
    extra = {} if on_timeout is None else {"on_timeout": on_timeout}
    r = await http.post(
        "/api/tables",
        headers=owner.headers,
        json={"variant": variant, "seats": seats, "options": options or {},
              "turn_seconds": turn_seconds, "rated": rated,
              "round_pause_seconds": round_pause_seconds,
              "reserve_seconds": reserve_seconds, **extra},
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


async def join(
    http: httpx.AsyncClient, table_id: str, who: Account, seat: int | None = None
) -> int:
    body = {} if seat is None else {"seat": seat}
    r = await http.post(f"/api/tables/{table_id}/join", headers=who.headers, json=body)
    assert r.status_code == 200, r.text
    return int(r.json()["seat"])


@dataclass
class Player:
    """One websocket: sends messages, keeps every frame it receives."""

    ws_url: str
    account: Account | None = None
    frames: list[Message] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    closed: int | None = None

    async def connect(self) -> Player:
        self._ws = await websockets.connect(self.ws_url, max_size=2**22)
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())
        if self.account is not None:
            await self.send({"type": "hello", "token": self.account.token, "id": "hi"})
            await self.expect(lambda m: m["type"] == "welcome")
        return self

    async def _read(self) -> None:
        try:
            async for text in self._ws:
                assert isinstance(text, str)
                self.raw.append(text)
                self.frames.append(json.loads(text))
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = self._ws.close_code
            async with self._changed:
                self._changed.notify_all()

    async def send(self, message: Message) -> None:
        await self._ws.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self._ws.send(data)

    async def close(self) -> None:
        await self._ws.close()
        await self._reader

    async def expect(
        self, pred: Callable[[Message], bool], *, after: int = -1, timeout: float = 10
    ) -> Message:
        """The first frame after index `after` that satisfies `pred` (waits for it)."""
        index = await self.expect_index(pred, after=after, timeout=timeout)
        return self.frames[index]

    async def expect_index(
        self, pred: Callable[[Message], bool], *, after: int = -1, timeout: float = 10
    ) -> int:
        async def find() -> int:
            start = after + 1
            while True:
                for i in range(start, len(self.frames)):
                    if pred(self.frames[i]):
                        return i
                start = len(self.frames)
                if self.closed is not None:
                    raise AssertionError(f"socket closed ({self.closed}) while waiting")
                async with self._changed:
                    await self._changed.wait()

        return await asyncio.wait_for(find(), timeout)

    async def request(self, message: Message, timeout: float = 10) -> Message:
        """Send `message` with a fresh id and return the reply or error carrying that id."""
        msg_id = secrets.token_hex(4)
        mark = len(self.frames) - 1
        await self.send({**message, "id": msg_id})
        return await self.expect(lambda m: m.get("id") == msg_id, after=mark, timeout=timeout)

    def states(self, table_id: str) -> list[Message]:
        return [f for f in self.frames if f["type"] == "table.state" and f["table_id"] == table_id]

    def latest(self, table_id: str) -> Message | None:
        states = self.states(table_id)
        return states[-1] if states else None


Chooser = Callable[[Message, random.Random], Awaitable[Message]]


async def autoplay(
    player: Player, table_id: str, rng: random.Random, *, stop: Callable[[Message], bool]
    | None = None, timeout: float = 120, choose: Chooser | None = None,
) -> Message:
    """Play random legal moves for `player` until the game ends; returns the final state.

    `choose` (given the view) picks one of its legal moves instead of chance. A move is
    sent as `view.legal` lists it, with the variant's extra fields (PROTOCOL §2a).
    Errors in reply to its moves are collected in the returned state's "errors" list.
    """
    errors: list[Message] = []
    handled = -1

    async def loop() -> Message:
        nonlocal handled
        while True:
            index = await player.expect_index(
                lambda m: m["type"] == "table.state" and m["table_id"] == table_id,
                after=handled, timeout=timeout,
            )
            handled = index
            # Only the newest state matters: skip to it.
            latest = max(
                i for i, m in enumerate(player.frames)
                if m["type"] == "table.state" and m["table_id"] == table_id
            )
            handled = max(handled, latest)
            state = player.frames[handled]
            view = state["view"]
            if view["status"] == "finished":
                return {**state, "errors": errors}
            if stop is not None and stop(state):
                return {**state, "errors": errors}
            if view["turn"] is not None and view["turn"] == view["you"] and view["legal"]:
                move = rng.choice(view["legal"]) if choose is None else await choose(view, rng)
                while True:
                    reply = await player.request(
                        {**move, "type": "play", "table_id": table_id, "seq": state["seq"]}
                    )
                    if reply.get("code") != "rate_limited":
                        break
                    # A bot plays faster than the per-connection limit allows: wait a bit.
                    await asyncio.sleep(0.2)
                if reply["type"] == "error":
                    errors.append(reply)

    return await asyncio.wait_for(loop(), timeout)
