"""Cross-site requests: a foreign page may neither open a socket with the player's
cookie nor make a state-changing request with it (Origin and Sec-Fetch-Site)."""

from __future__ import annotations

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tests.e2e.client import Player, register
from tests.e2e.game import seat_players
from tests.servers import Server

EVIL = "http://evil.example"


def _cookie(token: str) -> dict[str, str]:
    return {"Cookie": f"domino_session={token}"}


@pytest.mark.parametrize("origin", [EVIL, "null", "http://127.0.0.1:1", "https://127.0.0.1"])
async def test_a_cross_site_websocket_is_refused_before_welcome(
    server: Server, origin: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        account = await register(http)
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(
            server.ws_url, origin=origin, additional_headers=_cookie(account.token)  # type: ignore[arg-type]
        ) as ws:
            await ws.recv()
    assert refused.value.response.status_code == 403


async def test_the_own_origin_opens_the_socket_with_the_cookie(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        account = await register(http)
    async with websockets.connect(
        server.ws_url, origin=server.url, additional_headers=_cookie(account.token)  # type: ignore[arg-type]
    ) as ws:
        assert '"welcome"' in str(await ws.recv())


async def test_a_cross_site_form_post_with_the_cookie_changes_nothing(server: Server) -> None:
    seated = await seat_players([server])
    before = await seated.first_playing_state()
    victim = seated.accounts[0]
    form = {"Content-Type": "application/x-www-form-urlencoded", **_cookie(victim.token)}
    async with httpx.AsyncClient(base_url=server.url) as http:
        for headers in (
            {**form, "Origin": EVIL},  # any browser of today
            {**form, "Origin": "null"},  # a sandboxed frame
            {**form, "Sec-Fetch-Site": "cross-site"},  # a browser that left Origin out
            {**form, "Sec-Fetch-Site": "same-site"},  # a sibling subdomain's page
            {**form, "Origin": EVIL, "Sec-Fetch-Site": "same-origin"},  # either is enough
        ):
            r = await http.post(f"/api/tables/{seated.table_id}/leave", headers=headers,
                                content=b"")
            assert r.status_code == 403, (headers, r.text)
            assert isinstance(r.json()["detail"], str)
        # Nor can a foreign page sign someone in or out, or open a table in his name.
        r = await http.post("/api/tables", headers={**_cookie(victim.token), "Origin": EVIL},
                            json={"variant": "goat", "seats": 2})
        assert r.status_code == 403
    now = await Player(server.ws_url).connect()
    state = await now.request({"type": "table.subscribe", "table_id": seated.table_id})
    await now.close()
    assert state["seq"] == before["seq"]
    assert state["view"]["status"] == "playing"
    assert state["view"]["seats"][0]["player"] == victim.name


async def test_same_origin_cookie_requests_and_bearer_clients_pass(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        account = await register(http)
        body = {"variant": "goat", "seats": 2}
        # The browser client on its own origin, and clients that are no browser at all.
        for headers in ({"Origin": server.url, "Sec-Fetch-Site": "same-origin"},
                        {"Sec-Fetch-Site": "same-origin"}, {}):
            r = await http.post("/api/tables", headers={**headers, **_cookie(account.token)},
                                json=body)
            assert r.status_code == 201, (headers, r.text)
            r = await http.post(f"/api/tables/{r.json()['id']}/leave",
                                headers={**headers, **_cookie(account.token)})
            assert r.status_code == 200, (headers, r.text)
        # Outside clients with a token need none of it.
        r = await http.post("/api/tables", headers=account.headers, json=body)
        assert r.status_code == 201, r.text
