"""Tournaments people can follow and end (PROTOCOL §2b), on two server processes: a
creator's cancel, the clock's cancel of a tournament short of players at its start, the
cap on a player's open tournaments, and the list read page by page."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import httpx
import pytest

from tests.e2e.client import Player, register
from tests.e2e.test_tournaments import (
    _accounts,
    _classic_swiss,
    _pair,
    _wait_finished,
    fold_updates,
    pair_env,
)

__all__ = ["pair_env"]


async def _until(http: httpx.AsyncClient, url: str, done: object, limit: float = 60) -> dict:
    """The tournament once `done(body)` holds (polled), or a failure after `limit` s."""
    deadline = time.monotonic() + limit
    while True:
        body = (await http.get(url)).json()
        if done(body):  # type: ignore[operator]
            return dict(body)
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.3)


async def _resign_one_of_each(players: list[Player], tournament_id: str) -> list[str]:
    """Each player's table of the round; at each, one of its players resigns. The tables."""
    tables: dict[str, Player] = {}
    for player in players:
        pairing = await player.expect(
            lambda m: m["type"] == "tournament.pairing" and m["tournament_id"] == tournament_id,
            timeout=60)
        tables.setdefault(pairing["table_id"], player)
    for table_id, player in tables.items():
        await player.request({"type": "table.subscribe", "table_id": table_id})
        reply = await player.request({"type": "resign", "table_id": table_id})
        assert reply["type"] == "table.state", reply
    return list(tables)


async def test_a_cancelled_swiss_pairs_no_more_rounds_and_only_its_creator_cancels(
    pair_env: tuple,
) -> None:
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 4)
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            tournament_id = await _classic_swiss(http, "Short evening", 3, accounts)
            url = f"/api/tournaments/{tournament_id}"
            follower = sockets[3]
            await follower.request({"type": "tournament.subscribe",
                                    "tournament_id": tournament_id})
            assert (await http.post(f"{url}/start", headers=accounts[0].headers)
                    ).status_code == 200
            # round 1 is paired: two tables of two
            running = await _until(http, url, lambda b: len(b["tables"]) == 2)
            assert running["status"] == "running" and running["round"] == 1
            other = await http.post(f"{url}/cancel", headers=accounts[1].headers)
            assert other.status_code == 403
            async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as there:
                cancelled = await there.post(f"{url}/cancel", headers=accounts[0].headers)
            assert cancelled.status_code == 200, cancelled.text
            assert cancelled.json()["status"] == "cancelled"
            assert cancelled.json()["cancel_reason"] == "creator"
            assert (await http.post(f"{url}/cancel", headers=accounts[0].headers)
                    ).status_code == 409
            assert (await http.post(f"{url}/join", headers=accounts[1].headers)
                    ).status_code == 409
            # the round-1 games end (one player of each resigns) ...
            first = await _resign_one_of_each(sockets, tournament_id)
            assert len(first) == 2
            for table_id in first:
                await _until(http, f"/api/tables/{table_id}",
                             lambda b: b.get("game_id") is not None)
            # ... and several of the directors' ticks later, no round 2 was paired
            await asyncio.sleep(3)
            after = (await http.get(url)).json()
            assert after["status"] == "cancelled" and after["round"] == 1
            assert len(after["tables"]) == 2 and after["winner"] is None
            # the follower on the other process was told, by a change
            told = await follower.expect(
                lambda m: m["type"] == "tournament.update"
                and m["tournament"]["status"] == "cancelled", timeout=20)
            assert told["changes_only"] is True
            assert fold_updates(follower.frames, tournament_id)["cancel_reason"] == "creator"
            listed = (await http.get("/api/tournaments?status=cancelled")).json()
            assert tournament_id in [t["id"] for t in listed]
        for p in sockets:
            await p.close()


async def test_a_tournament_whose_start_comes_with_too_few_players_is_cancelled(
    pair_env: tuple,
) -> None:
    """Not tried again at every tick for ever: cancelled at its time, and said why."""
    with _pair(*pair_env) as servers:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            owner = await register(http)
            made = await http.post("/api/tournaments", headers=owner.headers, json={
                "name": "Nobody came", "variant": "goat", "seats": 4, "format": "swiss",
                "rounds": 1, "starts_at": int(time.time() * 1000) + 1500})
            assert made.status_code == 201, made.text
            url = f"/api/tournaments/{made.json()['id']}"
            assert (await http.post(f"{url}/join", headers=owner.headers)).status_code == 200
            body = await _until(http, url, lambda b: b["status"] != "waiting", limit=30)
            assert body["status"] == "cancelled" and body["cancel_reason"] == "too_few"
            assert body["tables"] == [] and body["round"] is None


