"""Tournaments (PROTOCOL §2b) played to the end over real sockets on two server processes:
a Swiss and an arena, with random legal moves. Points and places are checked against the
games' own records; every process is restarted after the end and the standings stay."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.e2e.client import Account, Player, autoplay, register
from tests.e2e.conftest import _env
from tests.faults.stores import _dsn
from tests.servers import Server, run_server

Message = dict[str, Any]
# An arena "minute" lasts this long in these tests.
MINUTE = "3"


@contextmanager
def _pair(pg_url: str, redis_url: str, prefix: str, log_dir: Path) -> Iterator[list[Server]]:
    env = {**_env(pg_url, redis_url, prefix), "DOMINO_TOURNAMENT_MINUTE_SECONDS": MINUTE}
    with run_server(env, log_dir=log_dir) as first, run_server(env, log_dir=log_dir) as second:
        yield [first, second]


@pytest.fixture
def pair_env(pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
             ) -> tuple[str, str, str, Path]:
    return pg_url, redis_url, f"{redis_prefix}_t{secrets.token_hex(3)}", tmp_path


async def _play_paired(player: Player, tournament_id: str, rng: random.Random,
                       played: list[str]) -> None:
    """Follow this player's pairings: each table is joined and played with random moves."""
    handled = -1
    while True:
        index = await player.expect_index(
            lambda m: m["type"] == "tournament.pairing" and m["tournament_id"] == tournament_id,
            after=handled, timeout=600)
        handled = index
        table_id = player.frames[index]["table_id"]
        played.append(table_id)
        await player.request({"type": "table.subscribe", "table_id": table_id})
        final = await autoplay(player, table_id, rng, timeout=120)
        assert not [e for e in final["errors"] if e["code"] != "stale"], final["errors"]


async def _wait_finished(http: httpx.AsyncClient, tournament_id: str, tasks: list[Any],
                         limit: float = 400) -> Message:
    """The tournament once it is finished; the players' tasks are stopped then (or when it
    does not finish, or one of them fails: its error is raised)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    try:
        while loop.time() < deadline:
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            body = (await http.get(f"/api/tournaments/{tournament_id}")).json()
            if body["status"] == "finished":
                return dict(body)
            await asyncio.sleep(0.5)
        raise AssertionError("the tournament did not finish")
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


def fold_updates(frames: list[Message], tournament_id: str) -> Message:
    """The tournament a follower holds: the whole one of the last subscribe answer, with
    every update of changes after it applied (PROTOCOL §2b), as the browser does."""
    held: Message | None = None
    for frame in frames:
        if frame["type"] != "tournament.update" or frame["tournament"]["id"] != tournament_id:
            continue
        if not frame["changes_only"] or held is None:
            held = frame["tournament"]
            continue
        gone = set(frame["players_gone"])
        players = {p["id"]: p for p in held["players"] if p["id"] not in gone}
        players.update({p["id"]: p for p in frame["tournament"]["players"]})
        tables = {t["table_id"]: t for t in held["tables"]}
        tables.update({t["table_id"]: t for t in frame["tournament"]["tables"]})
        held = {**frame["tournament"], "players": list(players.values()),
                "tables": list(tables.values())}
    assert held is not None
    return held


def _expected_points(final: list[int], wins: str, reason: str, losers: list[int]
                     ) -> list[float]:
    """PROTOCOL §2b's rule, written out again for the test: seats - place, ties share."""
    seats = len(final)
    better_first = sorted(range(seats), key=lambda s: (
        s in losers and reason in ("timeout", "resign"),
        -final[s] if wins == "higher" else final[s]))
    out = [0.0] * seats
    for s in range(seats):
        same = [t for t in better_first if (t in losers and reason in ("timeout", "resign"))
                == (s in losers and reason in ("timeout", "resign")) and final[t] == final[s]]
        places = [better_first.index(t) + 1 for t in same]
        out[s] = seats - sum(places) / len(places)
    return out


