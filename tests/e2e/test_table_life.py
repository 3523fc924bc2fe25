"""A table's life around its games: the pause between rounds, resignations told apart
from timeouts, rematches, and error words in the player's language (PROTOCOL §2a)."""

from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import websockets

from tests.e2e.client import Message, Player, autoplay, create_table, join, register
from tests.servers import Server

PAUSE = 2


async def _pair(
    server: Server, http: httpx.AsyncClient, **table: object
) -> tuple[str, list[Player], list]:
    accounts = [await register(http) for _ in range(2)]
    created = await create_table(http, accounts[0], seats=2, **table)  # type: ignore[arg-type]
    players = [await Player(server.ws_url, a).connect() for a in accounts]
    for p in players:
        await p.request({"type": "table.subscribe", "table_id": created["id"]})
    await join(http, created["id"], accounts[1])
    return created["id"], players, accounts


async def test_the_next_round_waits_for_the_pause_and_its_clock_starts_after_it(
    server: Server,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table_id, players, _ = await _pair(
            server, http, round_pause_seconds=PAUSE, turn_seconds=60
        )
        assert (await http.get(f"/api/tables/{table_id}")).json()["round_pause_seconds"] == PAUSE

        def paused(state: Message) -> bool:
            return state["view"].get("next_round_at") is not None

        rng = random.Random(7)
        # Both play until a round is over; the state that ends it starts the pause.
        finals = [autoplay(p, table_id, rng, stop=paused, timeout=90) for p in players]
        stopped = await asyncio.gather(*finals)
        ends = [s for s in stopped if paused(s)]
        assert ends, "no round ended"
        state = ends[0]
        ended_at = state["server_time"]
        view = state["view"]
        assert view["status"] == "playing"
        assert view["history"], "the pause follows a round's end"
        assert abs(view["next_round_at"] - (ended_at + PAUSE * 1000)) < 1000
        assert view["deadline"] is None and view["legal"] == []

        # A move during the pause is refused and changes nothing.
        leader = view["turn"]
        mover = players[leader]
        fresh = await mover.request({"type": "table.subscribe", "table_id": table_id})
        tile = fresh["view"]["hand"][0]
        refused = await mover.request(
            {"type": "play", "table_id": table_id, "tile": tile, "seq": fresh["seq"]}
        )
        assert refused["type"] == "error" and refused["code"] == "not_your_turn", refused
        assert "next round" in refused["message"]

        # At the end of the pause a new state starts the leader's clock.
        resumed = await mover.expect(
            lambda m: m["type"] == "table.state" and m["seq"] == fresh["seq"] + 1,
            timeout=PAUSE + 10,
        )
        assert [e["type"] for e in resumed["events"]] == ["round_resume"]
        rv = resumed["view"]
        assert rv["next_round_at"] is None and rv["legal"]
        assert resumed["server_time"] >= view["next_round_at"]
        assert abs(rv["deadline"] - (resumed["server_time"] + 60_000)) < 1500
        for p in players:
            await p.close()


async def test_a_resignation_is_told_apart_from_a_timeout_everywhere(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table_id, players, accounts = await _pair(server, http)
        state = await players[1].request({"type": "resign", "table_id": table_id})
        assert state["type"] == "table.state", state
        kinds = {e["type"]: e for e in state["events"]}
        assert kinds["timeout"]["reason"] == "resign"
        assert kinds["round_end"]["end"]["kind"] == "timeout"  # the scoring is RULES 1.10's
        result = state["view"]["result"]
        assert result["reason"] == "resign" and result["losers"] == [1]
        assert result["rating"][1] == 0 and result["rating"][0] >= 1

        game_id = state["view"]["game_id"]
        deadline = time.monotonic() + 20
        while (r := await http.get(f"/api/games/{game_id}")).status_code != 200:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
        record = r.json()
        assert record["timeout"]["reason"] == "resign"
        assert record["result"]["reason"] == "resign"
        page = (await http.get(f"/api/players/{accounts[1].name}")).json()
        assert page["recent_games"][0]["reason"] == "resign"
        for p in players:
            await p.close()


async def test_a_rematch_starts_when_every_seat_has_offered(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table_id, players, accounts = await _pair(
            server, http, options={"fish_rule": "one"}, turn_seconds=45, rated=False,
            round_pause_seconds=3,
        )
        # Not before the game is over.
        early = await http.post(f"/api/tables/{table_id}/rematch", headers=accounts[0].headers)
        assert early.status_code == 409
        await players[0].request({"type": "resign", "table_id": table_id})
        stranger = await register(http)
        refused = await http.post(f"/api/tables/{table_id}/rematch", headers=stranger.headers)
        assert refused.status_code == 409
        assert (await http.post(f"/api/tables/{table_id}/rematch")).status_code == 401

        first = await http.post(f"/api/tables/{table_id}/rematch", headers=accounts[0].headers)
        assert first.status_code == 200, first.text
        assert first.json() == {"offers": [0], "new_table_id": None}
        again = await http.post(f"/api/tables/{table_id}/rematch", headers=accounts[0].headers)
        assert again.json() == {"offers": [0], "new_table_id": None}
        # The other player sees the offer in his view.
        await players[1].expect(
            lambda m: m["type"] == "table.state"
            and (m["view"].get("rematch") or {}).get("offers") == [0]
        )

        reply = await players[1].request({"type": "rematch", "table_id": table_id})
        assert reply["type"] == "rematch" and reply["offers"] == [0, 1], reply
        new_id = reply["new_table_id"]
        assert new_id and new_id != table_id
        for p in players:
            note = await p.expect(lambda m: m["type"] == "table.rematch")
            assert note == {"type": "table.rematch", "table_id": table_id,
                            "new_table_id": new_id, "offers": [0, 1]}
        table = (await http.get(f"/api/tables/{new_id}")).json()
        assert table["status"] == "playing"
        assert [s["player"] for s in table["seats"]] == [a.name for a in accounts]
        assert table["options"]["fish_rule"] == "one"
        assert (table["turn_seconds"], table["rated"], table["round_pause_seconds"]) == (
            45, False, 3,
        )
        # A second accept changes nothing.
        late = await http.post(f"/api/tables/{table_id}/rematch", headers=accounts[1].headers)
        assert late.json()["new_table_id"] == new_id
        new_state = await players[0].request({"type": "table.subscribe", "table_id": new_id})
        assert len(new_state["view"]["hand"]) == 7
        for p in players:
            await p.close()


async def test_error_words_follow_the_players_language(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table_id, players, accounts = await _pair(server, http)
        me = players[0]
        await me.request({"type": "hello", "token": accounts[0].token, "lang": "ru"})
        wrong = await me.request(
            {"type": "play", "table_id": "nope", "tile": "1-1", "seq": 0}
        )
        assert wrong["code"] == "not_found" and wrong["message"] == "стола nope нет"
        state = await me.request({"type": "table.subscribe", "table_id": table_id})
        stale = await me.request(
            {"type": "play", "table_id": table_id, "tile": "1-1", "seq": state["seq"] + 5}
        )
        assert stale["code"] == "stale"
        assert stale["message"].startswith("стол уже на шаге")

        # A socket's handshake language counts until hello says otherwise.
        ws = await websockets.connect(
            server.ws_url, additional_headers={"Accept-Language": "th-TH,th;q=0.9"}
        )
        await ws.send('{"type": "chat", "table_id": "x", "text": "hi", "id": 1}')
        reply = json.loads(await ws.recv())
        assert reply["code"] == "unauthorized" and reply["message"] == "กรุณาเข้าสู่ระบบก่อน"
        await ws.close()

        # HTTP details follow Accept-Language; the status is the same.
        fa = await http.get("/api/tables/nope", headers={"Accept-Language": "fa-IR,fa"})
        assert fa.status_code == 404 and fa.json()["detail"] == "میز nope وجود ندارد"
        lo = await http.post(
            f"/api/tables/{table_id}/join", headers={**accounts[0].headers, "Accept-Language": "lo"}
        )
        assert lo.status_code == 409 and lo.json()["detail"] == "ທ່ານນັ່ງຢູ່ໂຕະນີ້ແລ້ວ"
        en = await http.get("/api/tables/nope")
        assert en.json()["detail"] == "no table 'nope'"
        for p in players:
            await p.close()
