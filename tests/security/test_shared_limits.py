"""Rate limits kept in Redis: one budget for every process, per address and per player.

The pair of processes trusts 127.0.0.1 as a proxy, so each test speaks from addresses of
its own (X-Forwarded-For) and spends no other test's budget.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets

from tests.e2e.client import Account, Player
from tests.security.conftest import servers
from tests.servers import Server

TINY = "0.0001"  # budgets that do not refill during a test
_addresses = (f"203.0.113.{i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def pair(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    with servers(
        pg_url, redis_url, tmp_path_factory.mktemp("limits"), count=2,
        DOMINO_TRUSTED_PROXIES="127.0.0.1",
        DOMINO_AUTH_BURST="6", DOMINO_AUTH_RATE=TINY,
        DOMINO_WS_CONNECT_BURST="8", DOMINO_WS_CONNECT_RATE=TINY,
        DOMINO_WS_ADDRESS_BURST="24", DOMINO_WS_ADDRESS_RATE=TINY,
        DOMINO_WS_PLAYER_BURST="10", DOMINO_WS_PLAYER_RATE=TINY,
        DOMINO_CHAT_BURST="3", DOMINO_CHAT_RATE=TINY,
        DOMINO_CREATE_BURST="2", DOMINO_CREATE_RATE=TINY,
        DOMINO_TOURNAMENT_CREATE_BURST="2", DOMINO_TOURNAMENT_CREATE_RATE=TINY,
        DOMINO_TOURNAMENT_ADDRESS_BURST="3", DOMINO_TOURNAMENT_ADDRESS_RATE=TINY,
        DOMINO_SIGNIN_NAME_BURST="4", DOMINO_SIGNIN_NAME_RATE=TINY,
    ) as running:
        yield running


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


class Socket(Player):
    """A websocket player speaking from a given address."""

    address: str = ""

    async def connect(self) -> Socket:
        self._ws = await websockets.connect(
            self.ws_url, max_size=2**22, additional_headers=_from(self.address)
        )
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())
        if self.account is not None:
            await self.send({"type": "hello", "token": self.account.token, "id": "hi"})
            await self.expect(lambda m: m["type"] == "welcome")
        return self


async def socket(server: Server, address: str, account: Account | None = None) -> Socket:
    s = Socket(server.ws_url, account)
    s.address = address
    return await s.connect()


def account(server: Server, address: str) -> Account:
    name = f"u{next(_addresses).replace('.', '_')}"[:20]
    r = httpx.post(f"{server.url}/api/auth/register", headers=_from(address),
                   json={"username": name, "password": "password123"})
    assert r.status_code == 201, r.text
    body = r.json()
    return Account(body["player"]["name"], body["token"], body["player"]["id"])


def test_two_processes_share_one_sign_in_budget(pair: list[Server]) -> None:
    address = next(_addresses)
    statuses = [
        httpx.post(f"{pair[i % 2].url}/api/auth/login", headers=_from(address), timeout=30,
                   json={"username": f"nobody_{i}", "password": "not the password"}).status_code
        for i in range(8)
    ]
    # Per process, each would have allowed 6; together they allow 6.
    assert statuses == [401] * 6 + [429] * 2, statuses
    refused = httpx.post(f"{pair[1].url}/api/auth/login", headers=_from(address),
                         json={"username": "nobody_9", "password": "not the password"})
    assert refused.status_code == 429 and refused.json()["retry_ms"] > 0
    assert int(refused.headers["retry-after"]) >= 1


def test_sign_ins_at_one_name_are_limited_from_any_address(pair: list[Server]) -> None:
    wrong = {"username": "victim_name", "password": "not the password"}
    statuses = [
        httpx.post(f"{pair[i % 2].url}/api/auth/login", json=wrong,
                   headers=_from(next(_addresses))).status_code
        for i in range(6)
    ]
    assert statuses == [401] * 4 + [429] * 2


async def test_new_sockets_per_address_are_limited_across_processes(pair: list[Server]) -> None:
    address = next(_addresses)
    opened = [await socket(pair[i % 2], address) for i in range(8)]
    # A socket is let in (and charged) just after its handshake: each answers a ping
    # once its charge is made, so none of the eight is still to be charged below.
    for s in opened:
        assert (await s.request({"type": "ping"}))["type"] == "pong"
    for i in range(2):
        refused = await socket(pair[i], address)
        error = await refused.expect(lambda m: m["type"] == "error")
        assert error["code"] == "rate_limited" and error["retry_ms"] > 0
        await asyncio.wait_for(refused._reader, 5)
        assert refused.closed == 1013
    # Another address is not affected.
    other = await socket(pair[1], next(_addresses))
    assert (await other.request({"type": "ping"}))["type"] == "pong"
    for s in [*opened, other]:
        await s.close()


async def test_messages_per_address_are_limited_across_sockets_and_processes(
    pair: list[Server],
) -> None:
    address = next(_addresses)
    sockets = [await socket(pair[i % 2], address) for i in range(4)]
    for s in sockets:
        for n in range(10):
            await s.send({"type": "ping", "id": n})
    for s in sockets:
        await s.expect(lambda m: m.get("id") == 9)
    replies = [m for s in sockets for m in s.frames]
    pongs = [m for m in replies if m["type"] == "pong"]
    limited = [m for m in replies if m.get("code") == "rate_limited"]
    assert len(pongs) == 24 and len(limited) == 16, replies
    assert all(m["retry_ms"] > 0 and "id" in m for m in limited)
    for s in sockets:
        await s.close()


async def test_messages_per_player_are_limited_on_all_their_sockets(pair: list[Server]) -> None:
    me = account(pair[0], next(_addresses))
    first = await socket(pair[0], next(_addresses), me)
    second = await socket(pair[1], next(_addresses), me)
    for s in (first, second):
        for n in range(8):
            await s.send({"type": "ping", "id": n})
    for s in (first, second):
        await s.expect(lambda m: m.get("id") == 7)
    replies = first.frames + second.frames
    assert len([m for m in replies if m["type"] == "pong"]) == 10
    assert len([m for m in replies if m.get("code") == "rate_limited"]) == 6
    # An anonymous socket from the same addresses is not limited by that player's budget.
    anonymous = await socket(pair[0], first.address)
    assert (await anonymous.request({"type": "ping"}))["type"] == "pong"
    for s in (first, second, anonymous):
        await s.close()


async def test_a_move_spends_the_players_budget_in_its_own_write_and_a_refused_move_changes_nothing(
    pair: list[Server],
) -> None:
    # The move's token is taken by the move's write (one round trip): the budget is the
    # same as for any other message, and a refused move is not applied.
    first, second = account(pair[0], next(_addresses)), account(pair[1], next(_addresses))
    r = httpx.post(f"{pair[0].url}/api/tables",
                   headers={**first.headers, **_from(next(_addresses))},
                   json={"variant": "goat", "seats": 2, "rated": False, "turn_seconds": 120})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    sockets = [await socket(pair[0], next(_addresses), first),
               await socket(pair[1], next(_addresses), second)]
    for s in sockets:  # 1 of each player's 10 messages (hello came before the player)
        assert (await s.request({"type": "table.subscribe", "table_id": table_id}))["type"] \
            == "table.state"
    joined = httpx.post(f"{pair[1].url}/api/tables/{table_id}/join", json={},
                        headers={**second.headers, **_from(next(_addresses))})
    assert joined.status_code == 200, joined.text
    state = await sockets[0].expect(lambda m: m["type"] == "table.state"
                                    and m["view"]["status"] == "playing")
    mover = sockets[state["view"]["turn"]]
    other = sockets[1 - state["view"]["turn"]]
    state = await mover.expect(lambda m: m["type"] == "table.state" and m["seq"] == state["seq"])
    for n in range(8):  # 9 of 10 spent
        assert (await mover.request({"type": "ping"}))["type"] == "pong", n
    move = state["view"]["legal"][0]
    played = await mover.request({**move, "type": "play", "table_id": table_id,
                                  "seq": state["seq"]})
    assert played["type"] == "table.state" and played["seq"] == state["seq"] + 1, played
    # The 10th message was the move: the budget is spent, for pings and moves alike.
    refused = await mover.request({"type": "ping"})
    assert refused["code"] == "rate_limited" and refused["retry_ms"] > 0
    seen = await other.expect(lambda m: m["type"] == "table.state" and m["seq"] == played["seq"])
    if seen["view"]["turn"] == seen["view"]["you"]:  # the other answers (it has tokens)
        answered = await other.request({**seen["view"]["legal"][0], "type": "play",
                                        "table_id": table_id, "seq": seen["seq"]})
        assert answered["type"] == "table.state", answered
    now = await mover.expect(lambda m: m["type"] == "table.state"
                             and m["view"]["turn"] == m["view"]["you"]
                             and m["seq"] >= played["seq"])
    again = await mover.request({**now["view"]["legal"][0], "type": "play",
                                 "table_id": table_id, "seq": now["seq"]})
    assert again["code"] == "rate_limited" and again["retry_ms"] > 0, again
    # Nothing changed: the table is where it was, as the other process reads it.
    await asyncio.sleep(0.3)
    looked = await other.request({"type": "table.subscribe", "table_id": table_id})
    assert looked["seq"] == now["seq"] and looked["view"]["turn"] == now["view"]["turn"]
    assert not [m for m in other.frames if m["type"] == "table.state" and m["seq"] > now["seq"]]
    for s in sockets:
        await s.close()


async def test_chat_has_a_budget_of_its_own(pair: list[Server]) -> None:
    address = next(_addresses)
    owner = account(pair[0], address)
    r = httpx.post(f"{pair[0].url}/api/tables", headers={**owner.headers, **_from(address)},
                   json={"variant": "goat", "seats": 2})
    assert r.status_code == 201, r.text
    speaker = await socket(pair[0], address, owner)
    said = [await speaker.request({"type": "chat", "table_id": r.json()["id"], "text": f"hi {n}"})
            for n in range(5)]
    assert [m["type"] for m in said] == ["chat"] * 3 + ["error"] * 2
    assert {m["code"] for m in said[3:]} == {"rate_limited"}
    assert (await speaker.request({"type": "ping"}))["type"] == "pong"
    await speaker.close()


def test_table_creation_per_player_is_limited_on_every_process(pair: list[Server]) -> None:
    owner = account(pair[0], next(_addresses))
    statuses = []
    for i in range(3):
        r = httpx.post(f"{pair[i % 2].url}/api/tables",
                       headers={**owner.headers, **_from(next(_addresses))},
                       json={"variant": "goat", "seats": 2, "rated": False})
        statuses.append(r.status_code)
        if r.status_code == 201:  # leave it, so the cap on waiting tables is not what bites
            httpx.post(f"{pair[i % 2].url}/api/tables/{r.json()['id']}/leave",
                       headers={**owner.headers, **_from(next(_addresses))})
    assert statuses == [201, 201, 429]


@pytest.fixture(scope="module")
def untrusting(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("untrusting"),
                 DOMINO_AUTH_BURST="3", DOMINO_AUTH_RATE=TINY) as running:
        yield running[0]


def test_x_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(
    untrusting: Server,
) -> None:
    wrong = {"username": "nobody_at_all", "password": "not the password"}
    statuses = [
        httpx.post(f"{untrusting.url}/api/auth/login", json=wrong,
                   headers=_from(next(_addresses))).status_code
        for _ in range(5)
    ]
    assert statuses == [401] * 3 + [429] * 2


def test_tournaments_made_are_limited_per_player_and_per_address_on_every_process(
    pair: list[Server],
) -> None:
    """A tournament is listed for everyone and worked on at every director's tick: one
    player, and one address, make only so many, whichever process they ask."""
    address = next(_addresses)
    first, second, third = (account(pair[0], address) for _ in range(3))
    body = {"name": "Evening", "variant": "goat", "seats": 4, "format": "swiss", "rounds": 1}

    def make(server: Server, who: Account) -> httpx.Response:
        return httpx.post(f"{server.url}/api/tournaments", json=body,
                          headers={**_from(address), **who.headers})

    assert make(pair[0], first).status_code == 201
    assert make(pair[1], first).status_code == 201
    refused = make(pair[0], first)  # his budget of 2, spent on two processes
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert make(pair[1], second).status_code == 201  # the address's third
    assert make(pair[0], third).status_code == 429  # the address's budget of 3 is spent
    listed = httpx.get(f"{pair[0].url}/api/tournaments?status=waiting&limit=100").json()
    assert sum(t["creator"] in (first.name, second.name, third.name) for t in listed) == 3


def test_clubs_made_are_limited_per_player_and_per_address_on_every_process(
    pair: list[Server],
) -> None:
    """A club is listed for everyone (PROTOCOL §2e): making one spends budgets of its own,
    per player and per address, as a tournament's making does, whichever process is asked."""
    address = next(_addresses)
    first, second, third = (account(pair[0], address) for _ in range(3))

    def make(server: Server, who: Account, n: int) -> httpx.Response:
        return httpx.post(f"{server.url}/api/clubs",
                          json={"name": f"Club {who.name} {n}", "open": True},
                          headers={**_from(address), **who.headers})

    assert make(pair[0], first, 1).status_code == 201
    assert make(pair[1], first, 2).status_code == 201
    refused = make(pair[0], first, 3)  # his budget of 2, spent on two processes
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert make(pair[1], second, 1).status_code == 201  # the address's third
    assert make(pair[0], third, 1).status_code == 429  # the address's budget is spent
    found = httpx.get(f"{pair[1].url}/api/clubs?q=Club u").json()
    assert sum(c["owner"] in (first.name, second.name, third.name)
               for c in found["clubs"]) == 3


def test_club_invitations_are_limited_per_player_on_every_process(pair: list[Server]) -> None:
    """An invitation reaches another player: an admin sends 30 at once, then one every
    6 s, whichever process he asks."""
    address = next(_addresses)
    owner, invited = account(pair[0], address), account(pair[1], address)
    made = httpx.post(f"{pair[0].url}/api/clubs", json={"name": f"Club {owner.name}",
                                                        "open": False},
                      headers={**_from(address), **owner.headers})
    assert made.status_code == 201, made.text
    url = f"/api/clubs/{made.json()['id']}/invite"
    started = time.monotonic()
    statuses: list[int] = []
    while 429 not in statuses and len(statuses) < 60:
        statuses.append(httpx.post(f"{pair[len(statuses) % 2].url}{url}",
                                   json={"name": invited.name},
                                   headers={**_from(address), **owner.headers}).status_code)
    # 30 at once, and one more for every 6 s the asking took (a loaded machine is slow)
    refilled = int((time.monotonic() - started) / 6)
    assert statuses[-1] == 429 and set(statuses[:-1]) == {201}
    assert 30 <= len(statuses) - 1 <= 30 + refilled
