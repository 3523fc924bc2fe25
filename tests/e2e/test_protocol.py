"""The websocket and HTTP contract of live tables: errors, their order, and no side effects."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from tests.e2e.client import Account, Message, Player, create_table, join, register
from tests.e2e.game import Seated, seat_players
from tests.servers import Server


async def current(seated: Seated, server: Server) -> Message:
    """The table as a fresh spectator sees it (a re-read, not a cached frame)."""
    probe = await Player(server.ws_url).connect()
    state = await probe.request({"type": "table.subscribe", "table_id": seated.table_id})
    await probe.close()
    return state


async def on_turn(seated: Seated, server: Server) -> tuple[int, Message]:
    state = await current(seated, server)
    seat = state["view"]["turn"]
    mine = await seated.players[seat].request(
        {"type": "table.subscribe", "table_id": seated.table_id}
    )
    return seat, mine


def move_of(state: Message, seq: int | None = None) -> Message:
    legal = state["view"]["legal"][0]
    return {"type": "play", "table_id": state["table_id"], "tile": legal["tile"],
            "end": legal["end"], "seq": state["seq"] if seq is None else seq}


async def test_a_move_is_applied_once_however_often_it_is_sent(server: Server) -> None:
    seated = await seat_players([server])
    seat, state = await on_turn(seated, server)
    me = seated.players[seat]
    # A double click: the same move twice at once on one socket.
    await me.send({**move_of(state), "id": 1})
    await me.send({**move_of(state), "id": 2})
    replies = [await me.expect(lambda m, i=i: m.get("id") == i) for i in (1, 2)]
    assert sorted(r["type"] for r in replies) == ["error", "table.state"]
    assert [r["code"] for r in replies if r["type"] == "error"] == ["stale"]
    assert (await current(seated, server))["seq"] == state["seq"] + 1
    # And again later: still stale, never a second move.
    again = await me.request(move_of(state))
    assert again["code"] == "stale"

    # Two tabs of the next player send his move at the same moment.
    seat, state = await on_turn(seated, server)
    tab = await Player(server.ws_url, seated.accounts[seat]).connect()
    assert (await tab.request({"type": "table.subscribe", "table_id": seated.table_id}))[
        "view"
    ]["hand"] == state["view"]["hand"]
    first, second = await asyncio.gather(
        seated.players[seat].request(move_of(state)), tab.request(move_of(state))
    )
    assert sorted([first["type"], second["type"]]) == ["error", "table.state"]
    assert {first.get("code"), second.get("code")} == {None, "stale"}
    after = await current(seated, server)
    assert after["seq"] == state["seq"] + 1
    # Both tabs of that player, and everyone else, got the one new state.
    for p in [*seated.players, tab]:
        await p.expect(lambda m: m["type"] == "table.state" and m["seq"] == after["seq"])


async def test_refused_commands_get_their_code_and_change_nothing(server: Server) -> None:
    seated = await seat_players([server])
    seat, state = await on_turn(seated, server)
    me = seated.players[seat]
    other = seated.players[(seat + 1) % 4]
    seq = state["seq"]
    hand = set(state["view"]["hand"])
    not_mine = next(
        f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in hand
    )
    async with httpx.AsyncClient(base_url=server.url) as http:
        stranger_account = await register(http)
        elsewhere = await create_table(http, stranger_account)
    stranger = await Player(server.ws_url, stranger_account).connect()
    anonymous = await Player(server.ws_url).connect()

    cases: list[tuple[Player, dict[str, Any], str]] = [
        (other, move_of(state), "not_your_turn"),
        (other, move_of(state, seq - 1), "stale"),  # stale comes before not_your_turn
        (me, move_of(state, seq + 1), "stale"),
        (me, {**move_of(state), "tile": not_mine}, "illegal_move"),
        (me, {**move_of(state), "tile": "9-9"}, "illegal_move"),
        (me, {**move_of(state), "end": "middle"}, "illegal_move"),
        (me, {**move_of(state), "table_id": elsewhere["id"]}, "not_seated"),
        (me, {**move_of(state), "table_id": "no-such-table"}, "not_found"),
        (stranger, move_of(state), "not_seated"),
        (stranger, {"type": "resign", "table_id": seated.table_id}, "not_seated"),
        (stranger, {"type": "chat", "table_id": seated.table_id, "text": "hi"}, "not_seated"),
        (anonymous, move_of(state), "unauthorized"),
        (anonymous, {**move_of(state), "table_id": "no-such-table"}, "unauthorized"),
        (anonymous, {"type": "resign", "table_id": seated.table_id}, "unauthorized"),
        (anonymous, {"type": "lobby.subscribe"}, "unauthorized"),
        (anonymous, {"type": "table.subscribe", "table_id": "no-such-table"}, "not_found"),
        (me, {"type": "play", "table_id": seated.table_id, "tile": "1-1"}, "bad_request"),
        (me, {**move_of(state), "seq": str(seq)}, "bad_request"),
        (me, {"type": "chat", "table_id": seated.table_id, "text": ""}, "bad_request"),
        (me, {"type": "chat", "table_id": seated.table_id, "text": "x" * 301}, "bad_request"),
        (me, {"type": "teleport", "table_id": seated.table_id}, "bad_request"),
        (me, {"table_id": seated.table_id}, "bad_request"),
    ]
    for who, message, code in cases:
        reply = await who.request(message)
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        assert isinstance(reply["message"], str) and reply["message"]

    for raw in ["{not json", "[1, 2]", "42", json.dumps({"type": "ping", "pad": "x" * 17000})]:
        mark = len(me.frames) - 1
        await me.send_raw(raw)
        reply = await me.expect(lambda m: m["type"] == "error", after=mark)
        assert reply["code"] == "bad_request"
    mark = len(me.frames) - 1
    await me.send_raw(b'{"type": "ping"}')
    assert (await me.expect(lambda m: m["type"] == "error", after=mark))["code"] == "bad_request"

    after = await current(seated, server)
    assert after["seq"] == seq
    # How many watch is presence, not the table: the probes themselves come and go.
    watching = {"spectators": None}
    assert {**after["view"], **watching} == {
        **state["view"], "you": None, "hand": [], "legal": [], **watching
    }
    # The move was still there to be made.
    assert (await me.request(move_of(state)))["type"] == "table.state"


async def test_ids_are_echoed_exactly_and_ping_pongs(server: Server) -> None:
    anonymous = await Player(server.ws_url).connect()
    for msg_id in ["a", 7, 7.5, {"n": [1, "x"]}, None, ""]:
        mark = len(anonymous.frames) - 1
        await anonymous.send({"type": "ping", "id": msg_id})
        pong = await anonymous.expect(lambda m: m["type"] == "pong", after=mark)
        assert "id" in pong and pong["id"] == msg_id and type(pong["id"]) is type(msg_id)
    await anonymous.send({"type": "ping"})
    pong = await anonymous.expect(lambda m: m["type"] == "pong" and "id" not in m)
    assert pong == {"type": "pong"}
    error = await anonymous.request({"type": "nope"})
    assert error["code"] == "bad_request"


async def test_a_bad_token_closes_with_4401(server: Server) -> None:
    async with websockets.connect(server.ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == 4401


async def test_the_session_cookie_authenticates_the_socket(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        account = await register(http)
    cookie = f"domino_session={account.token}"
    async with websockets.connect(server.ws_url, additional_headers={"Cookie": cookie}) as ws:
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert welcome == {"type": "welcome", "player": {"id": account.id, "name": account.name},
                           "protocol": 1}


async def test_a_flood_is_rate_limited(server: Server) -> None:
    anonymous = await Player(server.ws_url).connect()
    for i in range(150):
        await anonymous.send({"type": "ping", "id": i})
    await anonymous.expect(lambda m: m.get("id") == 149)
    codes = [m.get("code") for m in anonymous.frames if m["type"] == "error"]
    pongs = [m for m in anonymous.frames if m["type"] == "pong"]
    assert codes and set(codes) == {"rate_limited"}
    assert len(pongs) + len(codes) == 150 and len(pongs) >= 40
    await asyncio.sleep(1.0)
    assert (await anonymous.request({"type": "ping"}))["type"] == "pong"


async def test_chat_reaches_everyone_at_the_table_and_moves_no_seq(server: Server) -> None:
    seated = await seat_players([server], seats=2)
    before = await current(seated, server)
    said = await seated.players[0].request(
        {"type": "chat", "table_id": seated.table_id, "text": "<b>good luck</b>"}
    )
    assert said["type"] == "chat" and said["from"] == seated.accounts[0].name
    assert said["text"] == "<b>good luck</b>" and isinstance(said["at"], int)
    for p in [seated.players[1], seated.spectator]:
        heard = await p.expect(lambda m: m["type"] == "chat")
        assert {k: heard[k] for k in ("table_id", "from", "text", "at")} == {
            k: said[k] for k in ("table_id", "from", "text", "at")
        }
    # The speaker hears it once: as the reply to his own message.
    assert [m["type"] for m in seated.players[0].frames].count("chat") == 1
    assert (await current(seated, server))["seq"] == before["seq"]


async def test_the_lobby_follows_tables_as_they_change(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        owner, guest = await register(http), await register(http)
        watcher = await Player(server.ws_url, owner).connect()
        lobby = await watcher.request({"type": "lobby.subscribe"})
        assert lobby["type"] == "lobby" and isinstance(lobby["tables"], list)
        table = await create_table(http, owner, seats=2)
        update = await watcher.expect(
            lambda m: m["type"] == "lobby.update" and m["table"]["id"] == table["id"]
        )
        assert update["table"] == table
        assert await join(http, table["id"], guest) == 1
        started = await watcher.expect(
            lambda m: m["type"] == "lobby.update" and m["table"]["status"] == "playing"
        )
        assert started["table"]["game_id"]
        assert [s["player"] for s in started["table"]["seats"]] == [owner.name, guest.name]

        empty = await create_table(http, owner, seats=3, rated=False)
        assert (await http.post(f"/api/tables/{empty['id']}/leave", headers=owner.headers)
                ).status_code == 200
        await watcher.expect(
            lambda m: m["type"] == "lobby.remove" and m["table_id"] == empty["id"]
        )
        assert (await http.get(f"/api/tables/{empty['id']}")).status_code == 404


async def test_the_tables_api_keeps_its_contract(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        a, b, c, d = [await register(http) for _ in range(4)]
        body = {"variant": "goat", "seats": 3, "options": {"fish_rule": "one"},
                "turn_seconds": 45, "rated": False}
        assert (await http.post("/api/tables", json=body)).status_code == 401
        for bad in [{"variant": "chess"}, {"options": {"fish_rule": "some"}},
                    {"options": {"colour": "red"}}, {"turn_seconds": 4},
                    {"turn_seconds": 301}, {"seats": 5}, {"seats": 1},
                    {"round_pause_seconds": -1}, {"round_pause_seconds": 31},
                    # PROTOCOL §2g
                    {"reserve_seconds": -1}, {"reserve_seconds": 601},
                    {"on_timeout": "pause"}, {"rated": True, "on_timeout": "computer"}]:
            r = await http.post("/api/tables", json={**body, **bad}, headers=a.headers)
            assert r.status_code == 422, (bad, r.text)
        r = await http.post("/api/tables", json=body, headers=a.headers)
        assert r.status_code == 201
        table = r.json()
        assert table == {
            "id": table["id"], "variant": "goat", "options": {"fish_rule": "one", "teams": False},
            "seats": [{"seat": 0, "player": a.name}, {"seat": 1, "player": None},
                      {"seat": 2, "player": None}],
            "status": "waiting", "turn_seconds": 45, "rated": False, "created_by": a.name,
            "game_id": None, "round_pause_seconds": 5, "private": False,
            # PROTOCOL §2g's defaults at a casual table
            "reserve_seconds": 60, "on_timeout": "computer",
        }
        tid = table["id"]
        assert (await http.get(f"/api/tables/{tid}")).json() == table
        assert tid in [t["id"] for t in (await http.get("/api/tables")).json()]
        assert (await http.get("/api/tables/nope")).status_code == 404
        defaults = await http.post("/api/tables", json={"variant": "goat"}, headers=d.headers)
        assert defaults.status_code == 201 and defaults.json()["turn_seconds"] == 30
        # a rated table's timeout always ends the game
        assert (defaults.json()["reserve_seconds"], defaults.json()["on_timeout"]) == (60, "end")

        async def join_status(who: Account, payload: dict[str, Any], table_id: str = tid) -> int:
            r = await http.post(f"/api/tables/{table_id}/join", json=payload, headers=who.headers)
            return r.status_code

        assert (await http.post(f"/api/tables/{tid}/join", json={})).status_code == 401
        assert await join_status(b, {}, "nope") == 404
        assert await join_status(a, {}) == 409  # already seated
        assert await join_status(b, {"seat": 0}) == 409  # taken
        assert await join_status(b, {"seat": 2}) == 200
        assert (await http.post(f"/api/tables/{tid}/leave", headers=c.headers)).status_code == 409
        assert (await http.post(f"/api/tables/{tid}/leave", headers=b.headers)).status_code == 200
        assert (await http.get(f"/api/tables/{tid}")).json()["seats"][2]["player"] is None
        r = await http.post(f"/api/tables/{tid}/join", headers=b.headers)  # no body at all
        assert r.status_code == 200 and r.json() == {"seat": 1}
        assert await join_status(c, {}) == 200
        started = (await http.get(f"/api/tables/{tid}")).json()
        assert started["status"] == "playing" and started["game_id"]
        assert await join_status(d, {}) == 409  # full and started
