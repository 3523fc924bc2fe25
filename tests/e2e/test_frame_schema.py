"""Every frame the server sends in a whole game of every variant (GET /api/variants) fits
the committed JSON Schema, docs/protocol.schema.json: the players' and a spectator's on
two server processes, with the joins, a chat line, a rematch offer, and a lobby socket
that watches the tables come and go; and so does every message the two processes send
each other meanwhile (read from their Redis channels; of a change's announcement, its
header line). tests/protocol_schema.py does the checking; its own test shows it catching
a renamed field."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from tests.e2e.client import Chooser, Player, register
from tests.e2e.game import Seated, play_game
from tests.e2e.test_family import GeneralDirector
from tests.protocol_schema import problems
from tests.servers import Server


def _director(variant: dict[str, Any]) -> Callable[[Seated], Chooser] | None:
    """How the seats choose their moves: at random, except where random moves would not
    end the game soon (General ends on time or on Generals: the seats, held together,
    make Generals)."""
    if variant["name"] == "general":
        return lambda seated: GeneralDirector(seated.players, seated.table_id)
    return None


async def _request(player: Player, message: dict[str, Any]) -> dict[str, Any]:
    """`message`'s reply, sent again while a socket that just played fast is rate limited."""
    while True:
        reply = await player.request(message)
        if reply.get("code") != "rate_limited":
            return reply
        await asyncio.sleep(0.2)


def _check(frames: list[dict[str, Any]], seen: Counter[str], where: str) -> None:
    for frame in frames:
        found = problems(frame)
        assert not found, f"{where}: a {frame.get('type')!r} frame does not fit: {found}"
        seen[frame["type"]] += 1


class Overheard:
    """Every message published on the channels of a Redis prefix, as (channel, bytes).

    A table's and a process's channels are shard channels (app/live/keys.py), which no
    pattern reaches: those with a listener are looked for every few milliseconds and
    listened to as well (a message sent before one is found is not heard)."""

    def __init__(self, redis_url: str, prefix: str) -> None:
        self.client = aioredis.from_url(redis_url)
        self.pattern = f"{prefix}:*"
        self.heard: list[tuple[str, bytes]] = []
        self.shards: set[bytes] = set()

    async def __aenter__(self) -> Overheard:
        self.pubsub = self.client.pubsub()
        await self.pubsub.psubscribe(self.pattern)
        self.reader = asyncio.create_task(self._read())
        self.finder = asyncio.create_task(self._find_shard_channels())
        return self

    async def _find_shard_channels(self) -> None:
        while True:
            found = set(await self.client.execute_command(
                "PUBSUB", "SHARDCHANNELS", self.pattern))
            if found - self.shards:
                await self.pubsub.ssubscribe(*(found - self.shards))
                self.shards |= found
            await asyncio.sleep(0.005)

    async def _read(self) -> None:
        while True:
            message = await self.pubsub.get_message(timeout=1.0)
            if message is not None and message["type"] in ("pmessage", "smessage"):
                self.heard.append((message["channel"].decode(), message["data"]))

    async def __aexit__(self, *_: object) -> None:
        for task in (self.finder, self.reader):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.pubsub.aclose()
        await self.client.aclose()

    def check(self, seen: Counter[str]) -> None:
        for channel, data in self.heard:
            if channel.endswith(":ch:players"):
                direction = "PlayerNotice"
            elif channel.endswith(":ch:tournaments"):
                direction = "TournamentNote"
            else:
                direction = "InterProcess"
            # a change's announcement: the header line, then the state and the views
            message = json.loads(data.split(b"\n", 1)[0])
            found = problems(message, direction)
            assert not found, f"{channel}: a message does not fit: {found}: {data[:300]!r}"
            seen[f"{direction}:{message.get('kind', '')}"] += 1


@pytest.mark.timeout(1800)
async def test_every_frame_of_a_game_of_every_variant_fits_the_schema(
    server_pair: tuple[Server, Server], redis_url: str, redis_prefix: str,
) -> None:
    async with Overheard(redis_url, f"{redis_prefix}_pair") as overheard:
        seen = await _play_every_variant(server_pair)
    overheard.check(seen)
    assert {"InterProcess:change", "InterProcess:update", "InterProcess:presence",
            "InterProcess:chat", "InterProcess:play"} <= set(seen), seen


async def _play_every_variant(server_pair: tuple[Server, Server]) -> Counter[str]:
    """Every variant played; then, with every socket closed (a long check must not keep
    a socket from answering its pings), every frame they were sent checked."""
    async with httpx.AsyncClient(base_url=server_pair[0].url, timeout=30) as http:
        variants = (await http.get("/api/variants")).json()
        watcher = await register(http)
    assert variants
    lobby = await Player(server_pair[1].ws_url, watcher).connect()
    assert (await lobby.request({"type": "lobby.subscribe"}))["type"] == "lobby"
    assert (await lobby.request({"type": "ping"}))["type"] == "pong"
    assert (await lobby.request({"type": "no.such"}))["code"] == "bad_request"
    sockets: list[tuple[str, Player]] = []
    rng = random.Random(7)
    for variant in variants:
        name = variant["name"]
        game = await play_game(
            list(server_pair), variant=name, seats=variant["players"][0],
            seed=rng.randrange(2**32), timeout=900, director=_director(variant), rated=False,
        )
        first, second = game.players[0], game.players[1]
        said = await _request(first, {"type": "chat", "table_id": game.table_id, "text": "gg"})
        assert said["type"] == "chat", said
        await second.expect(lambda m: m["type"] == "chat" and m["text"] == "gg")
        offer = await _request(first, {"type": "rematch", "table_id": game.table_id})
        assert offer["type"] == "rematch" and offer["offers"] == [0], offer
        await game.spectator.expect(
            lambda m: m["type"] == "table.state" and m["view"]["rematch"] is not None)
        for seat, player in enumerate(game.players):
            sockets.append((f"{name}, seat {seat}", player))
        sockets.append((f"{name}, the spectator", game.spectator))
        for player in [*game.players, game.spectator]:
            await player.close()
    await lobby.expect(lambda m: m["type"] == "lobby.remove", timeout=90)
    await lobby.close()
    seen: Counter[str] = Counter()
    for where, player in [*sockets, ("the lobby", lobby)]:
        _check(player.frames, seen, where)
    assert {"welcome", "table.state", "chat", "rematch", "lobby", "lobby.update",
            "lobby.remove", "pong", "error"} <= set(seen), seen
    return seen
