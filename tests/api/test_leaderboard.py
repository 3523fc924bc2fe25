"""Leaderboards, player pages and stored games over HTTP, fed by the results writer."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.db.session import Database
from app.services.durable.results import FinishedGame, write_result
from tests.api.conftest import register
from tests.persistence import classic_record, goat_record, moment, timeout_record
from tests.servers import Server

# Lower-case names sort alike under every collation (ties are listed by name).
NAMES = ["anna", "boris", "clara", "dima", "egor", "fedor"]


@pytest.fixture(scope="module")
def players(server: Server) -> dict[str, int]:
    with httpx.Client(base_url=server.url) as http:
        return {name: register(http, name)["player"]["id"] for name in NAMES}


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, dict[str, Any]]:
    """The records written to this server's database, by game id."""
    return {}


@pytest.fixture(autouse=True)
async def played(db: Database, players: dict[str, int], games: dict[str, dict[str, Any]]) -> None:
    """Four rated games and one friendly, written once per server."""
    if games:
        return
    seated = [
        # goat: anna +8, boris +9, clara +7, dima (goat) 0
        ("g1", True, goat_record(["anna", "boris", "clara", "dima"], [25, 15, 35, 110], [3])),
        # goat: anna +2, boris +4, clara (goat) 0, egor +10
        ("g2", True, goat_record(["anna", "boris", "clara", "egor"], [80, 60, 101, 0], [2])),
        # classic: anna wins +10, boris +4
        ("g3", True, classic_record(["anna", "boris"], [100, 40])),
        # a friendly: fedor plays but is on no leaderboard, nobody gains
        ("g4", False, goat_record(["fedor", "anna"], [0, 120], [1])),
        # goat timeout of clara at 32: boris at 30 +1
        ("g5", True, timeout_record(["boris", "clara"], [30, 32], timed_out=1)),
    ]
    for minute, (game_id, rated, record) in enumerate(seated):
        written = await write_result(db, FinishedGame(
            game_id=game_id,
            table_id=f"table-{game_id}",
            record=record,
            rated=rated,
            player_ids=[players[name] for name in record["players"]],
            started_at=moment(minute * 10),
            finished_at=moment(minute * 10 + 5),
        ))
        assert written
        games[game_id] = record


# Goat points: anna 10, egor 10, boris 14, clara 7, dima 0 (fedor never rated).
GOAT_BY_POINTS = [
    (1, "boris", 14),
    (2, "anna", 10),
    (2, "egor", 10),
    (4, "clara", 7),
    (5, "dima", 0),
]


