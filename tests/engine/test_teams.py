"""RULES §3, Team Goat: partners 0+2 and 1+3 share one standing; going out burns the partner."""

from __future__ import annotations

import random

import pytest

from app.engine import OptionsError, new_game, parse_tile, replay_record, validate_options
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
