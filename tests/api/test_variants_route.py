"""GET /api/variants (PROTOCOL §2a) from a real server: what the engine declares."""

from __future__ import annotations

import secrets

import httpx
import pytest

from app.engine import describe_variants
from app.services.variants import value_word
from app.words import CATALOGUES
from tests.api.conftest import register


def test_variants_lists_every_playable_variant(client: httpx.Client) -> None:
    response = client.get("/api/variants")
    assert response.status_code == 200
    listed = response.json()
    # What the engine declares, in the catalogue's words (English), which the browser
    # reads by key in the reader's language.
    declared = describe_variants()
    assert [v["name"] for v in listed] == [v["name"] for v in declared]
    for got, engine in zip(listed, declared, strict=True):
        assert {k: v for k, v in got.items() if k not in ("title", "options")} == \
            {k: v for k, v in engine.items() if k not in ("title", "options")}
        assert got["title"] == CATALOGUES["en"][f"variant.{got['name']}"]
        assert list(got["options"]) == list(engine["options"])
        for name, option in engine["options"].items():
            shown = got["options"][name]
            assert (shown["default"], shown["allowed"]) == (option["default"], option["allowed"])
            assert shown["label"] == CATALOGUES["en"][f"option_label.{name}"]
            assert shown["words"] == [value_word(name, v) for v in option["allowed"]]
            assert len(shown["words"]) == len(option["allowed"])
    fish_rule = next(v for v in listed if v["name"] == "goat")["options"]["fish_rule"]
    assert fish_rule == {
        "default": "all", "allowed": ["all", "one"],
        "label": "Fish", "words": ["Fish for all", "Fish to one"],
    }
    fives = next(v for v in listed if v["name"] == "fives")["options"]
    assert fives["target"]["words"] == ["Target 100", "Target 250", "Target 500"]
    assert fives["teams"]["words"] == ["", "Teams"]
    goat = next(v for v in listed if v["name"] == "goat")
    assert set(goat) >= {"name", "players", "options", "layout", "wins", "teams"}
    assert goat["players"] == [2, 4] and goat["layout"] == "line"
    # Donkey (RULES §8): Goat's scoring (lower wins, Goat's fish option) on a cross.
    donkey = next(v for v in listed if v["name"] == "donkey")
    assert donkey["layout"] == "spinner" and donkey["wins"] == "lower"
    assert donkey["players"] == [2, 4] and donkey["teams"] is False
    assert list(donkey["options"]) == ["fish_rule"]
    assert donkey["options"]["fish_rule"]["allowed"] == ["all", "one"]
    # A target no option sets is the variant's own: Goat's and Donkey's 101 (RULES 1.8).
    targets = {v["name"]: v["target"] for v in listed}
    assert targets["goat"] == targets["donkey"] == 101
    assert (targets["sea_goat"], targets["telephone"]) == (125, 72)
    assert targets["classic"] is None and targets["mexican_train"] is None
    # Which games have two teams, as the variants declare it (PROTOCOL §2d's courtyard):
    # a switch among the options, or always (null) for a team game without one.
    team_option = {v["name"]: v["team_option"] for v in listed if v["teams"]}
    assert team_option == {"goat": "teams", "fives": "teams", "sea_goat": "teams",
                           "sport_goat": None, "general": None}
    assert all(v["team_option"] is None for v in listed if not v["teams"])


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
