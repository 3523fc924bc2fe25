"""The courtyard table (PROTOCOL §2d), on two processes: six people, four play in two
teams, the losing team gives way to the two who wait, each game a game of its own."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import asyncpg
import httpx

from tests.e2e.client import Account, Player, autoplay, join, register
from tests.faults.stores import _dsn
from tests.protocol_schema import problems
from tests.servers import Server

TURN_SECONDS = 6


def _names(table: dict[str, Any]) -> list[str | None]:
    return [s["player"] for s in table["seats"]]


async def _play_a_round_and_resign(players: list[Player], table_id: str, game_id: str,
                                   resigner: Player) -> None:
    """Every seat plays (so the game pays ratings) until a round is over; then `resigner`
    resigns and his team has lost."""

    def round_over(state: dict[str, Any]) -> bool:
        view = state["view"]
        return view["game_id"] == game_id and bool(view["history"])

    finals = await asyncio.gather(*(
        autoplay(p, table_id, random.Random(i), stop=round_over, timeout=90)
        for i, p in enumerate(players)))
    for final in finals:
        # (a queue's change is a change of the table: a move chosen before it is stale)
        assert all(err["code"] == "stale" for err in final["errors"]), final["errors"]
    reply = await resigner.request({"type": "resign", "table_id": table_id})
    assert reply["type"] == "table.state", reply


async def _playing(player: Player, table_id: str, *played: str) -> dict[str, Any]:
    """The first state of a game other than those `played` already."""
    state = await player.expect(
        lambda m: m["type"] == "table.state" and m["table_id"] == table_id
        and m["view"]["status"] == "playing" and m["view"]["game_id"] not in played,
        timeout=30)
    return dict(state)


async def test_a_courtyard_of_six_the_losers_sit_out_the_next_game(
    server_pair: tuple[Server, Server], pg_url: str,
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as one, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as two:
        a, b, c, d, e, f, g = [await register(one) for _ in range(7)]
        # (turn_seconds is also how long one may be away from the queue; the reserve keeps
        # a slow move of a loaded machine from being a timeout)
        terms = {"variant": "goat", "seats": 4, "options": {"teams": True},
                 "turn_seconds": TURN_SECONDS, "reserve_seconds": 30,
                 "round_pause_seconds": 1, "rated": True, "courtyard": True,
                 "waiting_max": 2}
        # Only a game of two teams makes a courtyard: the engine says which (422 else).
        for wrong in ({"variant": "goat", "options": {}}, {"variant": "classic"},
                      {"waiting_max": 3}):
            refused = await one.post("/api/tables", headers=g.headers,
                                     json={**terms, **wrong})
            assert refused.status_code == 422, refused.text
        made = await one.post("/api/tables", headers=a.headers, json=terms)
        assert made.status_code == 201, made.text
        table = made.json()
        table_id = table["id"]
        assert table["courtyard"] is True and table["queue"] == [] and table["games"] == 0

        def queue(who: Account, http: httpx.AsyncClient) -> Any:
            return http.post(f"/api/tables/{table_id}/queue", headers=who.headers)

        # A free seat is taken, not waited for.
        assert (await queue(e, two)).status_code == 409
        people = [a, b, c, d, e, f]
        sockets = [await Player((first, second)[i % 2].ws_url, who).connect()
                   for i, who in enumerate(people)]
        for p in sockets:
            assert (await p.request({"type": "table.subscribe", "table_id": table_id}
                                    ))["type"] == "table.state"
        for seat, who in ((1, b), (2, c), (3, d)):
            assert await join((one, two)[seat % 2], table_id, who, seat=seat) == seat
        game_1 = (await _playing(sockets[0], table_id))["view"]["game_id"]

        # The queue, on either process: places, full, already in, not in, blocks.
        first_in = await queue(e, two)
        assert first_in.status_code == 200 and first_in.json() == {"position": 1}
        assert (await queue(f, one)).json() == {"position": 2}
        assert (await queue(g, two)).status_code == 409  # full: 2 wait
        assert (await queue(e, one)).status_code == 409  # already in
        assert (await queue(a, two)).status_code == 409  # seated
        assert (await two.delete(f"/api/tables/{table_id}/queue",
                                 headers=g.headers)).status_code == 409
        left = await one.delete(f"/api/tables/{table_id}/queue", headers=f.headers)
        assert left.status_code == 204
        assert (await two.post(f"/api/blocks/{g.name}", headers=c.headers)).status_code == 204
        assert (await queue(g, one)).status_code == 403  # c, who sits there, blocks him
        assert (await queue(f, two)).json() == {"position": 2}
        # A waiting player holds the rated table's seat: no second rated table meanwhile.
        other = await one.post("/api/tables", headers=e.headers,
                               json={"variant": "goat", "seats": 2, "rated": True})
        assert other.status_code == 409, other.text
        listed = {t["id"]: t for t in (await two.get("/api/tables")).json()}
        assert listed[table_id]["queue"] == [e.name, f.name]

        # Game 1: a+c against b+d; b resigns after a round, so b and d have lost.
        await _play_a_round_and_resign(sockets[:4], table_id, game_1, sockets[1])
        ended = await sockets[4].expect(
            lambda m: m["type"] == "table.state" and m["table_id"] == table_id
            and m["view"]["status"] == "finished", timeout=30)
        turned = next(ev for ev in ended["events"] if ev["type"] == "courtyard")
        # the courtyard's frames are the schema's (its events, its view's part)
        assert problems(ended) == [], problems(ended)
        joined = next(m for m in sockets[4].frames if m.get("type") == "table.state"
                      and any(ev["type"] == "queue" for ev in m["events"]))
        assert problems(joined) == [], problems(joined)
        assert turned["leaving"] == [b.name, d.name] and turned["coming"] == [e.name, f.name]
        assert turned["next"] == [a.name, e.name, c.name, f.name] and turned["game"] == 2

        # Game 2 starts by itself after the pause: e and f sit as partners, b and d wait.
        started = await _playing(sockets[4], table_id, game_1)
        game_2 = started["view"]["game_id"]
        assert started["view"]["you"] == 1
        assert (await _playing(sockets[5], table_id, game_1))["view"]["you"] == 3
        now = (await one.get(f"/api/tables/{table_id}")).json()
        assert _names(now) == [a.name, e.name, c.name, f.name]
        assert now["queue"] == [b.name, d.name] and now["games"] == 2
        assert now["status"] == "playing" and now["game_id"] == game_2

        # While game 2 is played: d leaves the queue; b closes his only socket and is gone
        # after turn_seconds. Then e resigns; fewer than two wait: the same four play on.
        async def b_goes() -> None:
            assert (await two.delete(f"/api/tables/{table_id}/queue",
                                     headers=d.headers)).status_code == 204
            await sockets[1].close()
            gone_by = time.monotonic() + TURN_SECONDS + 10
            while (await two.get(f"/api/tables/{table_id}")).json()["queue"] != []:
                assert time.monotonic() < gone_by, "b is still in the queue"
                await asyncio.sleep(0.5)

        players_2 = [sockets[0], sockets[4], sockets[2], sockets[5]]
        await asyncio.gather(
            b_goes(), _play_a_round_and_resign(players_2, table_id, game_2, sockets[4]))
        game_3 = (await _playing(sockets[0], table_id, game_1, game_2))["view"]["game_id"]
        again = (await one.get(f"/api/tables/{table_id}")).json()
        assert _names(again) == [a.name, e.name, c.name, f.name] and again["games"] == 3
        assert game_3 not in (game_1, game_2)

        # Everyone leaves: the game is resigned and the table goes once it is written.
        for who in (a, e, c, f):
            assert (await one.post(f"/api/tables/{table_id}/leave",
                                   headers=who.headers)).status_code == 200
        gone_by = time.monotonic() + 20
        while (await one.get(f"/api/tables/{table_id}")).status_code != 404:
            assert time.monotonic() < gone_by, "the courtyard outlived its people"
            await asyncio.sleep(0.5)

    # Each game is a game of its own: its record, its players, its ratings.
    conn = await asyncpg.connect(_dsn(pg_url))
    try:
        rows = await conn.fetch(
            "SELECT id, players, rated FROM games WHERE table_id = $1", table_id)
        games = {row["id"]: row for row in rows}
        assert set(games) == {game_1, game_2, game_3}
        # (game 3 was resigned before anyone moved: aborted, it pays nothing)
        assert games[game_1]["rated"] and games[game_2]["rated"] and not games[game_3]["rated"]
        seats = {gid: {r["seat"]: (r["player_id"], r["outcome"], r["skill_after"]) for r in
                       await conn.fetch("SELECT * FROM game_players WHERE game_id = $1", gid)}
                 for gid in (game_1, game_2)}
    finally:
        await conn.close()
    assert games[game_1]["players"] == f'["{a.name}", "{b.name}", "{c.name}", "{d.name}"]'
    assert games[game_2]["players"] == f'["{a.name}", "{e.name}", "{c.name}", "{f.name}"]'
    assert [seats[game_1][s][0] for s in range(4)] == [a.id, b.id, c.id, d.id]
    assert [seats[game_2][s][0] for s in range(4)] == [a.id, e.id, c.id, f.id]
    assert seats[game_1][1][1] == "lost" and seats[game_2][1][1] == "lost"
    # each rated game moved the skill of every one of its four (RULES §9)
    assert all(skill is not None for game in seats.values() for _, _, skill in game.values())
    for p in sockets:
        await p.close()


async def test_a_waiting_player_away_from_the_table_is_told_his_turn_has_come(
    server_pair: tuple[Server, Server],
) -> None:
    """Who comes in for the next game is told as state (PROTOCOL §2d `courtyard.seated`):
    on his socket on the other process though he does not follow the table, and again at
    every hello until he is at it."""
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as one:
        a, b, c, d, e, f = [await register(one) for _ in range(6)]
        made = await one.post("/api/tables", headers=a.headers, json={
            "variant": "goat", "seats": 4, "options": {"teams": True}, "turn_seconds": 30,
            "round_pause_seconds": 2, "rated": False, "courtyard": True, "waiting_max": 2})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        for seat, who in ((1, b), (2, c), (3, d)):
            await join(one, table_id, who, seat=seat)
        for who in (e, f):
            assert (await one.post(f"/api/tables/{table_id}/queue",
                                   headers=who.headers)).status_code == 200
        # e has a socket on the other process, on no table's page; f has none at all
        e_away = await Player(second.ws_url, e).connect()
        # b resigns on the first process: the game is over, b+d give way to e+f
        b_there = await Player(first.ws_url, b).connect()
        assert (await b_there.request({"type": "resign", "table_id": table_id}))[
            "type"] == "table.state"
        await b_there.close()
        told = await e_away.expect(lambda m: m["type"] == "courtyard.seated", timeout=20)
        assert told == {"type": "courtyard.seated", "table_id": table_id, "game": 2}
        assert problems(told) == [], problems(told)

        # f, who had no socket then, is told at his hello (on either process) ...
        f_late = await Player(first.ws_url, f).connect()
        assert await f_late.expect(lambda m: m["type"] == "courtyard.seated") == told
        # ... until he is at his table; and e, not there yet, again at his next hello,
        # also once the game he was told of has begun
        assert (await f_late.request({"type": "table.subscribe", "table_id": table_id}))[
            "type"] == "table.state"
        await _playing(f_late, table_id)
        await e_away.close()
        e_back = await Player(first.ws_url, e).connect()
        assert await e_back.expect(lambda m: m["type"] == "courtyard.seated") == told
        await f_late.close()
        f_back = await Player(second.ws_url, f).connect()
        await f_back.request({"type": "lobby.subscribe"})
        await f_back.request({"type": "ping"})  # (after whatever the subscription resent)
        assert [m for m in f_back.frames if m["type"] == "courtyard.seated"] == []
        for who in (a, c, e, f):  # (the table goes)
            assert (await one.post(f"/api/tables/{table_id}/leave",
                                   headers=who.headers)).status_code == 200
        for who in (b, d):
            assert (await one.delete(f"/api/tables/{table_id}/queue",
                                     headers=who.headers)).status_code == 204
        for p in (e_back, f_back):
            await p.close()
