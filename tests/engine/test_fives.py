"""Fives / Muggins (RULES §4) and Telephone (RULES §6) through real games: points during play
on the spinner, the hand bonus, every option, teams, the first leader, whole games."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from app.engine import IllegalMove, game_from_dict, new_game, replay_record, validate_options
from app.engine.fives import fives_bonus, round_to_multiple
from app.engine.tiles import full_set

SET = [str(t) for t in full_set(6)]


def dealt(variant: str, hands: list[list[str]], options: dict | None = None):
    """A game whose first hand is dealt as given (no seed: seat 0 leads), the rest of the
    set in canonical order as the bazaar."""
    game = new_game(variant, len(hands), options or {}, None)
    used = {t for h in hands for t in h}
    game.deal(hands, [t for t in SET if t not in used])
    return game


def scores_of(events: list[dict]) -> list[tuple[int, int, int]]:
    return [(e["seat"], e["points"], e["count"]) for e in events if e["type"] == "score"]


# RULES §4 worked table: 5-5 lead; 5-0; 3-5 on the spinner; 0-2; later 5-4 on a short side,
# 2-2 on the 2, 2-5 on the 2-2, 3-3 on the 3. Seats alternate; fillers never fit.
WORKED_HANDS = [
    ["5-5", "3-5", "4-5", "2-5", "1-1", "1-4", "1-6"],
    ["0-5", "0-2", "2-2", "3-3", "4-6", "6-6", "1-3"],
]
WORKED_MOVES = [
    ("5-5", None), ("0-5", "right"), ("3-5", "left"), ("0-2", "right"),
    ("4-5", "up"), ("2-2", "right"), ("2-5", "right"), ("3-3", "left"),
]
# (count after each move, points scored) per spinner_count option.
WORKED = {
    "gambler": [(10, 10), (10, 10), (3, 0), (5, 5), (9, 0), (11, 0), (12, 0), (15, 15)],
    "full": [(10, 10), (10, 10), (13, 0), (15, 15), (14, 0), (16, 0), (17, 0), (20, 20)],
}


@pytest.mark.parametrize("rule", ["gambler", "full"])
def test_rules_4_worked_table_in_a_game(rule: str) -> None:
    """RULES §4: position by position, the count and what the player scores, both options;
    the move on the spinner's `up` arm is written with `"end": "up"` (PROTOCOL §3)."""
    game = dealt("fives", WORKED_HANDS, {"spinner_count": rule})
    totals = [0, 0]
    rows = zip(WORKED_MOVES, WORKED[rule], strict=True)
    for i, ((tile, end), (count, points)) in enumerate(rows):
        seat = i % 2
        assert game.turn == seat
        events = game.play(seat, tile, end)
        assert game.view(None)["count"] == count, (tile, rule)
        assert scores_of(events) == ([(seat, points, count)] if points else [])
        totals[seat] += points
        assert [s["account"] for s in game.view(None)["seats"]] == totals
    assert game.view(None)["ends"] == {"left": 3, "right": 5, "up": 4, "down": 5}
    record = game.record(["a", "b"])
    assert {"seat": 0, "tile": "4-5", "end": "up"} in record["rounds"][0]["moves"]
    again = replay_record(json.loads(json.dumps(record)))
    assert again["rounds"][0]["moves"] == record["rounds"][0]["moves"]


def test_short_sides_open_only_after_both_long_sides() -> None:
    game = dealt("fives", WORKED_HANDS)
    game.play(0, "5-5")
    game.play(1, "0-5", "right")
    assert {m["end"] for m in game.legal_for(0)} == {"left"}
    with pytest.raises(IllegalMove, match="the up end is not open"):
        game.play(0, "3-5", "up")
    game.play(0, "3-5", "left")
    game.play(1, "0-2", "right")
    assert {(m["tile"], m["end"]) for m in game.legal_for(0)} == {
        ("4-5", "up"), ("4-5", "down"), ("2-5", "up"), ("2-5", "down"), ("2-5", "right"),
    }
    with pytest.raises(IllegalMove, match="fits both ends: say 'up' or 'down'"):
        game.play(0, "4-5")


def test_without_the_spinner_doubles_are_ordinary() -> None:
    """Option `spinner: false`: two ends only; a double at an end still counts both halves."""
    game = dealt("fives", WORKED_HANDS, {"spinner": False})
    game.play(0, "5-5")
    game.play(1, "0-5", "right")
    game.play(0, "3-5", "left")
    assert game.view(None)["ends"] == {"left": 3, "right": 0}
    assert game.view(None)["layout"] == "line"
    assert game.view(None)["count"] == 3


