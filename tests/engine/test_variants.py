"""The variant registry and the hooks every variant shares: options declared on the class,
what GET /api/variants says, typed moves, cheap copies (app/engine/game.py, variants.py)."""

from __future__ import annotations

import random

import pytest

from app.engine import (
    VARIANTS,
    IllegalMove,
    Move,
    OptionsError,
    Placement,
    describe_variants,
    new_game,
    validate_options,
)


def test_every_variant_describes_itself() -> None:
    """PROTOCOL §2a: name, players, options with defaults and allowed values, layout, wins,
    teams; the defaults are what validate_options fills in."""
    described = {v["name"]: v for v in describe_variants()}
    assert list(described) == list(VARIANTS)
    for name, info in described.items():
        low, high = info["players"]
        assert 2 <= low <= high
        assert info["layout"] in ("line", "spinner", "trains")
        assert info["wins"] in ("higher", "lower")
        defaults = {k: o["default"] for k, o in info["options"].items()}
        assert info["title"]
        for option in info["options"].values():
            assert option["default"] in option["allowed"]
        assert validate_options(name, high, {}) == defaults
    fish_rule = described["goat"]["options"]["fish_rule"]
    # Its words for people are the catalogue's (tests/test_words.py, GET /api/variants).
    assert fish_rule == {"default": "all", "allowed": ["all", "one"]}
    assert described["goat"]["teams"] is True and described["goat"]["wins"] == "lower"
    assert described["classic"]["options"]["target"]["allowed"] == [100, 150, 200]
    assert described["classic"]["title"] == "Classic"


@pytest.mark.parametrize(
    ("variant", "players", "options", "message"),
    [
        ("chess", 2, {}, "unknown variant"),
        ("goat", 5, {}, "played by 2 to 4"),
        ("goat", 2, {"colour": "red"}, "unknown option 'colour'"),
        ("classic", 2, {"target": True}, "must be one of 100, 150, 200"),
        ("goat", 2, [], "options must be an object"),
    ],
)
def test_bad_options_are_refused_with_a_reason(variant, players, options, message) -> None:
    with pytest.raises(OptionsError, match=message):
        validate_options(variant, players, options)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_copy_plays_on_without_touching_the_original(variant: str) -> None:
    game = new_game(variant, VARIANTS[variant].min_players, {}, bytes(range(32)))
    rng = random.Random(7)
    for _ in range(5):
        game.play(game.turn, rng.choice(list(game.legal_moves())))
    before = game.to_dict()
    clone = game.copy()
    assert clone.to_dict() == before
    for _ in range(30):
        if clone.status != "playing":
            break
        clone.play(clone.turn, rng.choice(list(clone.legal_moves())))
    assert game.to_dict() == before
    assert clone.to_dict() != before


def test_a_move_is_accepted_as_legal_moves_yields_it() -> None:
    game = new_game("classic", 2, {}, bytes(32))
    move = next(game.legal_moves())
    assert isinstance(move, Move) and game.is_legal(move)
    events = game.play(game.turn, move)
    assert events[0]["tile"] == str(move.tile)


def test_extra_move_fields_a_variant_does_not_know_are_refused() -> None:
    """PROTOCOL §2a: extra move fields belong to a variant; Goat has none."""
    game = new_game("goat", 2, {}, bytes(32))
    move = next(game.legal_moves())
    before = game.to_dict()
    with pytest.raises(IllegalMove, match="no 'closed'"):
        game.play(game.turn, str(move.tile), move.end, closed=True)
    with pytest.raises(IllegalMove, match="no 'closed'"):
        game.play(game.turn, move._replace(flags=(("closed", True),)))
    with pytest.raises(IllegalMove, match="one tile per turn"):
        game.play(game.turn, move._replace(also=(Placement(move.tile, "left"),)))
    assert game.to_dict() == before
