"""Ratings that cannot be farmed (PROTOCOL §2g), on two processes sharing the stores: one
rated game at a time by every way to a seat, open seeks among the waiting tables, and two
accounts in several rated arenas at once meet at one table at a time."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.client import Account, Player, create_table, join, register
from tests.security.conftest import servers
from tests.servers import Server


@pytest.fixture(scope="module")
def pair(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[list[Server]]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("fair"), count=2,
                 DOMINO_MAX_WAITING_TABLES="2") as running:
        yield running


async def _seek(server: Server, who: Account, **extra: object) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        return await http.post("/api/seeks", headers=who.headers,
                               json={"variant": "goat", "seats": 2, **extra})


async def test_a_seated_player_cannot_sit_at_a_second_rated_game_by_any_way(
    pair: list[Server],
) -> None:
    first, second = pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        farmer, friend, other = [await register(http) for _ in range(3)]
        table = await create_table(http, farmer, seats=2)
        await join(http, table["id"], friend)
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        # a second rated table, made or joined, on the other process
        made = await http.post("/api/tables", headers=farmer.headers,
                               json={"variant": "goat", "seats": 2})
        assert made.status_code == 409, made.text
        assert "rated game already" in made.json()["detail"]
        waiting = await create_table(http, other, seats=2)
        joined = await http.post(f"/api/tables/{waiting['id']}/join", headers=farmer.headers)
        assert joined.status_code == 409, joined.text
        # nothing of it stays: the table still waits with its one seat free
        seats = (await http.get(f"/api/tables/{waiting['id']}")).json()["seats"]
        assert [s["player"] for s in seats] == [other.name, None]
        # a casual table is his to make
        casual = await http.post("/api/tables", headers=farmer.headers,
                                 json={"variant": "goat", "seats": 2, "rated": False})
        assert casual.status_code == 201, casual.text
    # a rated seek is refused, on either process
    for server in pair:
        refused = await _seek(server, farmer)
        assert refused.status_code == 409, refused.text
    # once he has left (resigned) his game, he may sit down again
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        left = await http.post(f"/api/tables/{table['id']}/leave", headers=farmer.headers)
        assert left.status_code == 200, left.text
        for _ in range(100):
            if (await http.get(f"/api/tables/{table['id']}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        joined = await http.post(f"/api/tables/{waiting['id']}/join", headers=farmer.headers)
        assert joined.status_code == 200, joined.text


async def test_a_matched_seek_is_a_rated_game_and_a_seek_is_a_waiting_table(
    pair: list[Server],
) -> None:
    first, second = pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        farmer, friend = await register(http), await register(http)
    opened = await _seek(first, farmer)
    assert opened.status_code == 201, opened.text
    matched = await _seek(second, friend)
    assert matched.status_code == 201 and matched.json()["table_id"], matched.text
    # seated by the match: no second rated game, by a seek or a table
    for server in pair:
        assert (await _seek(server, farmer)).status_code == 409
        assert (await _seek(server, friend)).status_code == 409
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        made = await http.post("/api/tables", headers=friend.headers,
                               json={"variant": "goat", "seats": 2})
        assert made.status_code == 409, made.text
        # An open casual seek takes one of his two waiting-table places.
        casual = await _seek(second, farmer, rated=False)
        assert casual.status_code == 201, casual.text
        one = await http.post("/api/tables", headers=farmer.headers,
                              json={"variant": "goat", "seats": 2, "rated": False})
        assert one.status_code == 201, one.text
        over = await http.post("/api/tables", headers=farmer.headers,
                               json={"variant": "goat", "seats": 2, "rated": False})
        assert over.status_code == 409 and "tables waiting" in over.json()["detail"], over.text
        # cancelled, the seek gives its place back
        gone = await http.delete(f"/api/seeks/{casual.json()['id']}", headers=farmer.headers)
        assert gone.status_code == 204
        again = await http.post("/api/tables", headers=farmer.headers,
                                json={"variant": "goat", "seats": 2, "rated": False})
        assert again.status_code == 201, again.text


async def test_two_accounts_in_several_rated_arenas_meet_at_one_table_at_a_time(
    pair: list[Server],
) -> None:
    first, second = pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        one, two = await register(http), await register(http)
        arenas = []
        for n in range(3):
            made = await http.post("/api/tournaments", headers=one.headers, json={
                "name": f"Farm {n}", "variant": "goat", "seats": 2, "format": "arena",
                "minutes": 5})
            assert made.status_code == 201, made.text
            arenas.append(made.json()["id"])
    for n, arena in enumerate(arenas):
        server = pair[n % 2]
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for who in (one, two):
                joined = await http.post(f"/api/tournaments/{arena}/join", headers=who.headers)
                assert joined.status_code == 200, joined.text
            started = await http.post(f"/api/tournaments/{arena}/start", headers=one.headers)
            assert started.status_code == 200, started.text
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        paired = 0
        for _ in range(40):  # the directors have ticked many times over
            await asyncio.sleep(0.1)
            tables = [t for arena in arenas
                      for t in (await http.get(f"/api/tournaments/{arena}")).json()["tables"]]
            playing = [t for t in tables if t["status"] == "playing"]
            assert len(playing) <= 1, tables
            paired = max(paired, len(tables))
        assert paired == 1  # paired in one arena; the others wait for that game to end


async def test_a_seek_whose_owner_sits_down_at_a_rated_table_ends_and_he_is_told(
    pair: list[Server],
) -> None:
    """His seek is matched after he sat down elsewhere: the match is not made, the other
    seek waits again, and his own ends with a `seek.ended` on his socket (PROTOCOL §2b),
    so his Play now box stops waiting."""
    first, second = pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        seeker, host, other = [await register(http) for _ in range(3)]
        socket = await Player(second.ws_url, seeker).connect()
        opened = await _seek(first, seeker)
        assert opened.status_code == 201, opened.text
        table = await create_table(http, host, seats=2)
        await join(http, table["id"], seeker)  # a rated game elsewhere, started
    waiting = await _seek(second, other)
    assert waiting.status_code == 201, waiting.text
    assert "table_id" not in waiting.json()
    note = await socket.expect(lambda m: m["type"] == "seek.ended")
    assert note == {"type": "seek.ended", "seek_id": opened.json()["id"],
                    "reason": "rated_game"}
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        listed = (await http.get("/api/seeks")).json()
    assert [s["id"] for s in listed] == [waiting.json()["id"]]
    await socket.close()
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        gone = await http.delete(f"/api/seeks/{waiting.json()['id']}", headers=other.headers)
        assert gone.status_code == 204
