"""Quick pairing (PROTOCOL §2b) over real sockets on two server processes sharing Redis."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.client import Account, Player, register
from tests.e2e.conftest import _env
from tests.servers import Server, run_server

SEEK = {"variant": "goat", "seats": 4, "turn_seconds": 45, "rated": False}


async def _seek(http: httpx.AsyncClient, who: Account, **extra: Any) -> httpx.Response:
    return await http.post("/api/seeks", headers=who.headers, json={**SEEK, **extra})


@pytest.mark.cluster
async def test_four_seeks_on_two_processes_make_exactly_one_table(
    server_pair: tuple[Server, Server],
) -> None:
    servers = server_pair
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as a, \
            httpx.AsyncClient(base_url=servers[1].url, timeout=30) as b:
        https = (a, b)
        accounts = [await register(https[i % 2]) for i in range(4)]
        sockets = [await Player(servers[i % 2].ws_url, acc).connect()
                   for i, acc in enumerate(accounts)]
        # a second socket of the first player, on the other process
        extra = await Player(servers[1].ws_url, accounts[0]).connect()
        replies = await asyncio.gather(*(
            _seek(https[(i + 1) % 2], acc) for i, acc in enumerate(accounts)))
        assert [r.status_code for r in replies] == [201] * 4, [r.text for r in replies]
        made = [r.json()["table_id"] for r in replies if "table_id" in r.json()]
        assert len(made) == 1, [r.json() for r in replies]
        table_id = made[0]
        seek_ids = {r.json()["id"] for r in replies}
        for p in (*sockets, extra):
            note = await p.expect(lambda m: m["type"] == "seek.matched")
            assert note["table_id"] == table_id and note["seek_id"] in seek_ids
        assert (await extra.expect(lambda m: m["type"] == "seek.matched"))["seek_id"] == \
            (await sockets[0].expect(lambda m: m["type"] == "seek.matched"))["seek_id"]
        table = (await a.get(f"/api/tables/{table_id}")).json()
        assert table["status"] == "playing"
        assert sorted(s["player"] for s in table["seats"]) == sorted(x.name for x in accounts)
        assert table["turn_seconds"] == SEEK["turn_seconds"] and table["rated"] is False
        # PROTOCOL §2g: the seeks' reserve and the casual default for a timeout
        assert (table["reserve_seconds"], table["on_timeout"]) == (60, "computer")
        for http in https:
            assert (await http.get("/api/seeks")).json() == []
        # each player's socket sees the table with his own hand
        for p in sockets:
            state = await p.request({"type": "table.subscribe", "table_id": table_id})
            assert len(state["view"]["hand"]) == 7
        for p in (*sockets, extra):
            await p.close()


async def test_many_seeks_at_once_seat_every_player_once(
    server_pair: tuple[Server, Server],
) -> None:
    servers = server_pair
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as a, \
            httpx.AsyncClient(base_url=servers[1].url, timeout=30) as b:
        https = (a, b)
        accounts = [await register(https[i % 2]) for i in range(12)]
        sockets = [await Player(servers[i % 2].ws_url, acc).connect()
                   for i, acc in enumerate(accounts)]
        replies = await asyncio.gather(*(
            _seek(https[i % 2], acc, seats=2, turn_seconds=40) for i, acc in enumerate(accounts)))
        assert all(r.status_code == 201 for r in replies), [r.text for r in replies]
        tables = [r.json()["table_id"] for r in replies if "table_id" in r.json()]
        assert len(tables) == len(set(tables)) == 6
        notes = [await p.expect(lambda m: m["type"] == "seek.matched") for p in sockets]
        seated: Counter[str] = Counter()
        for table_id in tables:
            table = (await a.get(f"/api/tables/{table_id}")).json()
            seated.update(s["player"] for s in table["seats"])
        assert seated == Counter(x.name for x in accounts)
        assert {n["table_id"] for n in notes} == set(tables)
        for p in sockets:
            await p.close()


async def test_one_open_seek_a_range_a_cancel_and_the_last_socket(
    server_pair: tuple[Server, Server],
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        one, two = await register(http), await register(http)
        socket_one = await Player(first.ws_url, one).connect()
        socket_two = await Player(second.ws_url, two).connect()
        # a range nobody new (1500) is inside: it waits
        high = await _seek(http, one, seats=2, rating_range=[1800, 2500])
        assert high.status_code == 201 and "table_id" not in high.json()
        again = await _seek(http, one, seats=2)
        assert again.status_code == 409
        other = await _seek(http, two, seats=2)
        assert other.status_code == 201 and "table_id" not in other.json()
        listed = (await http.get("/api/seeks")).json()
        assert {s["id"] for s in listed} == {high.json()["id"], other.json()["id"]}
        assert listed[0]["rating_range"] == [1800, 2500]
        # a page of them, the oldest first
        page = (await http.get("/api/seeks", params={"offset": 1, "limit": 1})).json()
        assert [s["id"] for s in page] == [other.json()["id"]]
        assert (await http.get("/api/seeks", params={"limit": 0})).status_code == 422
        assert (await http.get("/api/seeks", params={"limit": 101})).status_code == 422
        # only the owner cancels, once
        wrong = await http.delete(f"/api/seeks/{high.json()['id']}", headers=two.headers)
        assert wrong.status_code == 404
        gone = await http.delete(f"/api/seeks/{high.json()['id']}", headers=one.headers)
        assert gone.status_code == 204
        assert (await http.delete(f"/api/seeks/{high.json()['id']}",
                                  headers=one.headers)).status_code == 404
        # a range the other player (1500) is inside meets his seek at once
        near = await _seek(http, one, seats=2, rating_range=[1400, 1600.5])
        assert near.status_code == 201 and "table_id" in near.json(), near.text
        await socket_two.expect(lambda m: m["type"] == "seek.matched")
        other = await _seek(http, two, seats=2)
        assert other.status_code == 201 and "table_id" not in other.json()
        bad = await _seek(http, one, seats=2, rating_range=[1600, 1400])
        assert bad.status_code == 422
        unknown = await _seek(http, one, seats=2, options={"nope": 1})
        assert unknown.status_code == 422
        # the second player's last socket closes: his seek ends with it
        await socket_two.close()
        for _ in range(50):
            if not (await http.get("/api/seeks")).json():
                break
            await asyncio.sleep(0.1)
        assert (await http.get("/api/seeks")).json() == []
        # so a new seek of the first player waits instead of meeting it
        alone = await _seek(http, one, seats=2)
        assert alone.status_code == 201 and "table_id" not in alone.json()
        await socket_one.close()


async def test_a_seek_ends_when_its_time_is_up(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path,
) -> None:
    env = {**_env(pg_url, redis_url, f"{redis_prefix}_seek"), "DOMINO_SEEK_SECONDS": "2"}
    with run_server(env, log_dir=tmp_path) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            one, two = await register(http), await register(http)
            sockets = [await Player(server.ws_url, a).connect() for a in (one, two)]
            first = await _seek(http, one, seats=2)
            assert first.json()["expires_at"] - first.json()["created_at"] == 2000
            await asyncio.sleep(3.5)
            assert (await http.get("/api/seeks")).json() == []
            # the old seek is gone: a new one waits, and its owner may seek again
            late = await _seek(http, two, seats=2)
            assert late.status_code == 201 and "table_id" not in late.json()
            again = await _seek(http, one, seats=2)
            assert again.status_code == 201 and "table_id" in again.json()
            for p in sockets:
                await p.close()