async def _check_points_and_places(http: httpx.AsyncClient, body: Message) -> None:
    variants = {v["name"]: v for v in (await http.get("/api/variants")).json()}
    wins = variants[body["variant"]]["wins"]
    totals = {p["id"]: 0.0 for p in body["players"]}
    for p in body["players"]:
        totals[p["id"]] += p["byes"] * (body["seats"] - 1) / 2
    for table in body["tables"]:
        assert table["status"] == "finished"
        game_id = (await http.get(f"/api/tables/{table['table_id']}")).json()["game_id"]
        record = (await http.get(f"/api/games/{game_id}")).json()
        result = record["result"]
        expected = _expected_points(result["final"], wins, result["reason"],
                                    result.get("losers") or [])
        assert table["points"] == expected, (table, result)
        assert sum(table["points"]) == sum(range(body["seats"]))
        for player_id, scored in zip(table["seats"], table["points"], strict=True):
            totals[player_id] += scored
    by_id = {p["id"]: p for p in body["players"]}
    for player_id, total in totals.items():
        assert by_id[player_id]["points"] == pytest.approx(total)
        assert by_id[player_id]["games"] == sum(
            player_id in t["seats"] for t in body["tables"])
    # places: by points, then the opponents' points (each opponent's total, once per game)
    opponents = {p: sum(by_id[o]["points"] for t in body["tables"] if p in t["seats"]
                        for o in t["seats"] if o != p) for p in by_id}
    ranked = sorted(body["players"], key=lambda p: p["place"])
    assert ranked[0]["place"] == 1
    for better, worse in pairwise(ranked):
        assert (better["points"], opponents[better["id"]]) >= (
            worse["points"], opponents[worse["id"]])
        if (better["points"], opponents[better["id"]]) > (worse["points"],
                                                           opponents[worse["id"]]):
            assert better["place"] < worse["place"]
    assert body["winner"] == ranked[0]["name"]


async def _classic_swiss(http: httpx.AsyncClient, name: str, rounds: int,
                         accounts: list[Account]) -> str:
    """A Swiss of classic for two, made by the first account and joined by every one; its id."""
    made = await http.post("/api/tournaments", headers=accounts[0].headers, json={
        "name": name, "variant": "classic", "seats": 2, "format": "swiss", "rounds": rounds,
        "turn_seconds": 60, "round_pause_seconds": 0, "rated": False})
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["id"]
    for account in accounts:
        assert (await http.post(f"/api/tournaments/{tournament_id}/join",
                                headers=account.headers)).status_code == 200
    return tournament_id


async def _accounts(servers: list[Server], count: int) -> tuple[list[Account], list[Player]]:
    accounts, sockets = [], []
    for i in range(count):
        async with httpx.AsyncClient(base_url=servers[i % 2].url, timeout=30) as http:
            accounts.append(await register(http))
        sockets.append(await Player(servers[i % 2].ws_url, accounts[-1]).connect())
    return accounts, sockets


async def test_a_swiss_of_eight_at_four_seats_over_two_rounds_survives_a_restart(
    pair_env: tuple[str, str, str, Path],
) -> None:
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 8)
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            made = await http.post("/api/tournaments", headers=accounts[0].headers, json={
                "name": "Courtyard evening", "variant": "sport_goat", "options": {"rounds": 4},
                "seats": 4, "format": "swiss", "rounds": 2, "turn_seconds": 60,
                "round_pause_seconds": 0, "rated": False})
            assert made.status_code == 201, made.text
            tournament_id = made.json()["id"]
            # a follower on the other process hears every change
            follower = sockets[1]
            subscribed = await follower.request(
                {"type": "tournament.subscribe", "tournament_id": tournament_id})
            assert subscribed["type"] == "tournament.update"
            for i, account in enumerate(accounts):
                async with httpx.AsyncClient(base_url=servers[i % 2].url, timeout=30) as h:
                    joined = await h.post(f"/api/tournaments/{tournament_id}/join",
                                          headers=account.headers)
                    assert joined.status_code == 200, joined.text
            again = await http.post(f"/api/tournaments/{tournament_id}/join",
                                    headers=accounts[0].headers)
            assert again.status_code == 409
            refused = await http.post(f"/api/tournaments/{tournament_id}/start",
                                      headers=accounts[1].headers)
            assert refused.status_code == 403
            started = await http.post(f"/api/tournaments/{tournament_id}/start",
                                      headers=accounts[0].headers)
            assert started.status_code == 200, started.text
            played: list[list[str]] = [[] for _ in accounts]
            tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i),
                                                      played[i]))
                     for i, p in enumerate(sockets)]
            body = await _wait_finished(http, tournament_id, tasks)
            assert body["round"] == 2
            assert len(body["tables"]) == 4
            for round_number in (1, 2):
                tables = [t for t in body["tables"] if t["round"] == round_number]
                seated = [p for t in tables for p in t["seats"]]
                assert sorted(seated) == sorted(a.id for a in accounts)
            # every player was paired on each of his sockets, once a round
            assert all(len(tables) == 2 for tables in played)
            await _check_points_and_places(http, body)
            final_update = await follower.expect(
                lambda m: m["type"] == "tournament.update"
                and m["tournament"]["status"] == "finished", timeout=30)
            # each update after the subscribe answer carries only what changed: folded
            # in order onto that answer they give the tournament as it is
            assert final_update["changes_only"] is True
            assert len(final_update["tournament"]["tables"]) < len(body["tables"])
            followed = fold_updates(follower.frames, tournament_id)
            assert {p["id"]: p for p in followed["players"]} == {
                p["id"]: p for p in body["players"]}
            assert {t["table_id"]: t for t in followed["tables"]} == {
                t["table_id"]: t for t in body["tables"]}
            assert all(t["game_id"] for t in body["tables"])
        for p in sockets:
            await p.close()
    # every process restarted: the standings are as they were
    with _pair(*pair_env) as servers:
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http:
            after = (await http.get(f"/api/tournaments/{tournament_id}")).json()
            assert after["players"] == body["players"]
            assert after["tables"] == body["tables"]
            assert after["status"] == "finished" and after["winner"] == body["winner"]
            listed = (await http.get("/api/tournaments?status=finished")).json()
            ours = next(t for t in listed if t["id"] == tournament_id)
            assert ours["winner"] == body["winner"] and ours["player_count"] == 8