def test_the_bonus_example() -> None:
    """RULES §4: winner holds 3, others 5, 11, 13: 29 - 3 = 26 -> 25 -> +5 (a block)."""
    assert fives_bonus(29, 3, "divided", 5) == 5
    game = new_game("fives", 4, {}, bytes(32))
    assert game.settle_round("fish", 2, [5, 3, 11, 13]) == [0, 5, 0, 0]
    assert game.final_scores() == [0, 5, 0, 0]
    assert game.next_lead == 1  # the hand's winner leads the next hand
    # Going out: the others' pips, rounded, divided; a tie for the lowest in a block: nothing.
    assert game.settle_round("out", 0, [0, 9, 8, 10]) == [5, 0, 0, 0]
    assert game.settle_round("fish", 3, [4, 4, 9, 9]) == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("x", "five", "three"), [(0, 0, 0), (1, 0, 0), (2, 0, 3), (3, 5, 3), (4, 5, 3), (26, 25, 27)]
)
def test_rounding_to_the_nearest_multiple(x: int, five: int, three: int) -> None:
    """RULES §4: remainder 3 or 4 rounds up, 1 or 2 down (for 5); 1 down, 2 up (for 3)."""
    assert round_to_multiple(x, 5) == five
    assert round_to_multiple(x, 3) == three


def test_bonus_rounded() -> None:
    """Option `bonus: "rounded"`: rounded to a multiple of 5, not divided, and in a block the
    winner's pips are not subtracted."""
    assert fives_bonus(29, 3, "rounded", 5) == 30
    game = new_game("fives", 4, {"bonus": "rounded"}, bytes(32))
    assert game.settle_round("fish", 2, [5, 3, 11, 13]) == [0, 30, 0, 0]
    assert game.settle_round("out", 0, [0, 9, 8, 10]) == [25, 0, 0, 0]


def test_all_threes() -> None:
    """Option `multiple: 3`: counts that are multiples of 3 score; the bonus is rounded to a
    multiple of 3 and divided by 3."""
    game = dealt("fives", WORKED_HANDS, {"multiple": 3})
    assert scores_of(game.play(0, "5-5")) == []  # 10 is no multiple of 3
    assert scores_of(game.play(1, "0-5", "right")) == []
    assert scores_of(game.play(0, "3-5", "left")) == [(0, 3, 3)]
    assert fives_bonus(29, 3, "divided", 3) == 9  # 26 -> 27 -> 9
    fresh = new_game("fives", 4, {"multiple": 3}, bytes(32))
    assert fresh.settle_round("fish", 2, [5, 3, 11, 13]) == [0, 9, 0, 0]


def test_points_on_the_last_tile_count_before_the_bonus() -> None:
    """A player who goes out with a scoring count scores both (points during play are
    always kept)."""
    game = dealt("fives", [["5-5", "0-1"], ["0-5", "2-6"]], {})
    game.play(0, "5-5")
    game.play(1, "0-5", "right")
    events = game.play(0, "0-1", "right")  # ends 10 and 1: 11, no score; seat 0 is out
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"]["kind"] == "out" and end["end"]["by"] == 0
    assert end["end"]["points"] == [0, 8]
    assert end["end"]["credited"] == [2, 0]  # 8 -> 10 -> 2
    assert end["scores"] == [12, 10]
    assert end["play_points"] == [10, 10]


def test_first_leader_is_drawn_from_the_seed_stream() -> None:
    """PROTOCOL §4: the first leader is draw(n) from the stream of round 0 with k = 1000."""
    for i in range(30):
        seed = hashlib.sha256(f"fives-lead-{i}".encode()).digest()
        n = 2 + i % 3
        block = hashlib.sha256(seed + (0).to_bytes(4, "big") + (1000).to_bytes(4, "big")
                               + (0).to_bytes(4, "big")).digest()
        x = int.from_bytes(block[:4], "big")
        assert x < 2**32 - (2**32 % n)  # no rejection in these 30 seeds' first word
        game = new_game("fives", n, {}, seed)
        assert game.turn == x % n
        assert game.legal_for(game.turn) == [
            {"tile": t, "end": None} for t in game.view(game.turn)["hand"]
        ]


def test_teams_score_for_the_side() -> None:
    """Option `teams` (4 players, partners opposite): a team's points are summed."""
    with pytest.raises(ValueError, match="4 players"):
        validate_options("fives", 3, {"teams": True})
    game = new_game("fives", 4, {"teams": True}, bytes(32))
    # Seat 1 goes out: its partner's hand counts for neither side; 9 + 8 = 17 -> 15 -> 3.
    assert game.settle_round("out", 1, [9, 0, 8, 30]) == [0, 3, 0, 0]
    assert game.final_scores() == [0, 3, 0, 3]
    # A block: side 0 holds 3 + 4, side 1 holds 10 + 12: 22 - 7 = 15 -> 3 to seat 0.
    assert game.settle_round("fish", 3, [3, 10, 4, 12]) == [3, 0, 0, 0]
    assert [s["team"] for s in game.view(0)["seats"]] == [0, 1, 0, 1]
    assert [s["account"] for s in game.view(0)["seats"]] == [3, 3, 3, 3]


