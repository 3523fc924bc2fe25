"""A team battle (PROTOCOL §2e) of three clubs played to its end on two server processes:
each player plays for his club, the arena's first seating puts no two club-mates at one
table while players of other clubs wait, and each club's points are the sum of its
`leaders` best players' points, checked against the games' own records; the follower's
folded updates hold the same club standings; the members' leaderboard shows the rated
games they played."""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.e2e.client import Account, register
from tests.e2e.test_clubs import _club
from tests.e2e.test_tournaments import (
    _accounts,
    _check_points_and_places,
    _pair,
    _play_paired,
    _wait_finished,
    fold_updates,
    pair_env,
)

__all__ = ["pair_env"]

LEADERS = 2


async def test_a_team_battle_of_three_clubs_scores_each_clubs_best_players(
    pair_env: tuple,
) -> None:
    with _pair(*pair_env) as servers:
        # clubs of 3, 3 and 2 players, registered club by club (so an arena that seated by
        # id alone would put club-mates together)
        accounts, sockets = await _accounts(servers, 8)
        members = [accounts[0:3], accounts[3:6], accounts[6:8]]
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http, \
                httpx.AsyncClient(base_url=servers[1].url, timeout=30) as there:
            club_ids: list[int] = []
            club_of: dict[int, int] = {}
            for i, group in enumerate(members):
                club = await _club((http, there)[i % 2], group[0], open_=True)
                club_ids.append(club["id"])
                for who in group:
                    club_of[who.id] = club["id"]
                    if who is not group[0]:
                        r = await there.post(f"/api/clubs/{club['id']}/join",
                                             headers=who.headers)
                        assert r.json() == {"status": "member"}
            outsider: Account = accounts[0]
            made = await http.post("/api/tournaments", headers=outsider.headers, json={
                "name": "Garages against the mill", "variant": "classic", "seats": 2,
                "format": "arena", "minutes": 5, "turn_seconds": 60,
                "round_pause_seconds": 0, "rated": True,
                "battle": {"clubs": club_ids, "leaders": LEADERS}})
            assert made.status_code == 201, made.text
            tournament_id = made.json()["id"]
            assert made.json()["battle"]["leaders"] == LEADERS
            url = f"/api/tournaments/{tournament_id}"
            # one who is in none of its clubs is refused, and so is a club not his
            stranger = await register(there)
            assert (await there.post(f"{url}/join", headers=stranger.headers)
                    ).status_code == 403
            r = await there.post(f"{url}/join", headers=accounts[0].headers,
                                 json={"club": club_ids[1]})
            assert r.status_code == 403, r.text
            for i, who in enumerate(accounts):
                r = await (http, there)[i % 2].post(f"{url}/join", headers=who.headers)
                assert r.status_code == 200, r.text
            follower = sockets[7]
            await follower.request({"type": "tournament.subscribe",
                                    "tournament_id": tournament_id})
            started = await there.post(f"{url}/start", headers=outsider.headers)
            assert started.status_code == 200, started.text
            tasks = [asyncio.create_task(_play_paired(p, tournament_id, random.Random(i), []))
                     for i, p in enumerate(sockets)]
            body = await _wait_finished(http, tournament_id, tasks, limit=300)
            await _check_points_and_places(there, body)
        # every player played for his club
        assert {p["id"]: p["club"] for p in body["players"]} == club_of
        # all eight waited at the start: the first four tables hold no two club-mates
        first = sorted(body["tables"], key=lambda t: (t["created_at"], t["table_id"]))[:4]
        for table in first:
            assert len({club_of[p] for p in table["seats"]}) == 2, (table, club_of)
        assert len(body["tables"]) >= 5  # seated again after games ended
        # each club: the sum of its LEADERS best players' points (the players' points are
        # the records' own, checked above); ties by fewer games of those players
        expected = {}
        for club_id in club_ids:
            mine = sorted((p for p in body["players"] if p["club"] == club_id),
                          key=lambda p: (-p["points"], p["games"]))[:LEADERS]
            expected[club_id] = (sum(p["points"] for p in mine), sum(p["games"] for p in mine))
        battle = body["battle"]
        assert [c["id"] for c in battle["clubs"]] == sorted(
            club_ids, key=lambda c: (-expected[c][0], expected[c][1], club_ids.index(c)))
        for club in battle["clubs"]:
            assert (club["points"], club["games"]) == expected[club["id"]], club
            better = [c for c in club_ids if (-expected[c][0], expected[c][1])
                      < (-expected[club["id"]][0], expected[club["id"]][1])]
            assert club["place"] == 1 + len(better)
        assert sum(c["points"] for c in battle["clubs"]) <= sum(
            p["points"] for p in body["players"])
        # the follower on the other process holds the same club standings
        await follower.expect(lambda m: m["type"] == "tournament.update"
                              and m["tournament"]["status"] == "finished", timeout=30)
        assert fold_updates(follower.frames, tournament_id)["battle"] == battle
        # the club page's leaderboard: its members' rated games, best first
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http:
            page = (await http.get(f"/api/clubs/{club_ids[0]}")).json()
            board = page["leaderboard"]["classic"]
            assert {row["name"] for row in board} <= {a.name for a in members[0]}
            assert [row["points"] for row in board] == sorted(
                (row["points"] for row in board), reverse=True)
            for row in board:
                rating = (await http.get(f"/api/players/{row['name']}")).json()["ratings"]
                assert rating["classic"]["points"] == row["points"]
            listed = (await http.get(f"/api/tournaments?club={club_ids[2]}&status=finished")
                      ).json()
            assert [t["id"] for t in listed] == [tournament_id]
        for p in sockets:
            await p.close()
