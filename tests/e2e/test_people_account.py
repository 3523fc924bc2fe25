"""One's own account (PROTOCOL §2c): export it, delete it; on two processes."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from app.engine import replay_record
from tests.e2e.client import Account, Player, autoplay, create_table, register
from tests.servers import Server

PASSWORD = "password123"  # tests.e2e.client.register's


async def _written(http: httpx.AsyncClient, game_id: str) -> dict:
    for _ in range(200):
        found = await http.get(f"/api/games/{game_id}")
        if found.status_code == 200:
            return dict(found.json())
        await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id} never written")


async def _finished_game(a: httpx.AsyncClient, b: httpx.AsyncClient, x: Account,
                         y: Account) -> tuple[str, str]:
    table = await create_table(a, x, seats=2, rated=True)
    assert (await b.post(f"/api/tables/{table['id']}/join", headers=y.headers,
                         json={})).status_code == 200
    playing = (await a.get(f"/api/tables/{table['id']}")).json()
    assert playing["status"] == "playing"
    # Each plays once: a game left before every seat has moved is aborted and pays no
    # rating (PROTOCOL §2g), and this one must pay.
    moved: dict[int, int] = {x.id: 0, y.id: 0}

    def mover(who: Account) -> Any:
        async def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
            moved[who.id] += 1
            return dict(rng.choice(view["legal"]))
        return choose

    sockets = [await Player(http.base_url.copy_with(scheme="ws").join("/ws").__str__(),
                            who).connect() for http, who in ((a, x), (b, y))]
    for s in sockets:
        await s.request({"type": "table.subscribe", "table_id": table["id"]})
    await asyncio.gather(*(autoplay(s, table["id"], random.Random(i), timeout=60,
                                    choose=mover(who), stop=lambda _: min(moved.values()) > 0)
                           for i, (s, who) in enumerate(zip(sockets, (x, y), strict=True))))
    for s in sockets:
        await s.close()
    return str(playing["game_id"]), str(table["id"])


async def test_a_deleted_account_signs_in_no_more_and_its_games_replay_under_deleted_n(
    server_pair: tuple[Server, Server],
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        x, y = await register(a), await register(b)
        game_id, table_id = await _finished_game(a, b, x, y)
        # while the game is played: 409; a wrong password: 401; nothing changes
        playing = await a.request("DELETE", "/api/me", headers=x.headers,
                                  json={"password": PASSWORD})
        assert playing.status_code == 409, playing.text
        wrong = await a.request("DELETE", "/api/me", headers=x.headers,
                                json={"password": "not the password"})
        assert wrong.status_code == 401
        assert (await b.get("/api/me", headers=x.headers)).status_code == 200
        assert (await a.post(f"/api/tables/{table_id}/leave", headers=x.headers)).status_code \
            == 200
        record = await _written(b, game_id)
        assert record["players"] == [x.name, y.name]

        exported = await b.get("/api/me/export", headers=x.headers)
        assert exported.status_code == 200
        data = exported.json()
        assert data["account"]["name"] == x.name and data["account"]["id"] == x.id
        assert "goat" in data["ratings"]
        assert [g["players"] for g in data["games"]] == [[x.name, y.name]]
        assert "password" not in exported.text and "argon2" not in exported.text
        board = (await a.get("/api/leaderboard?variant=goat&limit=100")).json()
        assert x.name in [e["player"] for e in board["entries"]]

        gone = await b.request("DELETE", "/api/me", headers=x.headers,
                               json={"password": PASSWORD})
        assert gone.status_code == 204, gone.text
        # signed out everywhere, and no sign-in works any more, on either process
        for http in (a, b):
            assert (await http.get("/api/me", headers=x.headers)).status_code == 401
            login = await http.post("/api/auth/login",
                                    json={"username": x.name, "password": PASSWORD})
            assert login.status_code == 401
            assert (await http.get(f"/api/players/{x.name}")).status_code == 404
        # the name stays taken, in any case
        again = await a.post("/api/auth/register",
                             json={"username": x.name.upper(), "password": PASSWORD})
        assert again.status_code == 409
        # the game keeps its record under deleted-<n>, and replays
        shown = f"deleted-{x.id}"
        record = await _written(a, game_id)
        assert record["players"] == [shown, y.name]
        replay_record(record)
        positions = await a.get(f"/api/games/{game_id}/positions")
        assert positions.status_code == 200
        # the other player's page shows the game; no leaderboard shows the deleted one
        page = (await b.get(f"/api/players/{y.name}")).json()
        assert game_id in [g["game_id"] for g in page["recent_games"]]
        board = (await a.get("/api/leaderboard?variant=goat&limit=100")).json()
        listed = [e["player"] for e in board["entries"]]
        assert x.name not in listed and shown not in listed
        assert y.name in listed