def play_out(variant: str, players: int, options: dict, seed: bytes, rng: random.Random):
    game = new_game(variant, players, options, seed)
    events: list[dict] = []
    while game.status == "playing":
        events += game.play(game.turn, rng.choice(list(game.legal_moves())))
    return game, events


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [{}, {"spinner_count": "full"}, {"bonus": "rounded", "target": 250}, {"multiple": 3},
     {"spinner": False}, {"teams": True}],
)
def test_a_complete_fives_game(players: int, options: dict) -> None:
    """A game to its target: every total is the sum of the points during play and the
    bonuses; the highest side at or above the target wins; ratings by RULES §9."""
    if options.get("teams") and players != 4:
        return
    seed = hashlib.sha256(f"fives-{players}-{sorted(options.items())}".encode()).digest()
    game, events = play_out("fives", players, options, seed, random.Random(players))
    target = options.get("target", 100)
    side = (lambda s: s % 2) if options.get("teams") else (lambda s: s)
    earned: dict[int, int] = {}
    for e in events:
        if e["type"] == "score":
            assert e["count"] % options.get("multiple", 5) == 0 and e["points"] == e["count"]
            earned[side(e["seat"])] = earned.get(side(e["seat"]), 0) + e["points"]
        if e["type"] == "round_end":
            for seat, c in enumerate(e["end"]["credited"]):
                earned[side(seat)] = earned.get(side(seat), 0) + c
    final = game.result["final"]
    assert final == [earned.get(side(s), 0) for s in range(players)]
    best = max(final)
    assert best >= target
    assert game.result["winners"] == [s for s in range(players) if final[s] == best]
    assert all(game.result["rating"][s] == 10 for s in game.result["winners"])
    assert replay_record(json.loads(json.dumps(game.record(["a", "b", "c", "d"][:players])))) \
        == game.record(["a", "b", "c", "d"][:players])


def test_telephone_house_example_in_a_game() -> None:
    """RULES §6: house 4-4, ends 6 and 3; 6-6 played -> 6+6+3 = 15 -> 3; then 4-5 on the
    house -> 6+6+3+5 = 20 -> 4."""
    game = dealt("telephone", [
        ["4-4", "3-4", "4-5", "0-0", "0-1", "1-1", "0-2"],
        ["4-6", "6-6", "2-2", "1-2", "2-3", "0-3", "1-3"],
    ])
    game.play(0, "4-4")
    game.play(1, "4-6", "left")
    game.play(0, "3-4", "right")
    assert game.view(None)["ends"] == {"left": 6, "right": 3, "up": 4, "down": 4}
    assert scores_of(game.play(1, "6-6", "left")) == [(1, 3, 15)]
    assert scores_of(game.play(0, "4-5", "up")) == [(0, 4, 20)]
    assert [s["account"] for s in game.view(None)["seats"]] == [4, 3]


def test_telephone_hand_bonus_is_a_fifth_rounded_up() -> None:
    game = new_game("telephone", 3, {}, bytes(32))
    assert game.settle_round("out", 0, [0, 11, 10]) == [5, 0, 0]  # 21 / 5 -> 5
    assert game.settle_round("out", 1, [5, 0, 5]) == [0, 2, 0]  # 10 / 5 = 2
    assert game.settle_round("fish", 1, [9, 3, 8]) == [0, 4, 0]  # 17 / 5 -> 4
    with pytest.raises(ValueError, match="unknown option"):
        validate_options("telephone", 2, {"target": 100})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_complete_telephone_game(players: int) -> None:
    """A game to 72: points during play are count ÷ 5 of multiples of 5."""
    seed = hashlib.sha256(f"telephone-{players}".encode()).digest()
    game, events = play_out("telephone", players, {}, seed, random.Random(players))
    for e in events:
        if e["type"] == "score":
            assert e["count"] % 5 == 0 and e["points"] == e["count"] // 5
    assert max(game.result["final"]) >= 72
    assert game.result["reason"] == "target"
    clone = game_from_dict(json.loads(json.dumps(game.to_dict())))
    assert clone.view(0) == game.view(0)


@pytest.mark.parametrize("variant", ["fives", "telephone"])
def test_rules_4_and_6_after_a_tied_block_the_last_player_to_place_a_tile_leads(variant: str):
    """RULES §4: "later hands are led by the previous hand's winner, or, after a block with
    no winner (a tie), by the last player who placed a tile"; §6: "Leads as in 4 (after a
    tied block, the last player who placed a tile)"."""
    seen: dict[str, int] = {}
    for i in range(400):
        players = 2 + i % 3
        seed = hashlib.sha256(f"{variant}-leads-{i}".encode()).digest()
        game, events = play_out(variant, players, {}, seed, random.Random(i))
        record = game.record(["a", "b", "c", "d"][:players])
        ends = [e["end"] for e in events if e["type"] == "round_end"]
        for r in range(1, len(record["rounds"])):
            end, lead = ends[r - 1], record["rounds"][r]["moves"][0]["seat"]
            low = min(end["points"])
            lowest = [s for s, p in enumerate(end["points"]) if p == low]
            if end["kind"] == "out":
                assert lead == end["by"]
            elif len(lowest) > 1:
                seen["tied block"] = seen.get("tied block", 0) + 1
                assert lead == end["by"] == record["rounds"][r - 1]["moves"][-1]["seat"]
            else:
                seen["block"] = seen.get("block", 0) + 1
                assert lead == lowest[0]
        if seen.get("tied block", 0) >= 2:
            break
    assert seen.get("tied block"), seen
