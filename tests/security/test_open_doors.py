"""The last open doors, each shut and held shut on two processes sharing Redis: password
checks at one account, anonymous sockets per address, a text frame that is not UTF-8,
message ids beyond 2**53, invisible characters in chat, the API's schema in production and
metrics anyone could read (and make expensive) on the app's port."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.e2e.client import Player, create_table, register
from tests.e2e.game import seat_players
from tests.security.conftest import security_env, servers
from tests.servers import Server, clear_redis_prefix, free_port, run_server, scrape

TINY = "0.0001"  # budgets that do not refill during a test
ANON_CAP = 4
_addresses = (f"198.51.100.{i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def pair(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    with servers(
        pg_url, redis_url, tmp_path_factory.mktemp("doors"), count=2,
        DOMINO_TRUSTED_PROXIES="127.0.0.1",
        DOMINO_SIGNIN_NAME_BURST="6", DOMINO_SIGNIN_NAME_RATE=TINY,
        DOMINO_MAX_ANON_SOCKETS_PER_ADDRESS=str(ANON_CAP),
    ) as running:
        yield running


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


# -- password checks ---------------------------------------------------------------------


async def test_password_changes_and_sign_ins_share_one_budget_per_account(
    pair: list[Server],
) -> None:
    """A thief holding a session guesses the password through POST /api/auth/password from
    many addresses on both processes: the account's sign-in budget stops him there too."""
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        victim = await register(http)
    guess = {"current_password": "not the password", "new_password": "stolen-password-1"}
    statuses = []
    for i in range(9):
        server = pair[i % 2]
        if i < 2:  # sign-ins at the account spend the same budget
            r = httpx.post(f"{server.url}/api/auth/login", headers=_from(next(_addresses)),
                           json={"username": victim.name, "password": "not the password"})
        else:
            r = httpx.post(f"{server.url}/api/auth/password", json=guess,
                           headers={**victim.headers, **_from(next(_addresses))})
        statuses.append(r.status_code)
    assert statuses == [401, 401] + [403] * 4 + [429] * 3, statuses
    refused = httpx.post(f"{pair[1].url}/api/auth/password", headers=victim.headers,
                         json={"current_password": "password123",
                               "new_password": "stolen-password-1"})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    # Nothing was changed: the victim's session was not signed out, as a hit would have
    # done, and a right guess now is refused like any other.
    assert httpx.get(f"{pair[0].url}/api/me", headers=victim.headers).status_code == 200
    again = httpx.post(f"{pair[0].url}/api/auth/login", headers=_from(next(_addresses)),
                       json={"username": victim.name, "password": "password123"})
    assert again.status_code == 429


# -- anonymous sockets per address -------------------------------------------------------


async def _open(server: Server, address: str, token: str | None = None
                ) -> websockets.ClientConnection:
    headers = _from(address)
    if token is not None:
        headers["Cookie"] = f"domino_session={token}"
    return await websockets.connect(server.ws_url, additional_headers=headers)


async def _open_when_free(server: Server, address: str) -> websockets.ClientConnection:
    """A socket from `address` once a place has been freed (a close is seen a moment later)."""
    for _ in range(50):
        ws = await _open(server, address)
        if await _answers_ping(ws):
            return ws
        await ws.close()
        await asyncio.sleep(0.1)
    raise AssertionError("no place was freed")


async def _answers_ping(ws: websockets.ClientConnection) -> bool:
    """Whether the socket is served. A refused one is told so and closed (1013) at once:
    the close may come before the ping is sent or after; either way it is not served."""
    try:
        await ws.send(json.dumps({"type": "ping", "id": 1}))
        while True:
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if reply.get("id") == 1 or reply["type"] == "error":
                return bool(reply["type"] == "pong")
    except websockets.ConnectionClosedError as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1013, closed
        return False


