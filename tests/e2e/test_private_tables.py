"""Private tables (PROTOCOL §2b): never in GET /api/tables or the lobby frames, on any
process; joinable and watchable by anyone with the id."""

from __future__ import annotations

import asyncio

import httpx
import redis.asyncio as aioredis

from app.live.keys import Keys
from tests.e2e.client import Player, register
from tests.servers import Server


async def test_a_private_table_never_reaches_the_lobby_and_is_joined_by_its_link(
    server_pair: tuple[Server, Server], redis_url: str, redis_prefix: str,
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http_a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as http_b:
        owner, guest = await register(http_a), await register(http_b)
        # lobby sockets on both processes, subscribed before the table exists
        watchers = [await Player(s.ws_url, a).connect() for s, a in
                    ((first, owner), (second, guest))]
        for w in watchers:
            await w.request({"type": "lobby.subscribe"})
        made = await http_a.post("/api/tables", headers=owner.headers, json={
            "variant": "goat", "seats": 2, "turn_seconds": 60, "private": True})
        assert made.status_code == 201, made.text
        table = made.json()
        table_id = table["id"]
        assert table["private"] is True
        # casual: one rated table at a time (PROTOCOL §2g)
        public = await http_a.post("/api/tables", headers=owner.headers, json={
            "variant": "goat", "seats": 2, "turn_seconds": 60, "rated": False})
        assert public.json()["private"] is False

        for http in (http_a, http_b):
            listed = (await http.get("/api/tables")).json()
            assert table_id not in [t["id"] for t in listed]
            assert public.json()["id"] in [t["id"] for t in listed]
            # read by its id like any table
            by_id = await http.get(f"/api/tables/{table_id}")
            assert by_id.status_code == 200 and by_id.json()["private"] is True

        # anyone with the link watches it (here anonymously, on the other process) ...
        spectator = await Player(second.ws_url).connect()
        seen = await spectator.request({"type": "table.subscribe", "table_id": table_id})
        assert seen["type"] == "table.state", seen
        # ... and joins it: the game starts, still out of the lobby
        joined = await http_b.post(f"/api/tables/{table_id}/join", headers=guest.headers,
                                   json={})
        assert joined.status_code == 200, joined.text
        started = await spectator.expect(
            lambda m: m["type"] == "table.state" and m["view"]["status"] == "playing")
        assert started["view"]["hand"] == []

        # its end is not told to the lobby either: it is never due to leave it
        resigned = await http_b.post(f"/api/tables/{table_id}/leave", headers=guest.headers)
        assert resigned.status_code == 200, resigned.text
        await spectator.expect(
            lambda m: m["type"] == "table.state" and m["view"]["status"] == "finished")
        client = aioredis.Redis.from_url(redis_url)
        try:
            assert await client.zscore(Keys(f"{redis_prefix}_pair").retire, table_id) is None
            assert await client.zscore(Keys(f"{redis_prefix}_pair").index, table_id) is None
        finally:
            await client.aclose()
        # a private table left empty before it began is gone without a word to the lobby
        empty = await http_a.post("/api/tables", headers=owner.headers, json={
            "variant": "goat", "seats": 2, "turn_seconds": 60, "private": True})
        empty_id = empty.json()["id"]
        left = await http_a.post(f"/api/tables/{empty_id}/leave", headers=owner.headers)
        assert left.status_code == 200 and left.json()["table"] is None
        assert (await http_b.get(f"/api/tables/{empty_id}")).status_code == 404

        # the public table's entry arrived on both lobby sockets: the private one never did
        for w in watchers:
            await w.expect(lambda m: m["type"] == "lobby.update"
                           and m["table"]["id"] == public.json()["id"])
        await asyncio.sleep(0.5)
        for w in watchers:
            assert table_id not in "".join(w.raw) and empty_id not in "".join(w.raw)
            fresh = await w.request({"type": "lobby.subscribe"})
            assert table_id not in [t["id"] for t in fresh["tables"]]
        for http in (http_a, http_b):
            assert table_id not in [t["id"] for t in (await http.get("/api/tables")).json()]
        for p in (*watchers, spectator):
            await p.close()
