"""RULES §3, Team Goat: partners 0+2 and 1+3 share one standing; going out burns the partner."""

from __future__ import annotations

import random

import pytest

from app.engine import (
    VARIANTS,
    OptionsError,
    in_two_teams,
    new_game,
    parse_tile,
    replay_record,
    validate_options,
)
from app.engine.scoring import goat_hand_points


def play_out(seed: int, fish_rule: str) -> tuple[list[dict], object]:
    game = new_game("goat", 4, {"teams": True, "fish_rule": fish_rule}, seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    events: list[dict] = []
    while game.status == "playing":
        move = rng.choice(list(game.legal_moves()))
        events += game.play(game.turn, move.tile, move.end)
    return events, game


def test_teams_need_four_players() -> None:
    """RULES §3: four players, partners opposite."""
    assert validate_options("goat", 4, {"teams": True})["teams"] is True
    for players in (2, 3):
        with pytest.raises(OptionsError, match="4 players"):
            validate_options("goat", players, {"teams": True})


@pytest.mark.parametrize("fish_rule", ["all", "one"])
@pytest.mark.parametrize("seed", range(12))
def test_team_rounds_are_scored_per_team(seed: int, fish_rule: str) -> None:
    """RULES §3: a team's round points are its two hands; going out burns the partner's hand."""
    events, game = play_out(seed, fish_rule)
    for event in (e for e in events if e["type"] == "round_end"):
        end, hands = event["end"], event["hands"]
        pips = [goat_hand_points([parse_tile(t) for t in hand]) for hand in hands]
        if end["kind"] == "out":
            partner = (end["by"] + 2) % 4
            assert end["points"][partner] == 0  # burned
            assert end["credited"][end["by"]] == end["credited"][partner] == 0
            assert [p for s, p in enumerate(end["points"]) if s not in (end["by"], partner)] == [
                pips[s] for s in range(4) if s not in (end["by"], partner)
            ]
        else:
            assert end["points"] == pips
        # Partners are always credited alike and always show the same standing.
        assert end["credited"][0] == end["credited"][2]
        assert end["credited"][1] == end["credited"][3]
        assert event["scores"][0] == event["scores"][2]
        assert event["scores"][1] == event["scores"][3]
    view = game.view(None)
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    losers = game.result["losers"]
    assert losers and all((seat + 2) % 4 in losers for seat in losers)  # goats come in pairs
    record = game.record(["a", "b", "c", "d"])
    assert replay_record(record) == record


def test_sides_seat_partners_opposite_and_share_everything() -> None:
    """RULES §3: four players, partners opposite (0+2 vs 1+3); a team's points are summed."""
    from app.engine.teams import Sides

    teams, alone = Sides(4, True), Sides(4, False)
    assert [teams.of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [teams.partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert teams.seats(1) == [1, 3] and alone.seats(1) == [1]
    assert teams.add_up([3, 5, 7, 11]) == [10, 16] and alone.add_up([3, 5, 7, 11]) == [3, 5, 7, 11]
    assert teams.by_seat([10, 16]) == [10, 16, 10, 16]
    assert teams.view(3) == {"team": 1} and alone.view(3) == {}
    result = teams.result("target", [1], [40, 125], [3, 10])
    assert result == {"reason": "target", "losers": [0, 2], "winners": [1, 3],
                      "final": [40, 125, 40, 125], "rating": [3, 10, 3, 10]}
    draw = teams.result("rounds", [], [7, 7], [5, 5], losing=[])
    assert draw["winners"] == draw["losers"] == []


def test_team_gains_pay_partners_alike() -> None:
    """RULES §9 for teams: a team is rated as one player; both partners gain the same."""
    from app.engine.rating import margin_gains, team_gains

    assert team_gains([4, 10], [0, 1, 0, 1]) == [4, 10, 4, 10]
    # RULES §11: S = 100 * (80 - 30) / 80 = 62.5 -> (100 - 62.5) / 10 = 3.75 -> +4
    assert margin_gains([30, 80], [1]) == [4, 10]
    assert margin_gains([0, 3], [1]) == [1, 10]  # S = 100 -> 0 -> at least 1
    assert margin_gains([42, 42], []) == [5, 5]  # "a draw pays every player +5"


def test_which_games_are_played_by_two_teams_is_the_variants_own_word() -> None:
    """PROTOCOL §2d: a courtyard needs a game of two teams; each variant says which."""
    for name in VARIANTS:
        defaults = validate_options(name, 4, {})
        switched = {**defaults, "teams": True} if "teams" in defaults else defaults
        game = new_game(name, 4, switched, b"\x01" * 32)
        # the game itself keeps scores per team exactly when the declaration says so
        sides = getattr(game, "sides", None)
        assert in_two_teams(name, 4, switched) == bool(sides is not None and sides.teams), name
    assert not in_two_teams("goat", 4, validate_options("goat", 4, {}))
    assert in_two_teams("general", 4, validate_options("general", 4, {}))
    assert not in_two_teams("goat", 2, validate_options("goat", 2, {}))
