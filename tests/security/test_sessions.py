"""Server-side sessions: signing out signs out at once, on every process and every open
socket (closed with 4401); "sign out everywhere"; a password change signs out the rest."""

from __future__ import annotations

import asyncio
import secrets

import httpx
import websockets

from tests.e2e.client import Account, Player
from tests.servers import Server

PASSWORD = "password123"


async def _login(server: Server, name: str, password: str = PASSWORD) -> Account:
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post("/api/auth/login", json={"username": name, "password": password})
        assert r.status_code == 200, r.text
        body = r.json()
    return Account(name, body["token"], body["player"]["id"])


async def _register(server: Server) -> Account:
    name = f"s{secrets.token_hex(5)}"
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
    return await _login(server, name)


async def _me(server: Server, account: Account) -> int:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return (await http.get("/api/me", headers=account.headers)).status_code


async def _closed_with(player: Player, timeout: float = 5) -> int | None:
    async def wait() -> None:
        while player.closed is None:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)
    return player.closed


async def _hello_closes(server: Server, account: Account) -> int | None:
    player = await Player(server.ws_url).connect()
    await player.send({"type": "hello", "token": account.token})
    return await _closed_with(player)


async def _cookie_socket(server: Server, account: Account) -> websockets.ClientConnection:
    ws = await websockets.connect(
        server.ws_url, additional_headers={"Cookie": f"domino_session={account.token}"})
    assert '"welcome"' in str(await asyncio.wait_for(ws.recv(), 5))
    return ws


async def _cookie_close_code(ws: websockets.ClientConnection) -> int | None:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    except websockets.ConnectionClosed:
        return ws.close_code


async def test_logout_revokes_the_token_on_both_processes_and_closes_its_sockets(
    security_pair: tuple[Server, Server],
) -> None:
    first, second = security_pair
    account = await _register(first)
    keep = await _login(first, account.name)  # another sign-in of the same player
    sockets = [await Player(s.ws_url, account).connect() for s in (first, second)]
    by_cookie = await _cookie_socket(second, account)
    kept = await Player(second.ws_url, keep).connect()
    assert await _me(first, account) == 200 and await _me(second, account) == 200

    async with httpx.AsyncClient(base_url=first.url) as http:
        r = await http.post("/api/auth/logout", headers=account.headers)
        assert r.status_code == 200, r.text

    for player in sockets:
        assert await _closed_with(player) == 4401
    assert await _cookie_close_code(by_cookie) == 4401
    for server in (first, second):
        assert await _me(server, account) == 401
        assert await _hello_closes(server, account) == 4401
        async with httpx.AsyncClient(base_url=server.url) as http:
            r = await http.post("/api/tables", headers=account.headers,
                                json={"variant": "goat", "seats": 2})
            assert r.status_code == 401
    # The player's other session is untouched.
    assert (await kept.request({"type": "ping"}))["type"] == "pong"
    assert await _me(second, keep) == 200
    await kept.close()


async def test_logout_all_signs_out_every_session(
    security_pair: tuple[Server, Server],
) -> None:
    first, second = security_pair
    account = await _register(first)
    other = await _login(second, account.name)
    stranger = await _register(second)
    sockets = [await Player(second.ws_url, account).connect(),
               await Player(first.ws_url, other).connect()]
    bystander = await Player(first.ws_url, stranger).connect()

    async with httpx.AsyncClient(base_url=second.url) as http:
        assert (await http.post("/api/auth/logout-all")).status_code == 401
        r = await http.post("/api/auth/logout-all", headers=other.headers)
        assert r.status_code == 200, r.text
    for player in sockets:
        assert await _closed_with(player) == 4401
    for server in (first, second):
        for gone in (account, other):
            assert await _me(server, gone) == 401
    assert (await bystander.request({"type": "ping"}))["type"] == "pong"
    assert await _me(first, stranger) == 200
    await bystander.close()


async def test_a_password_change_signs_out_the_other_sessions(
    security_pair: tuple[Server, Server],
) -> None:
    first, second = security_pair
    account = await _register(first)
    other = await _login(second, account.name)
    elsewhere = await Player(second.ws_url, other).connect()
    here = await Player(first.ws_url, account).connect()

    async with httpx.AsyncClient(base_url=first.url) as http:
        wrong = await http.post("/api/auth/password", headers=account.headers,
                                json={"current_password": "not-it-at-all",
                                      "new_password": "new-password-1"})
        assert wrong.status_code == 403
        short = await http.post("/api/auth/password", headers=account.headers,
                                json={"current_password": PASSWORD, "new_password": "short"})
        assert short.status_code == 422
        assert await _me(second, other) == 200  # nothing changed by either
        r = await http.post("/api/auth/password", headers=account.headers,
                            json={"current_password": PASSWORD,
                                  "new_password": "new-password-1"})
        assert r.status_code == 200, r.text
        assert (await http.post("/api/auth/login", json={
            "username": account.name, "password": PASSWORD})).status_code == 401

    assert await _closed_with(elsewhere) == 4401
    for server in (first, second):
        assert await _me(server, other) == 401
        assert await _me(server, account) == 200
    assert (await here.request({"type": "ping"}))["type"] == "pong"
    await here.close()
    assert await _me(second, await _login(second, account.name, "new-password-1")) == 200


async def test_sessions_sign_out_on_the_embedded_defaults(embedded: Server) -> None:
    account = await _register(embedded)
    player = await Player(embedded.ws_url, account).connect()
    by_cookie = await _cookie_socket(embedded, account)
    async with httpx.AsyncClient(base_url=embedded.url) as http:
        assert (await http.post("/api/auth/logout", headers=account.headers)).status_code == 200
    assert await _closed_with(player) == 4401
    assert await _cookie_close_code(by_cookie) == 4401
    assert await _me(embedded, account) == 401
    assert await _hello_closes(embedded, account) == 4401
