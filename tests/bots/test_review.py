"""Reviews of finished games by the strong player's search (PROTOCOL §2f, RULES §13)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import HeuristicPlayer, RandomPlayer, play_to_end
from app.bots.review import BUDGETS, MARKS, review
from app.engine import VARIANTS, start_game

# Small budgets keep the suite quick; the code path is the one of the engine's budget.
TEST_BUDGET = 2
SEATS = {"classic": 2, "telephone": 2, "fives": 2, "mexican_train": 2, "donkey": 2}


def _finished(variant: str, seed: int) -> dict[str, Any]:
    players = SEATS.get(variant, 4)
    options = {"rounds": 4} if variant == "sport_goat" else {}
    game, _ = start_game(variant, players, options, bytes([seed]) * 16)
    rng = random.Random(seed)
    seats = [HeuristicPlayer() if s % 2 else RandomPlayer() for s in range(players)]
    play_to_end(game, seats, rng)
    assert game.status == "finished"
    return game.record([f"p{s}" for s in range(players)])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_whole_game_of_every_variant_is_reviewed(variant: str) -> None:
    record = _finished(variant, 3)
    found = review(record, seed=1, budget=TEST_BUDGET)
    decisions = sum(len(rd["moves"]) for rd in record["rounds"])
    assert len(found["moves"]) == decisions == len(found["curve"])
    assert found["engine"]["budget"] == TEST_BUDGET
    marks = MARKS[variant]
    for i, (move, played) in enumerate(
        zip(found["moves"], (m for rd in record["rounds"] for m in rd["moves"]), strict=True)
    ):
        assert move["index"] == i and move["seat"] == played["seat"]
        assert move["played"]["tile"] == played["tile"]
        assert move["loss"] >= 0
        assert move["loss"] == pytest.approx(move["value_best"] - move["value_played"], abs=0.011)
        if move["choices"] == 1:
            assert move["loss"] == 0 and move["mark"] is None
            assert move["best"] == move["played"]
        else:
            assert move["mark"] == marks.of(move["loss"])
        assert len(found["curve"][i]["values"]) == len(record["players"])
    assert any(m["choices"] > 1 for m in found["moves"])
    for player in found["players"]:
        assert 0 <= player["accuracy"] <= 100
        mine = [m for m in found["moves"] if m["seat"] == player["seat"] and m["choices"] > 1]
        assert player["decisions"] == len(mine)
        assert player["blunders"] == sum(1 for m in mine if m["mark"] == "blunder")
        assert player["mistakes"] == sum(1 for m in mine if m["mark"] == "mistake")
        assert player["inaccuracies"] == sum(1 for m in mine if m["mark"] == "inaccuracy")


def test_the_same_seed_gives_the_same_review() -> None:
    record = _finished("goat", 5)
    assert review(record, seed=7, budget=TEST_BUDGET) == review(record, seed=7, budget=TEST_BUDGET)


# RULES §13's worked example: a Goat round of four, no bazaar, 18 tiles down. Seat 2 (c)
# holds 4-6 and 6-6, the ends show 0 and 6; seat 3 (d) holds 1-3, 3-3 and 4-5, seat 0 (a)
# 1-5 and 3-5, seat 1 (b) 0-0, 0-5 and 5-5. 4-6 on the 6 opens a 4: d must play 4-5, and
# whatever b and d do then, a goes out first. 6-6 on the 6 leaves d and a no move: they
# knock, b must play on the 0, and c goes out with 4-6.
PLAYED = [
    (0, "1-1", None), (2, "1-2", "left"), (3, "1-6", "right"), (0, "2-4", "left"),
    (1, "3-6", "right"), (2, "2-3", "right"), (3, "2-2", "right"), (0, "3-4", "left"),
    (1, "0-3", "left"), (2, "0-6", "left"), (3, "2-6", "left"), (0, "2-5", "right"),
    (1, "0-2", "left"), (2, "5-6", "right"), (0, "0-1", "left"), (2, "1-4", "left"),
    (3, "4-4", "left"), (1, "0-4", "left"),
    (2, "4-6", "right"),  # the blunder
    (3, "4-5", "right"), (0, "1-5", "right"), (1, "0-0", "left"), (3, "1-3", "right"),
    (0, "3-5", "right"),  # a goes out
]
WORKED = {
    "format": "domino-record/1", "variant": "goat",
    "options": {"fish_rule": "all", "teams": False},
    "players": ["a", "b", "c", "d"], "seed": None, "timeout": None, "result": None,
    "rounds": [{
        "hands": [["2-4", "3-4", "3-5", "1-5", "1-1", "2-5", "0-1"],
                  ["3-6", "0-4", "0-2", "0-3", "0-5", "0-0", "5-5"],
                  ["1-4", "5-6", "2-3", "0-6", "1-2", "6-6", "4-6"],
                  ["4-4", "3-3", "2-2", "1-3", "2-6", "1-6", "4-5"]],
        "bazaar": [],
        "moves": [{"seat": s, "tile": t, "end": e} if e else {"seat": s, "tile": t}
                  for s, t, e in PLAYED],
    }],
}


@pytest.mark.parametrize("seed", [1, 2])
def test_a_move_that_loses_the_round_by_force_is_a_blunder(seed: int) -> None:
    found = review(WORKED, seed=seed)  # the variant's own budget
    assert found["engine"]["budget"] == BUDGETS["goat"]
    move = found["moves"][18]
    assert move["seat"] == 2 and move["choices"] == 2
    assert move["played"] == {"tile": "4-6", "end": "right"}
    assert move["best"] == {"tile": "6-6", "end": "right"}
    assert move["mark"] == "blunder"
    assert move["loss"] >= MARKS["goat"].blunder
    assert found["players"][2]["blunders"] == 1
    assert found["moves"][19]["choices"] == 1 and found["moves"][19]["loss"] == 0
