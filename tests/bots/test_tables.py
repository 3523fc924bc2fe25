"""Bots at live tables, end to end: real server processes, real sockets, real PostgreSQL
and Redis. Bots are seated over HTTP, move through the server's own clock and move path,
finish games, are never paid or rated, take over a timed-out seat where the table allows
it, and keep playing across a SIGKILL of the process that was running them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.client import Account, Player, autoplay, create_table, register
from tests.e2e.game import PlayedGame, check_no_leaks, leaderboard_points, stored_record
from tests.e2e.test_clocks import finished
from tests.servers import Server, run_server


def bot_env(pg_url: str, redis_url: str, prefix: str) -> dict[str, str]:
    return {
        "DOMINO_DATABASE_URL": pg_url,
        "DOMINO_REDIS_URL": redis_url,
        "DOMINO_REDIS_PREFIX": prefix,
        "DOMINO_SWEEP_SECONDS": "0.05",
        "DOMINO_BOT_PACE_SECONDS": "0.02",
        "DOMINO_BOT_THINK_SECONDS": "0.05",
    }


@pytest.fixture(scope="module")
def bot_pair(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    env = bot_env(pg_url, redis_url, f"{redis_prefix}_bots")
    log_dir = tmp_path_factory.mktemp("bots")
    with run_server(env, log_dir=log_dir) as first, run_server(env, log_dir=log_dir) as second:
        yield first, second


async def add_bot(
    http: httpx.AsyncClient, table_id: str, who: Account, strength: str, seat: int | None = None
) -> httpx.Response:
    body: dict[str, object] = {"strength": strength}
    if seat is not None:
        body["seat"] = seat
    return await http.post(f"/api/tables/{table_id}/bots", headers=who.headers, json=body)


async def test_adding_a_bot_is_checked_like_joining(bot_pair: tuple[Server, Server]) -> None:
    first, _ = bot_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        owner, stranger = await register(http), await register(http)
        # A rated table is for people only: no bot sits there, and the table is unchanged.
        rated = await create_table(http, owner, seats=3, rated=True)
        r = await add_bot(http, rated["id"], owner, "random")
        assert r.status_code == 409 and "people" in r.json()["detail"]
        after = (await http.get(f"/api/tables/{rated['id']}")).json()
        assert after["rated"] is True and after["seats"][1]["player"] is None
        await http.post(f"/api/tables/{rated['id']}/leave", headers=owner.headers)
        table = await create_table(http, owner, seats=3, rated=False)
        table_id = table["id"]
        r = await http.post(f"/api/tables/{table_id}/bots", json={"strength": "random"})
        assert r.status_code == 401
        assert (await add_bot(http, "nosuchtable", owner, "random")).status_code == 404
        r = await add_bot(http, table_id, stranger, "random")
        assert r.status_code == 409 and "seated" in r.json()["detail"]
        assert (await add_bot(http, table_id, owner, "genius")).status_code == 422
        assert (await add_bot(http, table_id, owner, "random", seat=0)).status_code == 409
        assert (await add_bot(http, table_id, owner, "random", seat=7)).status_code == 409
        # nothing of that changed the table
        after = (await http.get(f"/api/tables/{table_id}")).json()
        assert [s["player"] for s in after["seats"]] == [owner.name, None, None]
        r = await add_bot(http, table_id, owner, "strong", seat=2)
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == 2
        seats = r.json()["table"]["seats"]
        assert seats[2]["bot"] == "strong" and seats[2]["player"] == "Bot 3 (strong)"
        assert r.json()["table"]["status"] == "waiting"
        # the last person leaving a table of bots removes it
        left = await http.post(f"/api/tables/{table_id}/leave", headers=owner.headers)
        assert left.status_code == 200 and left.json()["table"] is None
        assert (await http.get(f"/api/tables/{table_id}")).status_code == 404
        # a timed-out seat can be handed to a bot only at a casual table
        r = await http.post(
            "/api/tables", headers=owner.headers,
            json={"variant": "goat", "seats": 2, "rated": True, "on_timeout": "computer"},
        )
        assert r.status_code == 422


async def test_a_game_with_bots_pays_nobody(
    bot_pair: tuple[Server, Server],
) -> None:
    first, second = bot_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        person = await register(http)
        table = await create_table(http, person, seats=4, rated=False)
        table_id = table["id"]
        me = await Player(second.ws_url, person).connect()
        spectator = await Player(first.ws_url).connect()
        for socket in (me, spectator):
            reply = await socket.request({"type": "table.subscribe", "table_id": table_id})
            assert reply["type"] == "table.state"
        for seat, strength in ((1, "random"), (2, "heuristic"), (3, "strong")):
            r = await add_bot(http, table_id, person, strength, seat=seat)
            assert r.status_code == 200, r.text
        final = await autoplay(me, table_id, random.Random(5), timeout=240)
    assert final["errors"] == []
    view = final["view"]
    assert view["status"] == "finished"
    result = view["result"]
    bots = [s["player"] for s in view["seats"][1:]]
    assert bots == ["Bot 2 (random)", "Bot 3 (heuristic)", "Bot 4 (strong)"]
    assert all(s["bot"] and s["connected"] for s in view["seats"][1:])
    # every seat placed tiles: the bots played through the server's move path
    record = await stored_record(first, view["game_id"])
    assert record["players"] == [person.name, *bots]
    placed = {m["seat"] for rd in record["rounds"] for m in rd["moves"]}
    assert placed == {0, 1, 2, 3}
    assert record["result"] == result
    # what the bots did never showed the person or a spectator a hidden tile
    await spectator.expect(finished(table_id), timeout=30)
    check_no_leaks(
        PlayedGame(table_id, view["game_id"], [person], [me], spectator, [final]), record
    )
    # ratings are earned among people: nobody is on the leaderboard, no bot has a page
    points = await leaderboard_points(first, [person.name, *bots])
    assert points == {}
    async with httpx.AsyncClient(base_url=second.url) as http:
        page = (await http.get(f"/api/players/{person.name}")).json()
        assert [g["game_id"] for g in page["recent_games"]] == [view["game_id"]]
        for name in bots:
            assert (await http.get(f"/api/players/{name}")).status_code == 404
    await me.close()
    await spectator.close()


async def test_bots_take_over_and_finish_across_a_sigkill(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    """A casual table with `on_timeout: "computer"`: the person never moves, times out, and a bot
    plays on for him. The process that ran the bots is killed outright mid-game; a process
    started afterwards finishes the game from the store and writes it."""
    env = bot_env(pg_url, redis_url, f"{redis_prefix}_botcrash")
    with run_server(env, log_dir=tmp_path) as doomed:
        async with httpx.AsyncClient(base_url=doomed.url, timeout=30) as http:
            person = await register(http)
            r = await http.post(
                "/api/tables", headers=person.headers,
                json={"variant": "goat", "seats": 2, "rated": False, "turn_seconds": 5,
                      "reserve_seconds": 0, "on_timeout": "computer",
                      "round_pause_seconds": 0},
            )
            assert r.status_code == 201, r.text
            table_id = r.json()["id"]
            assert r.json()["on_timeout"] == "computer"
            watcher = await Player(doomed.ws_url).connect()
            await watcher.request({"type": "table.subscribe", "table_id": table_id})
            assert (await add_bot(http, table_id, person, "strong")).status_code == 200
        taken = await watcher.expect(
            lambda m: any(e["type"] == "bot_takeover" for e in m.get("events", [])), timeout=20
        )
        event = next(e for e in taken["events"] if e["type"] == "bot_takeover")
        assert event["player"] == person.name and taken["view"]["status"] == "playing"
        # both seats are bots now; let them play a while on this process alone
        await watcher.expect(
            lambda m: m["type"] == "table.state" and m["seq"] >= taken["seq"] + 6, timeout=30
        )
        with run_server(env, log_dir=tmp_path) as survivor:
            doomed.process.kill()
            doomed.process.wait()
            seen = max(m["seq"] for m in watcher.frames if m["type"] == "table.state")
            spectator = await Player(survivor.ws_url).connect()
            now = await spectator.request({"type": "table.subscribe", "table_id": table_id})
            assert now["seq"] >= seen
            final = await spectator.expect(finished(table_id), timeout=180)
            result = final["view"]["result"]
            assert result["reason"] == "goat"
            assert final["seq"] > seen + 2  # moves were made after the kill
            record = await stored_record(survivor, final["view"]["game_id"])
            assert record["players"] == ["Bot 1 (heuristic)", "Bot 2 (strong)"]
            assert record["result"] == result
            await spectator.close()


def bot_plays(player: Player, table_id: str, seat: int) -> int:
    """How many placements by `seat` this socket has been told of."""
    return sum(
        1
        for m in player.frames
        if m.get("type") == "table.state" and m.get("table_id") == table_id
        for e in m["events"]
        if e["type"] == "play" and e.get("seat") == seat
    )


@pytest.mark.parametrize("variant", ["donkey", "mexican_train"])
async def test_a_strong_bot_plays_the_variants_the_core_does_not(
    bot_pair: tuple[Server, Server], variant: str
) -> None:
    """The strong bot searches every variant: at a live table of a variant the bit-mask
    core does not play (a cross with closed doubles, trains) it moves through the server's
    move path like anyone, and none of its moves is refused."""
    first, second = bot_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        person = await register(http)
        table = await create_table(http, person, seats=2, variant=variant, rated=False)
        table_id = table["id"]
        me = await Player(second.ws_url, person).connect()
        await me.request({"type": "table.subscribe", "table_id": table_id})
        assert (await add_bot(http, table_id, person, "strong", seat=1)).status_code == 200
        final = await autoplay(
            me, table_id, random.Random(9), timeout=180,
            stop=lambda _: bot_plays(me, table_id, 1) >= 6,
        )
    assert final["errors"] == []
    assert bot_plays(me, table_id, 1) >= 6 or final["view"]["status"] == "finished"
    assert final["view"]["seats"][1]["bot"] == "strong"
    await me.close()
