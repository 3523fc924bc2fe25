"""GET /api/variants (PROTOCOL §2a) from a real server: what the engine declares."""

from __future__ import annotations

import secrets

import httpx
import pytest

from app.engine import describe_variants
from tests.api.conftest import register


def test_variants_lists_every_playable_variant(client: httpx.Client) -> None:
    response = client.get("/api/variants")
    assert response.status_code == 200
    listed = response.json()
    assert listed == describe_variants()
    goat = next(v for v in listed if v["name"] == "goat")
    assert set(goat) >= {"name", "players", "options", "layout", "wins", "teams"}
    assert goat["players"] == [2, 4] and goat["layout"] == "line"
    # Donkey (RULES §8): Goat's scoring (lower wins, Goat's fish option) on a cross.
    donkey = next(v for v in listed if v["name"] == "donkey")
    assert donkey["layout"] == "spinner" and donkey["wins"] == "lower"
    assert donkey["players"] == [2, 4] and donkey["teams"] is False
    assert list(donkey["options"]) == ["fish_rule"]
    assert donkey["options"]["fish_rule"]["allowed"] == ["all", "one"]


@pytest.mark.parametrize(
    ("variant", "seats", "options"),
    [
        ("fives", 2, {"multiple": 4}),
        ("fives", 3, {"teams": True}),
        ("fives", 2, {"spinner": "yes"}),
        ("telephone", 2, {"target": 100}),
        ("telephone", 5, {}),
        ("mexican_train", 9, {}),
        ("mexican_train", 4, {"scoring": "minus"}),
        ("sea_goat", 3, {}),
        ("sea_goat", 2, {"teams": True}),
        ("sport_goat", 2, {}),
        ("sport_goat", 4, {"rounds": 5}),
        ("general", 4, {"minutes": 45}),
        ("general", 4, {"teams": False}),
        ("donkey", 4, {"teams": True}),
        ("donkey", 5, {}),
    ],
)
def test_tables_take_only_what_the_variant_declares(
    client: httpx.Client, variant: str, seats: int, options: dict
) -> None:
    """PROTOCOL §1: an unknown variant, option or value is a 422 that names it."""
    token = register(client, f"v_{secrets.token_hex(4)}")["token"]
    response = client.post(
        "/api/tables",
        json={"variant": variant, "seats": seats, "options": options, "turn_seconds": 30,
              "rated": False},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 422, response.text
    assert isinstance(response.json()["detail"], str)


def test_a_table_gets_the_variants_defaults(client: httpx.Client) -> None:
    token = register(client, f"v_{secrets.token_hex(4)}")["token"]
    response = client.post(
        "/api/tables",
        json={"variant": "fives", "seats": 4, "options": {"teams": True}, "turn_seconds": 30,
              "rated": False},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201, response.text
    fives = next(v for v in describe_variants() if v["name"] == "fives")
    defaults = {name: option["default"] for name, option in fives["options"].items()}
    assert response.json()["options"] == {**defaults, "teams": True}


def test_goats_family_is_listed_with_its_options(client: httpx.Client) -> None:
    """RULES §7, §11, §12 as GET /api/variants lists them: players, team play, options."""
    listed = {v["name"]: v for v in client.get("/api/variants").json()}
    sea, sport, general = listed["sea_goat"], listed["sport_goat"], listed["general"]
    assert sea["players"] == [2, 4] and sea["teams"] and sea["options"]["teams"]["default"] is False
    assert sport["players"] == [4, 4] and sport["teams"]
    assert sport["options"]["rounds"]["allowed"] == [4, 8, 12]
    assert sport["options"]["rounds"]["default"] == 8
    assert general["players"] == [4, 4] and general["teams"]
    assert general["options"]["minutes"] == {
        "default": 30, "allowed": [30, 60], "label": "Time",
        "words": ["30 minutes", "60 minutes"],
    }
    assert {sea["title"], sport["title"], general["title"]} == {
        "Sea Goat", "Sport Goat", "General"}
