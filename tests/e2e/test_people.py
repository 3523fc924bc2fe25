"""Friends, blocks, challenges and my tables (PROTOCOL §2c), on two processes that share
one database and one live store: each call may land on either, and the frames it causes
reach the other player's socket on the other process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest

from tests.e2e.client import Account, Message, Player, create_table, register
from tests.servers import Server


@dataclass
class Side:
    http: httpx.AsyncClient
    server: Server


@pytest.fixture
async def sides(server_pair: tuple[Server, Server]) -> AsyncIterator[tuple[Side, Side]]:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        yield Side(a, first), Side(b, second)


def _friend(name: str, status: str):  # a frame predicate
    def pred(m: Message) -> bool:
        return (m["type"] == "friend.update" and m["friend"]["name"] == name
                and m["friend"]["status"] == status)
    return pred


async def test_friends_ask_accept_see_each_other_online_and_at_a_public_table_only(
    sides: tuple[Side, Side],
) -> None:
    a, b = sides
    masha, olya = await register(a.http), await register(b.http)
    olya_ws = await Player(b.server.ws_url, olya).connect()
    asked = await a.http.post(f"/api/friends/{olya.name}", headers=masha.headers)
    assert asked.status_code == 201 and asked.json() == {"status": "requested"}
    # the request reaches Olya's socket on the other process
    await olya_ws.expect(_friend(masha.name, "requested"))
    listed = (await b.http.get("/api/friends", headers=olya.headers)).json()
    assert listed == {"friends": [], "incoming": [masha.name], "outgoing": []}
    assert (await a.http.get("/api/friends", headers=masha.headers)).json()["outgoing"] == [
        olya.name]
    # asking again changes nothing
    again = await a.http.post(f"/api/friends/{olya.name}", headers=masha.headers)
    assert again.status_code == 201
    # Olya accepts by asking back (any spelling of the name)
    masha_ws = await Player(a.server.ws_url, masha).connect()
    accepted = await b.http.post(f"/api/friends/{masha.name.upper()}", headers=olya.headers)
    assert accepted.status_code == 200 and accepted.json() == {"status": "friends"}
    seen = await masha_ws.expect(_friend(olya.name, "friends"))
    assert seen["friend"]["online"] is True  # Olya's socket is open on the other process
    friends = (await a.http.get("/api/friends", headers=masha.headers)).json()
    assert friends == {"friends": [{"name": olya.name, "online": True, "table_id": None}],
                       "incoming": [], "outgoing": []}

    # a private table is never shown as the friend's table
    made = await b.http.post("/api/tables", headers=olya.headers, json={
        "variant": "goat", "seats": 2, "private": True, "rated": False})
    assert made.status_code == 201
    friends = (await a.http.get("/api/friends", headers=masha.headers)).json()
    assert friends["friends"][0]["table_id"] is None
    # a public one is, and Masha hears that Olya sat down
    mark = len(masha_ws.frames) - 1
    public = await create_table(b.http, olya, seats=2)
    sat = await masha_ws.expect(lambda m: m["type"] == "friend.update"
                                and m["friend"]["table_id"] == public["id"], after=mark)
    assert sat["friend"]["status"] == "friends"
    # Olya goes offline: Masha hears it
    mark = len(masha_ws.frames) - 1
    await olya_ws.close()
    gone = await masha_ws.expect(lambda m: m["type"] == "friend.update"
                                 and m["friend"]["online"] is False, after=mark)
    assert gone["friend"]["name"] == olya.name
    # unfriend: both lists empty, the other hears "none"
    olya_ws = await Player(b.server.ws_url, olya).connect()
    assert (await a.http.delete(f"/api/friends/{olya.name}",
                                headers=masha.headers)).status_code == 204
    await olya_ws.expect(_friend(masha.name, "none"))
    assert (await b.http.get("/api/friends", headers=olya.headers)).json()["friends"] == []
    for ws in (masha_ws, olya_ws):
        await ws.close()


async def test_friend_refusals_are_clear_and_change_nothing(sides: tuple[Side, Side]) -> None:
    a, b = sides
    masha = await register(a.http)
    assert (await a.http.post(f"/api/friends/{masha.name}",
                              headers=masha.headers)).status_code == 409
    assert (await b.http.post("/api/friends/nobody_here_x",
                              headers=masha.headers)).status_code == 404
    assert (await b.http.post("/api/friends/someone")).status_code == 401
    assert (await a.http.get("/api/friends?limit=0", headers=masha.headers)).status_code == 422
    assert (await a.http.get("/api/friends", headers=masha.headers)).json() == {
        "friends": [], "incoming": [], "outgoing": []}


async def _block(side: Side, who: Account, name: str) -> None:
    done = await side.http.post(f"/api/blocks/{name}", headers=who.headers)
    assert done.status_code == 204, done.text


async def test_a_block_ends_the_friendship_and_refuses_requests_challenges_and_joins(
    sides: tuple[Side, Side],
) -> None:
    a, b = sides
    x, y = await register(a.http), await register(b.http)
    y_ws = await Player(b.server.ws_url, y).connect()
    assert (await a.http.post(f"/api/friends/{y.name}", headers=x.headers)).status_code == 201
    assert (await b.http.post(f"/api/friends/{x.name}", headers=y.headers)).status_code == 200
    sent = await b.http.post("/api/challenges", headers=y.headers, json={
        "to": x.name, "variant": "goat"})
    assert sent.status_code == 201
    mark = len(y_ws.frames) - 1
    await _block(a, x, y.name)
    assert (await a.http.get("/api/blocks", headers=x.headers)).json() == [y.name]
    # the friendship is over and the challenge withdrawn, both ways
    assert (await b.http.get("/api/friends", headers=y.headers)).json()["friends"] == []
    assert (await a.http.get("/api/challenges", headers=x.headers)).json() == {
        "incoming": [], "outgoing": []}
    # Y cannot ask again, challenge, or join X's waiting table: a plain 403
    for refused in (
        await b.http.post(f"/api/friends/{x.name}", headers=y.headers),
        await b.http.post("/api/challenges", headers=y.headers,
                          json={"to": x.name, "variant": "goat"}),
    ):
        assert refused.status_code == 403, refused.text
    # (casual tables: one rated table at a time would refuse these first, PROTOCOL §2g)
    table = await create_table(a.http, x, seats=2, rated=False)
    joined = await b.http.post(f"/api/tables/{table['id']}/join", headers=y.headers, json={})
    assert joined.status_code == 403
    assert (await a.http.get(f"/api/tables/{table['id']}")).json()["seats"][1]["player"] is None
    # nor can X join Y's
    own = await create_table(b.http, y, seats=2, rated=False)
    assert (await a.http.post(f"/api/tables/{own['id']}/join", headers=x.headers,
                              json={})).status_code == 403
    # X cannot challenge or befriend Y either while he blocks him
    assert (await a.http.post("/api/challenges", headers=x.headers, json={
        "to": y.name, "variant": "goat"})).status_code == 403
    # nothing told Y he was blocked
    await asyncio.sleep(0.5)
    told = [f["type"] for f in y_ws.frames[mark + 1:]]
    assert not {"friend.update", "challenge.update", "block.update"} & set(told), told
    # unblocked, they may meet again
    assert (await a.http.delete(f"/api/blocks/{y.name}", headers=x.headers)).status_code == 204
    assert (await a.http.get("/api/blocks", headers=x.headers)).json() == []
    assert (await b.http.post(f"/api/tables/{table['id']}/join", headers=y.headers,
                              json={})).status_code == 200
    await y_ws.close()


async def test_a_blocked_players_chat_never_reaches_the_blockers_sockets(
    sides: tuple[Side, Side],
) -> None:
    a, b = sides
    x, y, z = await register(a.http), await register(b.http), await register(a.http)
    table = await create_table(a.http, x, seats=3)
    for who, side in ((y, b), (z, a)):
        assert (await side.http.post(f"/api/tables/{table['id']}/join", headers=who.headers,
                                     json={})).status_code == 200
    x_ws = await Player(a.server.ws_url, x).connect()
    z_ws = await Player(a.server.ws_url, z).connect()
    y_ws = await Player(b.server.ws_url, y).connect()
    for ws in (x_ws, y_ws, z_ws):
        await ws.request({"type": "table.subscribe", "table_id": table["id"]})
    await _block(b, x, y.name)  # told on the other process: X's socket hears it
    await x_ws.expect(lambda m: m["type"] == "block.update" and m["blocked"] == [y.name])
    await y_ws.send({"type": "chat", "table_id": table["id"], "text": "from the blocked"})
    await z_ws.send({"type": "chat", "table_id": table["id"], "text": "from another"})

    def line(text: str):
        return lambda m: m["type"] == "chat" and m["text"] == text

    await z_ws.expect(line("from the blocked"))  # others still read him
    await y_ws.expect(line("from the blocked"))
    await x_ws.expect(line("from another"))  # X's socket gets the later line ...
    assert not [f for f in x_ws.frames if f["type"] == "chat" and f["from"] == y.name]
    # ... and a socket X opens afterwards knows whom he blocks
    x_again = await Player(b.server.ws_url, x).connect()
    await x_again.request({"type": "table.subscribe", "table_id": table["id"]})
    await y_ws.send({"type": "chat", "table_id": table["id"], "text": "again"})
    await z_ws.send({"type": "chat", "table_id": table["id"], "text": "after"})
    await x_again.expect(line("after"))
    assert not [f for f in x_again.frames if f["type"] == "chat" and f["from"] == y.name]
    for ws in (x_ws, y_ws, z_ws, x_again):
        await ws.close()


async def test_seeks_never_match_players_who_block_each_other(
    sides: tuple[Side, Side],
) -> None:
    a, b = sides
    x, y, z = await register(a.http), await register(b.http), await register(a.http)
    sockets = [await Player(s.server.ws_url, who).connect()
               for s, who in ((a, x), (b, y), (a, z))]
    await _block(a, x, y.name)
    ask = {"variant": "fives", "seats": 2, "turn_seconds": 61, "rated": False}
    first = await a.http.post("/api/seeks", headers=x.headers, json=ask)
    assert first.status_code == 201 and "table_id" not in first.json()
    second = await b.http.post("/api/seeks", headers=y.headers, json=ask)
    assert second.status_code == 201 and "table_id" not in second.json(), second.text
    # a third player is matched with the first seek, not the blocked one
    third = await a.http.post("/api/seeks", headers=z.headers, json=ask)
    assert third.status_code == 201
    table_id = third.json()["table_id"]
    seated = [s["player"] for s in (await b.http.get(f"/api/tables/{table_id}")).json()["seats"]]
    assert sorted(seated) == sorted([x.name, z.name])
    assert (await b.http.delete(f"/api/seeks/{second.json()['id']}",
                                headers=y.headers)).status_code == 204
    for ws in sockets:
        await ws.close()


async def test_a_challenge_accepted_is_a_private_table_with_both_seated(
    sides: tuple[Side, Side],
) -> None:
    a, b = sides
    masha, olya = await register(a.http), await register(b.http)
    olya_ws = await Player(b.server.ws_url, olya).connect()
    masha_ws = await Player(a.server.ws_url, masha).connect()
    sent = await a.http.post("/api/challenges", headers=masha.headers, json={
        "to": olya.name, "variant": "goat", "turn_seconds": 45, "rated": False,
        "options": {"fish_rule": "one"}})
    assert sent.status_code == 201, sent.text
    challenge = sent.json()
    assert challenge["status"] == "open" and challenge["table_id"] is None
    assert challenge["from"] == masha.name and challenge["to"] == olya.name
    assert challenge["seats"] == 2 and challenge["expires_at"] > challenge["created_at"]
    arrived = await olya_ws.expect(lambda m: m["type"] == "challenge.new")
    assert arrived["challenge"]["id"] == challenge["id"]
    listed = (await b.http.get("/api/challenges", headers=olya.headers)).json()
    assert [c["id"] for c in listed["incoming"]] == [challenge["id"]]
    # only the challenged accepts
    assert (await a.http.post(f"/api/challenges/{challenge['id']}/accept",
                              headers=masha.headers)).status_code == 404
    accepted = await b.http.post(f"/api/challenges/{challenge['id']}/accept",
                                 headers=olya.headers)
    assert accepted.status_code == 200, accepted.text
    table_id = accepted.json()["table_id"]
    assert accepted.json()["status"] == "accepted" and table_id
    told = await masha_ws.expect(lambda m: m["type"] == "challenge.update"
                                 and m["challenge"]["table_id"] == table_id)
    assert told["challenge"]["status"] == "accepted"
    table = (await a.http.get(f"/api/tables/{table_id}")).json()
    assert table["private"] is True and table["status"] == "playing"
    assert [s["player"] for s in table["seats"]] == [masha.name, olya.name]
    assert table["turn_seconds"] == 45 and table["rated"] is False
    assert table["options"]["fish_rule"] == "one"
    # the table is in both players' own lists, and nowhere in the lobby
    for side, who in ((a, masha), (b, olya)):
        mine = (await side.http.get("/api/me/tables", headers=who.headers)).json()
        assert table_id in [t["id"] for t in mine]
        assert next(t for t in mine if t["id"] == table_id)["private"] is True
    assert table_id not in [t["id"] for t in (await a.http.get("/api/tables")).json()]
    # accepting twice, declining or withdrawing it now: 409
    for late in (
        await b.http.post(f"/api/challenges/{challenge['id']}/accept", headers=olya.headers),
        await b.http.post(f"/api/challenges/{challenge['id']}/decline", headers=olya.headers),
        await a.http.delete(f"/api/challenges/{challenge['id']}", headers=masha.headers),
    ):
        assert late.status_code == 409, late.text
    for ws in (masha_ws, olya_ws):
        await ws.close()


async def test_challenges_decline_withdraw_limits_and_bad_input(
    sides: tuple[Side, Side],
) -> None:
    a, b = sides
    masha, olya = await register(a.http), await register(b.http)
    masha_ws = await Player(a.server.ws_url, masha).connect()
    olya_ws = await Player(b.server.ws_url, olya).connect()

    async def send(**extra: object) -> httpx.Response:
        return await a.http.post("/api/challenges", headers=masha.headers,
                                 json={"to": olya.name, "variant": "goat", **extra})

    first = (await send()).json()
    declined = await b.http.post(f"/api/challenges/{first['id']}/decline",
                                 headers=olya.headers)
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    await masha_ws.expect(lambda m: m["type"] == "challenge.update"
                          and m["challenge"]["status"] == "declined")
    second = (await send()).json()
    assert (await a.http.delete(f"/api/challenges/{second['id']}",
                                headers=masha.headers)).status_code == 204
    await olya_ws.expect(lambda m: m["type"] == "challenge.update"
                         and m["challenge"]["id"] == second["id"]
                         and m["challenge"]["status"] == "withdrawn")
    # bad input: 422 and nothing made; unknown: 404; oneself: 409
    assert (await send(variant="chess")).status_code == 422
    assert (await send(options={"nope": 1})).status_code == 422
    assert (await send(turn_seconds="30")).status_code == 422
    assert (await a.http.post("/api/challenges", headers=masha.headers, json={
        "to": "nobody_here_x", "variant": "goat"})).status_code == 404
    assert (await a.http.post("/api/challenges", headers=masha.headers, json={
        "to": masha.name, "variant": "goat"})).status_code == 409
    assert (await b.http.post("/api/challenges/nope/accept",
                              headers=olya.headers)).status_code == 404
    # at most 10 open
    for _ in range(10):
        assert (await send()).status_code == 201
    assert (await send()).status_code == 429
    outgoing = (await a.http.get("/api/challenges?limit=100", headers=masha.headers)).json()
    assert len(outgoing["outgoing"]) == 10
    paged = (await a.http.get("/api/challenges?limit=4&offset=8", headers=masha.headers)).json()
    assert len(paged["outgoing"]) == 2
    for ws in (masha_ws, olya_ws):
        await ws.close()
