"""Small holes in the websocket and HTTP protocol, each closed and held shut."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tests.e2e.client import Player, create_table, register
from tests.e2e.game import seat_players
from tests.servers import Server


async def test_deeply_nested_json_is_a_bad_request_and_the_socket_stays(server: Server) -> None:
    p = await Player(server.ws_url).connect()
    await p.send_raw('{"type": "ping", "id": 7, "x": ' + "[" * 1200 + "]" * 1200 + "}")
    await p.send_raw("[" * 1200 + "]" * 1200)
    await p.send_raw('{"id": 8, "type": "ping", "x": ' + '{"a":' * 1200 + "1" + "}" * 1200 + "}")
    pong = await p.request({"type": "ping"})
    assert pong["type"] == "pong", p.frames
    errors = [m for m in p.frames if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["bad_request"] * 3, p.frames
    assert p.closed is None
    await p.close()


@pytest.mark.parametrize("raw_id", ["1e400", "-1e400", "123456789012345678901234567890"])
async def test_an_id_json_cannot_carry_is_refused_never_echoed_as_infinity(
    server: Server, raw_id: str
) -> None:
    p = await Player(server.ws_url).connect()
    await p.send_raw('{"type": "ping", "id": ' + raw_id + "}")
    reply = await p.expect(lambda m: m["type"] in ("error", "pong"))
    # Every frame was valid JSON (the client parsed it), with no Infinity or NaN in it.
    assert all("Infinity" not in raw and "NaN" not in raw for raw in p.raw)
    if reply["type"] == "error":
        assert reply["code"] == "bad_request" and reply.get("id") is None
    else:  # a big integer is a number JSON can carry: echoed as the same number
        assert float(reply["id"]) == float(raw_id)
    await p.close()


async def test_resign_at_a_waiting_table_is_refused_and_the_seat_kept(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        owner = await register(http)
        table = await create_table(http, owner, seats=2)
        p = await Player(server.ws_url, owner).connect()
        error = await p.request({"type": "resign", "table_id": table["id"]})
        assert error["type"] == "error" and error["code"] == "bad_request"
        assert "leave" in error["message"]
        seats = (await http.get(f"/api/tables/{table['id']}")).json()["seats"]
        assert seats[0]["player"] == owner.name
        await p.close()


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "goat", "seats": "4"},
        {"variant": "goat", "seats": 4, "rated": "yes"},
        {"variant": "goat", "seats": 4, "rated": 1},
        {"variant": "goat", "seats": 4.0},
        {"variant": "goat", "seats": True},
        {"variant": "goat", "seats": 4, "turn_seconds": "30"},
    ],
)
async def test_table_creation_coerces_nothing(server: Server, body: dict) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        owner = await register(http)
        r = await http.post("/api/tables", json=body, headers=owner.headers)
        assert r.status_code == 422, r.text
        mine = [t for t in (await http.get("/api/tables")).json()
                if t["created_by"] == owner.name]
        assert mine == []


@pytest.mark.parametrize("seat", [True, "1", 1.0])
async def test_joining_coerces_no_seat(server: Server, seat: object) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        owner, guest = await register(http), await register(http)
        table = await create_table(http, owner, seats=2)
        r = await http.post(f"/api/tables/{table['id']}/join", json={"seat": seat},
                            headers=guest.headers)
        assert r.status_code == 422, r.text
        seats = (await http.get(f"/api/tables/{table['id']}")).json()["seats"]
        assert seats[1]["player"] is None


async def test_sign_in_coerces_no_name(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        r = await http.post("/api/auth/register", json={"username": 12345, "password": 12345678})
        assert r.status_code == 422
        r = await http.post("/api/auth/login", json={"username": 12345, "password": 12345678})
        assert r.status_code == 422


async def test_websocket_messages_coerce_nothing(server: Server) -> None:
    seated = await seat_players([server], seats=2)
    state = await seated.first_playing_state()
    p = seated.players[state["view"]["turn"]]
    legal = p.latest(seated.table_id)["view"]["legal"][0]
    for seq in (str(state["seq"]), float(state["seq"]), True):
        error = await p.request({"type": "play", "table_id": seated.table_id,
                                 "tile": legal["tile"], "end": legal["end"], "seq": seq})
        assert error["code"] == "bad_request", error
    error = await p.request({"type": "chat", "table_id": seated.table_id, "text": 5})
    assert error["code"] == "bad_request"
    assert p.latest(seated.table_id)["seq"] == state["seq"]


async def test_chat_strips_control_and_bidi_override_characters(server: Server) -> None:
    seated = await seat_players([server], seats=2)
    said = await seated.players[0].request({
        "type": "chat", "table_id": seated.table_id,
        "text": "gg\u202e\u2066 well\u0007 played\u200f\u061c\u2069\u202c",
    })
    assert said["type"] == "chat" and said["text"] == "gg well played"
    # A NUL is refused in every message (PROTOCOL §2g), chat too.
    nul = await seated.players[0].request(
        {"type": "chat", "table_id": seated.table_id, "text": "gg\u0000"})
    assert nul["type"] == "error" and nul["code"] == "bad_request"
    heard = await seated.players[1].expect(lambda m: m["type"] == "chat")
    assert heard["text"] == "gg well played"
    nothing = await seated.players[0].request(
        {"type": "chat", "table_id": seated.table_id, "text": "\u202e\u0001"}
    )
    assert nothing["type"] == "error" and nothing["code"] == "bad_request"
    await asyncio.sleep(0.2)
    assert [m["type"] for m in seated.players[1].frames].count("chat") == 1


def test_security_headers_are_on_every_response(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for r in (http.get("/"), http.get("/api/tables"), http.get("/api/tables/nope"),
                  http.post("/api/auth/login", content=b"{", headers={
                      "Content-Type": "application/json"}),
                  http.get("/js/main.js"), http.get("/healthz")):
            h = r.headers
            assert "frame-ancestors 'none'" in h["content-security-policy"], r.url
            assert "default-src 'self'" in h["content-security-policy"]
            assert h["x-frame-options"] == "DENY"
            assert h["x-content-type-options"] == "nosniff"
            assert h["referrer-policy"] == "no-referrer"
    assert json.loads(r.text) == {"status": "ok"}