async def test_a_player_has_at_most_three_open_tournaments_and_the_list_pages(
    pair_env: tuple,
) -> None:
    with _pair(*pair_env) as servers:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http, \
                httpx.AsyncClient(base_url=servers[1].url, timeout=30) as there:
            owner = await register(http)
            body = {"name": "Mine", "variant": "goat", "seats": 4, "format": "swiss",
                    "rounds": 1}
            made = []
            for i in range(3):
                r = await (http, there)[i % 2].post("/api/tournaments", headers=owner.headers,
                                                    json={**body, "name": f"Mine {i}"})
                assert r.status_code == 201, r.text
                made.append(r.json()["id"])
            fourth = await there.post("/api/tournaments", headers=owner.headers, json=body)
            assert fourth.status_code == 409, fourth.text
            # a cancelled one is open no more: another may be made
            assert (await http.post(f"/api/tournaments/{made[0]}/cancel",
                                    headers=owner.headers)).status_code == 200
            again = await there.post("/api/tournaments", headers=owner.headers,
                                     json={**body, "name": "Mine 3"})
            assert again.status_code == 201, again.text
            made.append(again.json()["id"])
            others = [await register(http) for _ in range(2)]
            for i, who in enumerate(others):
                r = await http.post("/api/tournaments", headers=who.headers,
                                    json={**body, "name": f"Theirs {i}"})
                assert r.status_code == 201
                made.append(r.json()["id"])
            waiting = [t for t in made if t != made[0]]  # newest last
            # page by page, newest first, none of ours left out or out of order (other
            # tests of this run may list tournaments of their own among them)
            seen: list[str] = []
            offset = 0
            while True:
                page = (await there.get(
                    f"/api/tournaments?status=waiting&offset={offset}&limit=2")).json()
                assert len(page) <= 2
                assert all(t["players"] == [] and t["tables"] == [] for t in page)
                seen += [t["id"] for t in page if t["id"] in waiting and t["id"] not in seen]
                if len(page) < 2:
                    break
                offset += 2
                assert offset < 10_000, "the list does not page"
            assert seen == waiting[::-1]
            for bad in ("limit=0", "limit=101", "offset=-1", "limit=x"):
                assert (await http.get(f"/api/tournaments?{bad}")).status_code == 422, bad


async def _resign_each_pairing(player: Player, tournament_id: str) -> None:
    """Every table this player is paired at: he resigns there at once (his opponent may
    have resigned first)."""
    handled = -1
    while True:
        handled = await player.expect_index(
            lambda m: m["type"] == "tournament.pairing" and m["tournament_id"] == tournament_id,
            after=handled, timeout=600)
        table_id = player.frames[handled]["table_id"]
        await player.request({"type": "table.subscribe", "table_id": table_id})
        await player.request({"type": "resign", "table_id": table_id})


async def test_an_arena_never_seats_two_players_who_block_each_other(
    pair_env: tuple,
) -> None:
    """PROTOCOL §2c: a block keeps two players apart in an arena's seating, on whichever
    process its director runs; the one kept out waits for another opponent."""
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 3)
        blocker, blocked, other = accounts
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http:
            done = await http.post(f"/api/blocks/{blocked.name}", headers=blocker.headers)
            assert done.status_code in (200, 201, 204), done.text
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            made = await http.post("/api/tournaments", headers=other.headers, json={
                "name": "Apart", "variant": "classic", "seats": 2, "format": "arena",
                "minutes": 5, "turn_seconds": 60, "round_pause_seconds": 0, "rated": False})
            assert made.status_code == 201, made.text
            tournament_id = made.json()["id"]
            for account in accounts:
                assert (await http.post(f"/api/tournaments/{tournament_id}/join",
                                        headers=account.headers)).status_code == 200
            assert (await http.post(f"/api/tournaments/{tournament_id}/start",
                                    headers=other.headers)).status_code == 200
            tasks = [asyncio.create_task(_resign_each_pairing(p, tournament_id))
                     for p in sockets]
            body = await _wait_finished(http, tournament_id, tasks, limit=120)
        seated = [set(t["seats"]) for t in body["tables"]]
        assert len(seated) >= 3, seated  # games were played all along ...
        assert {blocker.id, blocked.id} not in seated  # ... never by these two together
        assert all(other.id in s for s in seated)
        for p in sockets:
            await p.close()


@pytest.mark.cluster
async def test_an_operator_cancels_a_tournament_and_its_followers_are_told(
    pair_env: tuple,
) -> None:
    """`domino cancel-tournament` on the live store the servers share (one Redis or a
    cluster): the follower on either process is told."""
    pg_url, redis_url, prefix, _log_dir = pair_env
    with _pair(*pair_env) as servers:
        accounts, sockets = await _accounts(servers, 2)
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http:
            tournament_id = await _classic_swiss(http, "Cut short", 1, accounts)
        follower = sockets[1]
        await follower.request({"type": "tournament.subscribe", "tournament_id": tournament_id})
        env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
        env |= {"DOMINO_DATABASE_URL": pg_url, "DOMINO_REDIS_URL": redis_url,
                "DOMINO_REDIS_PREFIX": prefix}
        done = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "app.cli", "cancel-tournament",
                             tournament_id], env=env, capture_output=True, text=True,
            timeout=60)
        assert done.returncode == 0, done.stderr
        told = await follower.expect(
            lambda m: m["type"] == "tournament.update"
            and m["tournament"]["status"] == "cancelled", timeout=20)
        assert told["tournament"]["id"] == tournament_id
        for p in sockets:
            await p.close()