def _board(client: httpx.Client, **params: Any) -> dict[str, Any]:
    response = client.get("/api/leaderboard", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_goat_by_points_ties_share_a_rank(client: httpx.Client):
    board = _board(client, variant="goat", sort="points")
    assert (board["variant"], board["sort"], board["total"]) == ("goat", "points", 5)
    assert [(e["rank"], e["player"], e["points"]) for e in board["entries"]] == GOAT_BY_POINTS
    by_name = {e["player"]: e for e in board["entries"]}
    assert (by_name["boris"]["games"], by_name["boris"]["wins"], by_name["boris"]["losses"]) == (
        3,
        3,
        0,
    )
    assert (by_name["clara"]["games"], by_name["clara"]["wins"], by_name["clara"]["losses"]) == (
        3,
        1,
        2,
    )
    assert all(isinstance(e["skill"], float) for e in board["entries"])


def test_defaults_are_goat_by_points(client: httpx.Client):
    board = _board(client)
    assert (board["variant"], board["sort"]) == ("goat", "points")
    assert [e["player"] for e in board["entries"]] == [name for _, name, _ in GOAT_BY_POINTS]


def test_paging_keeps_true_ranks_and_the_total(client: httpx.Client):
    page = _board(client, variant="goat", limit=2, offset=1)
    assert page["total"] == 5
    assert [(e["rank"], e["player"]) for e in page["entries"]] == [(2, "anna"), (2, "egor")]
    last = _board(client, variant="goat", limit=50, offset=4)
    assert [(e["rank"], e["player"]) for e in last["entries"]] == [(5, "dima")]
    beyond = _board(client, variant="goat", offset=10)
    assert beyond["entries"] == [] and beyond["total"] == 5


def test_by_skill(client: httpx.Client):
    board = _board(client, variant="goat", sort="skill")
    entries = board["entries"]
    assert board["total"] == 5 and len(entries) == 5
    skills = [e["skill"] for e in entries]
    assert skills == sorted(skills, reverse=True)
    # boris won all three of his games, dima lost his only one.
    assert entries[0]["player"] == "boris" and entries[0]["rank"] == 1
    assert entries[-1]["player"] == "dima"
    # Distinct skills here, so competition ranks are simply the positions.
    assert len(set(skills)) == 5
    assert [e["rank"] for e in entries] == [1, 2, 3, 4, 5]


def test_classic_is_its_own_board(client: httpx.Client):
    board = _board(client, variant="classic")
    assert board["total"] == 2
    assert [(e["rank"], e["player"], e["points"]) for e in board["entries"]] == [
        (1, "anna", 10),
        (2, "boris", 4),
    ]
    skill = _board(client, variant="classic", sort="skill")
    assert [e["player"] for e in skill["entries"]] == ["anna", "boris"]


def test_a_variant_nobody_played_is_empty(client: httpx.Client):
    assert _board(client, variant="fives") == {
        "variant": "fives",
        "sort": "points",
        "total": 0,
        "entries": [],
    }


@pytest.mark.parametrize(
    "params",
    [
        {"variant": "chess"},
        {"variant": ""},
        {"sort": "elo"},
        {"limit": 0},
        {"limit": 100_000},
        {"limit": "ten"},
        {"offset": -1},
    ],
)
def test_bad_queries_are_422(client: httpx.Client, params: dict[str, Any]):
    response = client.get("/api/leaderboard", params=params)
    assert response.status_code == 422
    assert "detail" in response.json()


def test_player_page(client: httpx.Client, players: dict[str, int]):
    response = client.get("/api/players/boris")
    assert response.status_code == 200
    page = response.json()
    assert page["name"] == "boris"
    assert page["ratings"]["goat"]["points"] == 14
    assert page["ratings"]["goat"]["games"] == 3
    assert page["ratings"]["classic"]["points"] == 4
    recent = page["recent_games"]
    assert [g["game_id"] for g in recent] == ["g5", "g3", "g2", "g1"]  # newest first
    assert recent[0] == {
        "game_id": "g5",
        "variant": "goat",
        "finished_at": int(moment(45).timestamp() * 1000),
        "seat": 0,
        "final": 30,
        "rating": 1,
        "outcome": "won",
        "rated": True,
        "reason": "timeout",  # how the game ended, so a page tells a resignation from a goat
    }
    assert (recent[2]["seat"], recent[2]["final"], recent[2]["rating"]) == (1, 60, 4)
    # History: cumulative points per variant after each rated game, oldest first.
    steps = [(h["game_id"], h["variant"], h["gained"], h["points"]) for h in page["history"]]
    assert steps == [
        ("g1", "goat", 9, 9),
        ("g2", "goat", 4, 13),
        ("g3", "classic", 4, 4),
        ("g5", "goat", 1, 14),
    ]
    assert all(isinstance(h["skill"], float) for h in page["history"])
    assert "hash" not in response.text.lower()


def test_player_page_lists_friendlies_without_pay(client: httpx.Client):
    page = client.get("/api/players/fedor").json()
    assert page["ratings"] == {}
    assert page["history"] == []
    assert [
        (g["game_id"], g["rating"], g["outcome"], g["rated"]) for g in page["recent_games"]
    ] == [("g4", 0, "won", False)]


def test_player_names_are_found_in_any_case(client: httpx.Client):
    response = client.get("/api/players/BoRiS")
    assert response.status_code == 200
    assert response.json()["name"] == "boris"


def test_unknown_player_is_404(client: httpx.Client):
    response = client.get("/api/players/nobody_at_all")
    assert response.status_code == 404
    assert isinstance(response.json()["detail"], str)


def test_game_record(client: httpx.Client, games: dict[str, dict[str, Any]]):
    for game_id in ("g1", "g4"):
        response = client.get(f"/api/games/{game_id}")
        assert response.status_code == 200
        assert response.json() == games[game_id]
    assert client.get("/api/games/g1").json()["format"] == "domino-record/1"


def test_unknown_game_is_404(client: httpx.Client):
    for game_id in ("nope", "g1x", "%20"):
        response = client.get(f"/api/games/{game_id}")
        assert response.status_code == 404
        assert isinstance(response.json()["detail"], str)
