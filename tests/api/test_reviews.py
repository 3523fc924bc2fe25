"""Reviews over HTTP (PROTOCOL §2f): asked for once per finished game, computed by a worker,
read as they go; nothing for a game in play or a game nobody asked to review."""

from __future__ import annotations

from typing import Any

import httpx

from app.db import reviews as review_rows
from app.db.session import Database
from app.services.durable.review_worker import ReviewWorker
from tests.api.conftest import register
from tests.reviewed import finished_record, store_finished

BUDGET = 2  # the engine's code path with few playouts: the suite stays quick


def _auth(account: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {account['token']}"}


async def test_a_finished_game_is_reviewed_once_by_a_worker(
    client: httpx.Client, db: Database
) -> None:
    me = register(client, "reviewer")
    client.cookies.clear()  # signed in by the token alone
    record = finished_record("goat", ["x", "y", "z", "w"], 11)
    game_id = await store_finished(db, record, [None] * 4)
    assert client.get(f"/api/games/{game_id}/review").status_code == 404  # not asked for
    assert client.post(f"/api/games/{game_id}/review").status_code == 401

    asked = client.post(f"/api/games/{game_id}/review", headers=_auth(me))
    assert asked.status_code == 202, asked.text
    body = asked.json()
    assert body["game_id"] == game_id and body["status"] == "queued"
    assert body["progress"] == 0 and body["moves"] == [] and body["engine"]["name"] == "strong"
    again = client.post(f"/api/games/{game_id}/review", headers=_auth(me))
    assert again.status_code == 202 and again.json()["status"] == "queued"
    async with db.session() as session:
        assert await review_rows.waiting(session) == 1

    worker = ReviewWorker(db, BUDGET, lease_seconds=30, poll_seconds=0.1, name="w1")
    assert await worker.once()
    assert not await worker.once()  # one review per game: nothing else to take

    done = client.get(f"/api/games/{game_id}/review").json()  # anyone may read it
    assert done["status"] == "done" and done["progress"] == 1
    assert done["engine"]["budget"] == BUDGET
    decisions = sum(len(rd["moves"]) for rd in record["rounds"])
    assert len(done["moves"]) == len(done["curve"]) == decisions
    assert [p["name"] for p in done["players"]] == ["x", "y", "z", "w"]
    assert all(m["loss"] >= 0 for m in done["moves"])
    asked_again = client.post(f"/api/games/{game_id}/review", headers=_auth(me)).json()
    assert asked_again["status"] == "done" and asked_again["moves"] == done["moves"]
    async with db.session() as session:
        row = await review_rows.find(session, game_id)
    assert row is not None and row.attempts == 1


def test_a_game_in_play_has_no_review_for_anyone(client: httpx.Client) -> None:
    one, two = register(client, "playing1"), register(client, "playing2")
    made = client.post("/api/tables", json={"variant": "goat", "seats": 2}, headers=_auth(one))
    assert made.status_code == 201, made.text
    table = made.json()
    joined = client.post(f"/api/tables/{table['id']}/join", headers=_auth(two))
    assert joined.status_code == 200, joined.text
    game_id = client.get(f"/api/tables/{table['id']}").json()["game_id"]
    assert game_id
    for headers in (_auth(one), _auth(two)):
        refused = client.post(f"/api/games/{game_id}/review", headers=headers)
        assert refused.status_code == 404, refused.text
        assert client.get(f"/api/games/{game_id}/review", headers=headers).status_code == 404
    assert client.get(f"/api/games/{game_id}/review").status_code == 404  # a spectator


def test_unknown_games_and_bad_ids_are_not_found(client: httpx.Client) -> None:
    me = register(client, "curious")
    for game_id in ("g_nothing", "x" * 300):
        assert client.post(f"/api/games/{game_id}/review", headers=_auth(me)).status_code == 404
        assert client.get(f"/api/games/{game_id}/review").status_code == 404
    # a NUL is refused at the door, as on every route
    assert client.post("/api/games/%00/review", headers=_auth(me)).status_code == 422
    assert client.get("/api/games/%00/review").status_code == 422