@pytest.mark.cluster
async def test_an_arena_plays_to_its_end_and_a_withdrawn_player_is_not_paired_again(
    pair_env: tuple[str, str, str, Path],
) -> None:
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 5)
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http:
            made = await http.post("/api/tournaments", headers=accounts[0].headers, json={
                "name": "Arena", "variant": "classic", "seats": 2, "format": "arena",
                "minutes": 5, "turn_seconds": 60, "round_pause_seconds": 0, "rated": True})
            assert made.status_code == 201, made.text
            tournament_id = made.json()["id"]
            for account in accounts:
                assert (await http.post(f"/api/tournaments/{tournament_id}/join",
                                        headers=account.headers)).status_code == 200
            started = await http.post(f"/api/tournaments/{tournament_id}/start",
                                      headers=accounts[0].headers)
            assert started.status_code == 200, started.text
            assert started.json()["ends_at"] is not None
            played: list[list[str]] = [[] for _ in accounts]
            quitter = accounts[4]
            tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i),
                                                      played[i]))
                     for i, p in enumerate(sockets[:4])]
            # the fifth leaves during his first game, and plays it to its end
            first = await sockets[4].expect(
                lambda m: m["type"] == "tournament.pairing", timeout=120)
            await sockets[4].request({"type": "table.subscribe", "table_id": first["table_id"]})
            left = await http.post(f"/api/tournaments/{tournament_id}/leave",
                                   headers=quitter.headers)
            assert left.status_code == 200, left.text
            his = {t["table_id"] for t in left.json()["tables"] if quitter.id in t["seats"]}
            assert his == {first["table_id"]}
            await autoplay(sockets[4], first["table_id"], random.Random(9), timeout=120)
            mark = len(sockets[4].frames) - 1
            body = await _wait_finished(http, tournament_id, tasks)
        quitter_row = next(p for p in body["players"] if p["id"] == quitter.id)
        assert quitter_row["withdrawn"] is True and quitter_row["games"] >= 1
        # his one game counts; he was seated at no other table
        assert [t["table_id"] for t in body["tables"] if quitter.id in t["seats"]] == \
            [first["table_id"]]
        assert not [m for m in sockets[4].frames[mark + 1:]
                    if m["type"] == "tournament.pairing"]
        # arena: several games each, none at two tables at once
        assert len(body["tables"]) >= 3
        for a, b in combinations(body["tables"], 2):
            if set(a["seats"]) & set(b["seats"]):
                assert a["finished_at"] <= b["created_at"] or b["finished_at"] <= a["created_at"]
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            await _check_points_and_places(http, body)
            # the rated games were rated as any: the players have ratings in classic now
            me = (await http.get("/api/me", headers=accounts[0].headers)).json()
            assert me["ratings"]["classic"]["games"] >= 1
        for p in sockets:
            await p.close()
    with _pair(*pair_env) as servers:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            after = (await http.get(f"/api/tournaments/{tournament_id}")).json()
            assert after["players"] == body["players"]