async def test_anonymous_sockets_per_address_are_capped_across_processes(
    pair: list[Server],
) -> None:
    address, other = next(_addresses), next(_addresses)
    opened = [await _open(pair[i % 2], address) for i in range(ANON_CAP)]
    for ws in opened:
        assert await _answers_ping(ws)
    for server in pair:  # one more, on either process, is refused and closed (try later)
        async with await _open(server, address) as refused:
            error = json.loads(await asyncio.wait_for(refused.recv(), 10))
            assert error["type"] == "error" and error["code"] == "rate_limited", error
            assert error["retry_ms"] > 0 and "address" in error["message"]
            await asyncio.wait_for(refused.wait_closed(), 10)
            assert refused.close_code == 1013
    # Another address is not touched, and a signed-in socket is the player's, not anonymous.
    async with await _open(pair[1], other) as elsewhere:
        assert await _answers_ping(elsewhere)
    async with httpx.AsyncClient(base_url=pair[0].url, timeout=30) as http:
        me = await register(http)
    async with await _open(pair[0], address, me.token) as signed_in:
        assert json.loads(await asyncio.wait_for(signed_in.recv(), 10))["type"] == "welcome"
    # A socket that closes frees its place; one that signs in (hello) frees it too.
    await opened[0].close()
    reopened = await _open_when_free(pair[1], address)
    await opened[1].send(json.dumps({"type": "hello", "token": me.token}))
    assert json.loads(await asyncio.wait_for(opened[1].recv(), 10))["type"] == "welcome"
    async with await _open(pair[0], address) as freed:
        assert await _answers_ping(freed)
    for ws in [*opened[1:], reopened]:
        await ws.close()


# -- frames --------------------------------------------------------------------------------


async def test_a_text_frame_that_is_not_utf8_closes_1007_with_one_quiet_log_line(
    pair: list[Server],
) -> None:
    server = pair[0]
    before = server.output()
    for _ in range(3):
        async with websockets.connect(server.ws_url) as ws:
            # websockets sends the bytes as they are in a text frame, without checking them.
            await ws.send(b'\xff\xfe{"type": "ping"}', text=True)
            with pytest.raises(websockets.ConnectionClosedError):
                await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == 1007
    await asyncio.sleep(0.5)
    written = server.output()[len(before):]
    assert "Traceback" not in written and "UnicodeDecodeError" not in written, written
    lines = [line for line in written.splitlines() if "UTF-8" in line]
    assert len(lines) == 3 and all(" INFO " in line for line in lines), lines
    # The process serves on.
    p = await Player(server.ws_url).connect()
    assert (await p.request({"type": "ping"}))["type"] == "pong"
    await p.close()


@pytest.mark.parametrize("raw_id", [str(2**53 + 1), str(-(2**53) - 1), str(2**64),
                                    str(2**64 - 1), "1e300"])
async def test_a_number_id_beyond_2_to_the_53_is_refused_not_rounded(
    pair: list[Server], raw_id: str
) -> None:
    p = await Player(pair[1].ws_url).connect()
    await p.send_raw('{"type": "ping", "id": ' + raw_id + "}")
    reply = await p.expect(lambda m: m["type"] in ("error", "pong"))
    assert reply["type"] == "error" and reply["code"] == "bad_request", reply
    assert "id" not in reply and "2**53" in reply["message"]
    assert p.closed is None
    await p.close()


@pytest.mark.parametrize("raw_id", [str(2**53), str(-(2**53)), "0", "-7", "12.5",
                                    '"18446744073709551616"'])
async def test_an_id_within_2_to_the_53_or_a_string_is_echoed_exactly(
    pair: list[Server], raw_id: str
) -> None:
    p = await Player(pair[1].ws_url).connect()
    await p.send_raw('{"type": "ping", "id": ' + raw_id + "}")
    reply = await p.expect(lambda m: m["type"] in ("error", "pong"))
    assert reply["type"] == "pong" and reply["id"] == json.loads(raw_id)
    raw = next(r for r in p.raw if '"pong"' in r)
    assert f'"id":{raw_id}' in raw.replace(" ", "")
    await p.close()


