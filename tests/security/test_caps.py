"""Caps: waiting tables and open sockets per player, waiting tables that expire, and a
bounded lobby list, on two processes sharing Redis."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest
import websockets

from tests.e2e.client import Account, Player, create_table, join, register
from tests.security.conftest import servers
from tests.servers import Server

WAIT_SECONDS = 4


@pytest.fixture(scope="module")
def pair(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    with servers(
        pg_url, redis_url, tmp_path_factory.mktemp("caps"), count=2,
        DOMINO_MAX_WAITING_TABLES="2", DOMINO_MAX_SOCKETS_PER_PLAYER="3",
        DOMINO_WAITING_TABLE_SECONDS=str(WAIT_SECONDS), DOMINO_LOBBY_MAX_TABLES="3",
    ) as running:
        yield running


async def _create(server: Server, owner: Account, seats: int = 2) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        return await http.post("/api/tables", headers=owner.headers,
                               json={"variant": "goat", "seats": seats, "rated": False})


async def test_a_player_may_keep_only_a_few_tables_waiting(pair: list[Server]) -> None:
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        owner, guest = await register(http), await register(http)
    first = await _create(pair[0], owner)
    second = await _create(pair[1], owner)
    assert first.status_code == second.status_code == 201
    third = await _create(pair[0], owner, seats=4)
    assert third.status_code == 409 and "waiting" in third.json()["detail"]
    async with httpx.AsyncClient(base_url=pair[1].url, timeout=30) as http:
        listed = (await http.get("/api/tables")).json()
        assert [t["created_by"] for t in listed].count(owner.name) == 2
        # A table that starts no longer waits: its place is free again.
        await join(http, first.json()["id"], guest)
    assert (await _create(pair[1], owner)).status_code == 201


async def test_a_player_may_open_only_a_few_sockets(pair: list[Server]) -> None:
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        me = await register(http)
    opened = [await Player(pair[i % 2].ws_url, me).connect() for i in range(3)]
    async with websockets.connect(pair[1].ws_url) as refused:
        await refused.send(json.dumps({"type": "hello", "token": me.token}))
        error = json.loads(await asyncio.wait_for(refused.recv(), 5))
        assert error["code"] == "rate_limited" and "connections" in error["message"]
        await asyncio.wait_for(refused.wait_closed(), 5)
        assert refused.close_code == 1013
    # The cookie counts the same as hello.
    cookie = {"Cookie": f"domino_session={me.token}"}
    async with websockets.connect(pair[0].ws_url, additional_headers=cookie) as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["code"] == "rate_limited"
    # Spectating needs no sign-in and is not capped; a closed socket frees its place.
    spectator = await Player(pair[0].ws_url).connect()
    assert (await spectator.request({"type": "ping"}))["type"] == "pong"
    await opened[0].close()
    again = await Player(pair[0].ws_url, me).connect()
    for p in [*opened[1:], again, spectator]:
        await p.close()


async def test_a_waiting_table_nobody_fills_expires_and_leaves_the_lobby(
    pair: list[Server],
) -> None:
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        owner = await register(http)
        table = await create_table(http, owner, seats=4)
        watcher = await Player(pair[1].ws_url, await register(http)).connect()
        lobby = await watcher.request({"type": "lobby.subscribe"})
        assert table["id"] in [t["id"] for t in lobby["tables"]]
        gone = await watcher.expect(
            lambda m: m["type"] == "lobby.remove" and m["table_id"] == table["id"],
            timeout=WAIT_SECONDS + 15,
        )
        assert gone["table_id"] == table["id"]
        assert (await http.get(f"/api/tables/{table['id']}")).status_code == 404
        # and its place among the owner's waiting tables is free again
        assert (await _create(pair[0], owner)).status_code == 201
        await watcher.close()


async def test_a_courtyard_waiting_again_for_a_player_expires_as_a_waiting_table_does(
    pair: list[Server],
) -> None:
    """PROTOCOL §2d: after a game, a seat nobody came for leaves the courtyard waiting for
    a join; three staying at it do not keep it for ever."""
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        a, b, c, d = [await register(http) for _ in range(4)]
        made = await http.post("/api/tables", headers=a.headers, json={
            "variant": "goat", "seats": 4, "options": {"teams": True}, "turn_seconds": 30,
            "round_pause_seconds": 0, "rated": False, "courtyard": True})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        for who in (b, c, d):
            await join(http, table_id, who)
        # (its wait as a new table is over: it plays)
        await asyncio.sleep(WAIT_SECONDS + 2)
        assert (await http.get(f"/api/tables/{table_id}")).json()["status"] == "playing"
        # b leaves (resigns), nobody waits: the next game waits for a fourth
        assert (await http.post(f"/api/tables/{table_id}/leave",
                                headers=b.headers)).status_code == 200
        async with httpx.AsyncClient(base_url=pair[1].url, timeout=30) as other:
            waited = False
            for _ in range(WAIT_SECONDS * 20 + 300):
                shown = await other.get(f"/api/tables/{table_id}")
                if shown.status_code == 404:
                    break
                table = shown.json()
                if table["status"] == "waiting":
                    assert table["games"] == 1 and len(
                        [s for s in table["seats"] if s["player"] is not None]) == 3
                    waited = True
                await asyncio.sleep(0.1)
            assert waited and shown.status_code == 404, "the courtyard waits for ever"


async def test_the_lobby_lists_a_bounded_number_newest_waiting_first(pair: list[Server]) -> None:
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        owners = [await register(http) for _ in range(4)]
        made = [await create_table(http, owner, seats=3) for owner in owners]
        listed = (await http.get("/api/tables")).json()
        assert [t["id"] for t in listed] == [t["id"] for t in reversed(made)][:3]
        watcher = await Player(pair[1].ws_url, owners[0]).connect()
        lobby = await watcher.request({"type": "lobby.subscribe"})
        assert [t["id"] for t in lobby["tables"]] == [t["id"] for t in listed]
        await watcher.close()