async def test_tournament_requests_are_checked_and_change_nothing_when_refused(
    server: Server,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        owner, other = await register(http), await register(http)
        base = {"name": "Club", "variant": "goat", "seats": 4, "format": "swiss", "rounds": 2}
        for bad in ({"rounds": None}, {"format": "arena"}, {"rounds": 16}, {"seats": "4"},
                    {"variant": "chess"}, {"options": {"fish_rule": "none"}},
                    {"max_players": 3}, {"name": ""}):
            r = await http.post("/api/tournaments", headers=owner.headers,
                                json={**base, **bad})
            assert r.status_code == 422, (bad, r.text)
        assert (await http.post("/api/tournaments", json=base)).status_code == 401
        made = await http.post("/api/tournaments", headers=owner.headers, json=base)
        assert made.status_code == 201
        tour = made.json()
        assert tour["status"] == "waiting" and tour["players"] == [] and tour["round"] is None
        url = f"/api/tournaments/{tour['id']}"
        assert (await http.get("/api/tournaments/nope")).status_code == 404
        assert (await http.post(f"{url}/leave", headers=other.headers)).status_code == 409
        assert (await http.post(f"{url}/join", headers=other.headers)).status_code == 200
        assert (await http.post(f"{url}/start", headers=other.headers)).status_code == 403
        # too few players: 409, still waiting
        assert (await http.post(f"{url}/start", headers=owner.headers)).status_code == 409
        assert (await http.get(url)).json()["status"] == "waiting"
        # leaving before the start takes the player off the list
        assert (await http.post(f"{url}/leave", headers=other.headers)).status_code == 200
        assert (await http.get(url)).json()["players"] == []
        listed = (await http.get("/api/tournaments?status=waiting")).json()
        assert tour["id"] in [t["id"] for t in listed]
        assert (await http.get("/api/tournaments?status=over")).status_code == 422
        hidden = await http.post("/api/tournaments", headers=owner.headers,
                                 json={**base, "private": True})
        assert hidden.json()["private"] is True
        assert hidden.json()["id"] not in [
            t["id"] for t in (await http.get("/api/tournaments")).json()]
        assert (await http.get(f"/api/tournaments/{hidden.json()['id']}")).status_code == 200


async def test_a_swiss_with_an_odd_player_gives_byes_to_different_players(
    pair_env: tuple[str, str, str, Path],
) -> None:
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 5)
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            tournament_id = await _classic_swiss(http, "Five", 2, accounts)
            assert (await http.post(f"/api/tournaments/{tournament_id}/start",
                                    headers=accounts[0].headers)).status_code == 200
            tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i), []))
                     for i, p in enumerate(sockets)]
            body = await _wait_finished(http, tournament_id, tasks)
            byes = [p for p in body["players"] if p["byes"]]
            # one bye a round, to two different players, each worth (2 - 1) / 2
            assert len(byes) == 2 and all(p["byes"] == 1 for p in byes)
            assert all(p["games"] == 1 for p in byes)
            await _check_points_and_places(http, body)
        for p in sockets:
            await p.close()


async def test_a_game_is_credited_only_once_its_record_is_written(
    pair_env: tuple[str, str, str, Path],
) -> None:
    """A tournament table turns finished (and the tournament with it) only when its game's
    record is in the database: whoever follows the standings to the game finds it. While
    the database refuses every game's write (the games table locked), the game is over on
    the table but not credited; once the write goes through, it is."""
    pg_url = pair_env[0]
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 2)
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            tournament_id = await _classic_swiss(http, "One game", 1, accounts)
            lock = await asyncpg.connect(_dsn(pg_url))
            locked = lock.transaction()
            await locked.start()
            # Reads go on; the finished game's write waits for the lock.
            await lock.execute("LOCK TABLE games IN EXCLUSIVE MODE")
            try:
                assert (await http.post(f"/api/tournaments/{tournament_id}/start",
                                        headers=accounts[0].headers)).status_code == 200
                played: list[list[str]] = [[], []]
                tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i),
                                                          played[i]))
                         for i, p in enumerate(sockets)]
                while not all(played):
                    assert not any(task.done() for task in tasks)
                    await asyncio.sleep(0.1)
                table_id = played[0][0]
                for p in sockets:  # both players were sent the game's end
                    await p.expect_index(
                        lambda m: m["type"] == "table.state" and m["table_id"] == table_id
                        and m["view"]["status"] == "finished", after=-1, timeout=120)
                # The game is over; give the director several ticks to (wrongly) credit it.
                await asyncio.sleep(8 * 0.5)
                body = (await http.get(f"/api/tournaments/{tournament_id}")).json()
                assert body["status"] == "running"
                assert [t["status"] for t in body["tables"]] == ["playing"]
                assert all(p["games"] == 0 for p in body["players"])
            finally:
                await locked.rollback()
                await lock.close()
            body = await _wait_finished(http, tournament_id, tasks)
            await _check_points_and_places(http, body)
        for p in sockets:
            await p.close()