async def test_chat_loses_invisible_format_characters_but_keeps_joiners(
    pair: list[Server],
) -> None:
    seated = await seat_players(pair, seats=2)
    said = await seated.players[0].request({
        "type": "chat", "table_id": seated.table_id,
        # BOM, word joiner, zero-width space, soft hyphen, a tag character, LRM
        "text": "\ufeffg\u2060g\u200b w\u00adp\U000e0041\u200e",
    })
    assert said["type"] == "chat" and said["text"] == "gg wp", said
    heard = await seated.players[1].expect(lambda m: m["type"] == "chat")
    assert heard["text"] == "gg wp"
    # Persian needs the zero-width non-joiner, emoji sequences the joiner.
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \U0001f469\u200d\U0001f4bb"
    said = await seated.players[1].request(
        {"type": "chat", "table_id": seated.table_id, "text": persian})
    assert said["text"] == persian
    invisible = await seated.players[0].request(
        {"type": "chat", "table_id": seated.table_id, "text": "\ufeff\u2060\u200b"})
    assert invisible["type"] == "error" and invisible["code"] == "bad_request"


# -- the API's schema ------------------------------------------------------------------------


def test_the_schema_and_its_pages_are_served_in_development(pair: list[Server]) -> None:
    assert httpx.get(f"{pair[0].url}/openapi.json").status_code == 200
    assert httpx.get(f"{pair[0].url}/docs").status_code == 200


def test_production_serves_no_schema_and_no_api_pages(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    prefix = "domino_sec_production_docs"
    env = security_env(pg_url, redis_url, prefix, DOMINO_MODE="production",
                       DOMINO_SECRET_KEY="a-production-secret-for-this-test",
                       DOMINO_REDIS_UNPERSISTED_OK="true")
    try:
        with run_server(env, log_dir=tmp_path) as server:
            for path in ("/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect"):
                assert httpx.get(f"{server.url}{path}").status_code == 404, path
            assert httpx.get(f"{server.url}/api/variants").status_code == 200
    finally:
        clear_redis_prefix(redis_url, prefix)


# -- metrics ---------------------------------------------------------------------------------


async def _next_census(server: Server, seen: dict[str, float]) -> dict[str, float]:
    """The metrics just after the census that follows the one `seen` shows."""
    for _ in range(400):
        now = scrape(server)
        if now["domino_census_time_seconds"] != seen["domino_census_time_seconds"]:
            return now
        await asyncio.sleep(0.05)
    raise AssertionError("no census was taken")


async def test_metrics_are_served_on_their_own_port_and_a_scrape_reads_no_table(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    prefix = "domino_sec_metrics_port"
    env = security_env(pg_url, redis_url, prefix, DOMINO_METRICS_PORT=str(free_port()))
    try:
        with run_server(env, log_dir=tmp_path) as server:
            assert server.metrics_url is not None
            # Not on the app's port, to anyone.
            assert httpx.get(f"{server.url}/metrics").status_code == 404
            waiting = "domino_tables{status=waiting,variant=goat}"
            first = scrape(server)
            assert first["domino_open_sockets"] == 0
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                owner = await register(http)
                # Right after a census (every few seconds), a table is made ...
                counted = await _next_census(server, first)
                await create_table(http, owner, seats=4)
            # ... and until the next census, however often it is scraped, the count stays:
            # a scrape reads the counters, not the live tables.
            scrapes = 0
            while True:
                now = scrape(server)
                scrapes += 1
                if now["domino_census_time_seconds"] != counted["domino_census_time_seconds"]:
                    break
                assert now.get(waiting, 0) == counted.get(waiting, 0), (scrapes, now)
            assert now[waiting] == counted.get(waiting, 0) + 1
            assert scrapes > 5, scrapes
    finally:
        clear_redis_prefix(redis_url, prefix)
