"""Sea Goat (RULES §7), every rule against whole games and hand-made positions.

Whole games are played by a seeded policy (tests/engine/family.py) and every round is
checked against the rule book recomputed from the hands the round ended with; the
situations the rules name (a wipe, the bald goat, 6-6 out with and without a loser above
25, two doubles in one turn, a fish) are asserted to have occurred, so the checks bite.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.engine import IllegalMove, OptionsError, RecordError, replay_record, validate_options
from app.engine.scoring import special_hand_points
from tests.engine.family import dealt, exported, last_play, play_game, round_ends, tiles

SETUPS = [(2, {}), (4, {}), (4, {"teams": True})]
GAMES = 40


def side_of(seat: int, players: int, teams: bool) -> int:
    return seat % 2 if teams else seat


def check_game(players: int, teams: bool, game: Any, events: list[dict]) -> Counter:
    """Every round of one game by RULES §7; returns the situations it went through."""
    seen: Counter = Counter()
    scores = [0] * players
    ends = list(round_ends(events))
    for n, event in enumerate(ends):
        end, hands = event["end"], event["hands"]
        # "Special hands at the end of a round: only 0-0 = 25, only 6-6 = 50, both = 75."
        values = [special_hand_points(tiles(h)) for h in hands]
        assert end["points"] == values
        if sorted(map(sorted, hands)).count(["0-0"]) or any(h == ["6-6"] for h in hands):
            seen["special hand"] += 1
        side = [side_of(s, players, teams) for s in range(players)]
        if end["kind"] == "out":
            won = side[end["by"]]
            losers = [s for s in range(players) if side[s] != won]
            amount = sum(values[s] for s in losers)
        else:
            seen["fish"] += 1
            sums = Counter()
            for s in range(players):
                sums[side[s]] += values[s]
            low = min(sums.values())
            lowest = [k for k, v in sums.items() if v == low]
            won = lowest[0] if len(lowest) == 1 else None
            amount = sum(sums.values()) - 2 * low  # "a fish is scored as in 2"
            losers = [s for s in range(players) if side[s] != won]
        # "Only the round winner writes: the sum of the losers' hands, and only if more
        # than 25; when another player then wins a round with more than 25, all other
        # players' written points are wiped to 0."
        if won is not None and amount > 25:
            if any(scores[s] for s in range(players) if side[s] != won):
                seen["wipe"] += 1
            scores = [scores[s] + amount if side[s] == won else 0 for s in range(players)]
            seen["write"] += 1
        elif won is not None:
            seen["25 or less: nothing written"] += 1
        assert event["scores"] == scores, (n, end)
        last = n == len(ends) - 1
        out_on = set()
        if end["kind"] == "out":
            play = last_play(events, event)
            out_on = {play["tile"], *(p["tile"] for p in play.get("also", ()))}
        if "0-0" in out_on:
            # "Going out on 0-0 wins the whole game ("bald goat")"
            assert last and game.result["reason"] == "bald_goat"
            seen["bald goat"] += 1
        elif "6-6" in out_on and any(values[s] > 25 for s in losers):
            # "going out on 6-6 wins the whole game if a loser holds more than 25"
            assert last and game.result["reason"] == "six_six"
            seen["6-6 out, a loser above 25"] += 1
        elif max(scores) >= 125:
            # "First to 125 wins."
            assert last and game.result["reason"] == "target"
            seen["125"] += 1
        else:
            if "6-6" in out_on:
                seen["6-6 out, no loser above 25"] += 1
            assert not last or game.result["reason"] == "timeout"
        if last and end["kind"] == "out":
            winners = [s for s in range(players) if side[s] == side[end["by"]]]
            if game.result["reason"] != "target":
                assert game.result["winners"] == winners
    assert game.result["final"] == scores
    return seen


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_rules_7_every_round_of_whole_games(players: int, options: dict) -> None:
    """RULES §7 on whole games: writes above 25, wipes, special hands, the bald goat, 6-6,
    the fish as in §2, 125; each situation occurs, and every record replays."""
    seen: Counter = Counter()
    for seed in range(GAMES):
        game, events = play_game("sea_goat", players, options, seed)
        seen += check_game(players, bool(options.get("teams")), game, events)
        seen["two doubles"] += sum(1 for e in events if e["type"] == "play" and "also" in e)
        exported(game)
    for situation in ("write", "wipe", "25 or less: nothing written", "bald goat",
                      "two doubles", "fish"):
        assert seen[situation], (situation, seen)


def test_rules_7_six_six_out_with_and_without_a_loser_above_25() -> None:
    """RULES §7: "going out on 6-6 wins the whole game if a loser holds more than 25" --
    and only then: a 6-6 going-out with no loser above 25 lets the game go on."""
    seen: Counter = Counter()
    for players, options in SETUPS:
        for seed in range(GAMES, 3 * GAMES):
            game, events = play_game("sea_goat", players, options, seed)
            seen += check_game(players, bool(options.get("teams")), game, events)
    assert seen["6-6 out, a loser above 25"] and seen["6-6 out, no loser above 25"], seen


def test_rules_7_smallest_double_leads_the_first_round() -> None:
    """RULES §7: "smallest double leads the first round" (and must be led)."""
    for seed in range(30):
        game, _ = play_game("sea_goat", 2, {}, seed)
        first = game.rounds[0]
        held = {t for h in first["hands"] for t in h}
        smallest = next(f"{d}-{d}" for d in range(7) if f"{d}-{d}" in held)
        lead = first["moves"][0]
        assert lead["tile"] == smallest and smallest in first["hands"][lead["seat"]]
    game = dealt("sea_goat", [["1-1", "2-2", "0-5", "4-6", "3-6", "5-6", "2-6"],
                              ["3-3", "0-0", "1-5", "2-5", "3-5", "4-5", "5-5"]])
    assert game.turn == 1
    assert [m.to_dict() for m in game.legal_moves()] == [{"tile": "0-0", "end": None}]
    with pytest.raises(IllegalMove, match="0-0"):
        game.play(1, "3-3")


HANDS_TWO_FIT = [
    ["0-0", "0-3", "3-3", "5-5", "2-6", "4-6", "1-2"],
    ["0-1", "1-1", "2-4", "4-5", "2-3", "1-4", "1-6"],
]


def two_doubles_position() -> Any:
    """0-0 led by seat 0, 0-1 on its right by seat 1 (ends 0 and 1), 0-3 on the left by
    seat 0 (ends 3 and 1), 1-4 on the right by seat 1 (ends 3 and 4): seat 0 holds 3-3
    (fits the left) and 5-5 (fits no end)."""
    game = dealt("sea_goat", HANDS_TWO_FIT)
    game.play(0, "0-0")
    game.play(1, "0-1", "right")
    game.play(0, "0-3", "left")
    game.play(1, "1-4", "right")
    assert game.view(0)["ends"] == {"left": 3, "right": 4}
    return game


def test_rules_7_two_doubles_refused_when_one_fits_only() -> None:
    """RULES §7: "Two doubles may be played in one turn, one on each end, when both fit"
    -- 3-3 fits the left end, 5-5 fits no end: refused, and nothing changes."""
    game = two_doubles_position()
    assert not any(m.also for m in game.legal_moves())
    before = game.to_dict()
    for also in ([{"tile": "5-5", "end": "right"}], [{"tile": "5-5", "end": "left"}]):
        with pytest.raises(IllegalMove):
            game.play(0, "3-3", "left", also=also)
        assert game.to_dict() == before
    with pytest.raises(IllegalMove, match="not in your hand"):
        game.play(0, "3-3", "left", also=[{"tile": "4-4", "end": "right"}])
    with pytest.raises(IllegalMove, match="doubles"):
        game.play(0, "3-3", "left", also=[{"tile": "4-6", "end": "right"}])
    with pytest.raises(IllegalMove, match="'also'"):
        game.play(0, "3-3", "left", also="5-5")
    assert game.to_dict() == before


def test_rules_7_two_doubles_accepted_when_both_fit_in_records_and_replay() -> None:
    """RULES §7: two doubles, one on each end, when both fit: one move, one turn, written
    in the record as one entry with `also`, which replays (and a record that puts the
    second double on an end it does not fit is refused at that move)."""
    hands = [
        ["0-0", "0-3", "3-3", "4-4", "2-6", "5-6", "1-2"],
        ["0-1", "1-1", "2-4", "4-5", "2-3", "1-4", "1-6"],
    ]
    game = dealt("sea_goat", hands)
    game.play(0, "0-0")
    game.play(1, "0-1", "right")
    game.play(0, "0-3", "left")
    game.play(1, "1-4", "right")
    offered = [m.to_dict() for m in game.legal_moves() if m.also]
    assert offered == [{"tile": "3-3", "end": "left", "also": [{"tile": "4-4", "end": "right"}]}]
    # The client may name them in either order.
    mirrored = game.copy()
    mirrored.play(0, "4-4", "right", also=[{"tile": "3-3", "end": "left"}])
    events = game.play(0, "3-3", "left", also=[{"tile": "4-4", "end": "right"}])
    assert mirrored.view(None)["chain"] == game.view(None)["chain"]
    assert events[0] == {"type": "play", "round": 0, "seat": 0, "tile": "3-3", "end": "left",
                         "also": [{"tile": "4-4", "end": "right"}]}
    assert game.turn == 1 and game.view(0)["hand"] == ["1-2", "2-6", "5-6"]
    assert [e["tile"] for e in game.view(None)["chain"]] == ["3-3", "0-3", "0-0", "0-1", "1-4",
                                                             "4-4"]
    record = exported(game)
    assert record["rounds"][0]["moves"][4] == {
        "seat": 0, "tile": "3-3", "end": "left", "also": [{"tile": "4-4", "end": "right"}]
    }
    assert record["seed"] is None and record["rounds"][0]["hands"] == hands
    assert replay_record(record)["rounds"][0]["moves"][4]["also"] == [
        {"tile": "4-4", "end": "right"}]
    record["rounds"][0]["moves"][4]["also"] = [{"tile": "4-4", "end": "left"}]
    with pytest.raises(RecordError) as error:
        replay_record(record)
    assert (error.value.round, error.value.move) == (0, 4)


def test_rules_7_players_and_teams() -> None:
    """RULES §7: "Two or four players (four may play as teams: option teams)"."""
    assert validate_options("sea_goat", 2, {}) == {"teams": False}
    assert validate_options("sea_goat", 4, {"teams": True}) == {"teams": True}
    with pytest.raises(OptionsError, match="2 or 4"):
        validate_options("sea_goat", 3, {})
    with pytest.raises(OptionsError, match="4 players"):
        validate_options("sea_goat", 2, {"teams": True})


def test_rules_7_special_hands() -> None:
    """RULES §7: "Special hands at the end of a round: only 0-0 = 25, only 6-6 = 50,
    both = 75." Any other hand counts its pips (0-0 among others counts 0)."""
    assert special_hand_points(tiles(["0-0"])) == 25
    assert special_hand_points(tiles(["6-6"])) == 50
    assert special_hand_points(tiles(["0-0", "6-6"])) == 75
    assert special_hand_points(tiles(["6-6", "0-0"])) == 75
    assert special_hand_points(tiles(["0-0", "1-1"])) == 2
    assert special_hand_points(tiles(["6-6", "1-2"])) == 15
    assert special_hand_points(tiles(["0-0", "6-6", "1-2"])) == 15
    assert special_hand_points([]) == 0