async def test_every_process_restarted_mid_tournament_loses_no_point_and_no_pairing(
    pair_env: tuple[str, str, str, Path],
) -> None:
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 4)
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            made = await http.post("/api/tournaments", headers=accounts[0].headers, json={
                "name": "Through a restart", "variant": "sport_goat",
                "options": {"rounds": 4}, "seats": 4, "format": "swiss", "rounds": 2,
                "turn_seconds": 60, "round_pause_seconds": 0, "rated": False})
            tournament_id = made.json()["id"]
            for account in accounts:
                await http.post(f"/api/tournaments/{tournament_id}/join",
                                headers=account.headers)
            await http.post(f"/api/tournaments/{tournament_id}/start",
                            headers=accounts[0].headers)
            first = [await p.expect(lambda m: m["type"] == "tournament.pairing", timeout=30)
                     for p in sockets]
            table_id = first[0]["table_id"]
            for p in sockets:
                await p.request({"type": "table.subscribe", "table_id": table_id})
            # a few moves of round 1, then every process goes
            rng = random.Random(5)
            await asyncio.gather(*(autoplay(p, table_id, rng, stop=lambda s: s["seq"] >= 12)
                                   for p in sockets))
            before = (await http.get(f"/api/tournaments/{tournament_id}")).json()
        for p in sockets:
            await p.close()
    with _pair(*pair_env) as servers:
        sockets = [await Player(servers[i % 2].ws_url, a).connect()
                   for i, a in enumerate(accounts)]
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http:
            after = (await http.get(f"/api/tournaments/{tournament_id}")).json()
            assert after["round"] == before["round"] == 1
            assert after["tables"] == before["tables"]
            # the round's table plays on where it was, and round 2 is paired by the new ones
            tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i), []))
                     for i, p in enumerate(sockets)]

            async def finish_round_one(p: Player, i: int) -> None:
                await p.request({"type": "table.subscribe", "table_id": table_id})
                await autoplay(p, table_id, random.Random(10 + i))

            await asyncio.gather(*(finish_round_one(p, i) for i, p in enumerate(sockets)))
            body = await _wait_finished(http, tournament_id, tasks)
            assert body["round"] == 2 and len(body["tables"]) == 2
            assert body["tables"][0]["table_id"] == table_id
            assert all(p["games"] == 2 for p in body["players"])
            await _check_points_and_places(http, body)
        for p in sockets:
            await p.close()


async def test_seeks_and_a_tournament_on_the_embedded_defaults(embedded_server: Server) -> None:
    """SQLite and the in-process store: the same scripts and the same director."""
    server = embedded_server
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        one, two = await register(http), await register(http)
        sockets = [await Player(server.ws_url, a).connect() for a in (one, two)]
        for account in (one, two):
            seek = await http.post("/api/seeks", headers=account.headers, json={
                "variant": "classic", "seats": 2, "turn_seconds": 60, "rated": False})
            assert seek.status_code == 201, seek.text
        matched = [await p.expect(lambda m: m["type"] == "seek.matched") for p in sockets]
        assert matched[0]["table_id"] == matched[1]["table_id"]
        made = await http.post("/api/tournaments", headers=one.headers, json={
            "name": "Embedded", "variant": "classic", "seats": 2, "format": "swiss",
            "rounds": 1, "turn_seconds": 60, "round_pause_seconds": 0, "rated": False})
        tournament_id = made.json()["id"]
        for account in (one, two):
            joined = await http.post(f"/api/tournaments/{tournament_id}/join",
                                     headers=account.headers)
            assert joined.status_code == 200, joined.text
        started = await http.post(f"/api/tournaments/{tournament_id}/start", headers=one.headers)
        assert started.status_code == 200, started.text
        tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i), []))
                 for i, p in enumerate(sockets)]
        body = await _wait_finished(http, tournament_id, tasks)
        assert sorted(p["points"] for p in body["players"]) in ([0, 1], [0.5, 0.5])
        await _check_points_and_places(http, body)
        for p in sockets:
            await p.close()
