"""Sport Goat (RULES §11) on whole games: the lead rotation, the rounds option, the team
writes with the special hands, the last round, a drawn game and the ratings."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from app.engine import OptionsError, validate_options
from app.engine.rating import round_half_up
from tests.engine.family import exported, pips, play_game, round_ends


def special(hand: list[str]) -> int:
    """§7's special hands, written out again: only 0-0 = 25, only 6-6 = 50, both = 75."""
    return {("0-0",): 25, ("6-6",): 50, ("0-0", "6-6"): 75}.get(tuple(sorted(hand)), pips(hand))


def expected_gains(totals: list[int]) -> list[int]:
    """§11: S = 100 * (winning total - own) / max(1, winning total); winners +10;
    a draw +5 each. By team."""
    if totals[0] == totals[1]:
        return [5, 5]
    best = max(totals)
    return [10 if t == best else max(1, round_half_up((100 - Fraction(100 * (best - t),
            max(1, best))) / 10)) for t in totals]


@pytest.mark.parametrize("rounds", [4, 8, 12])
def test_rules_11_whole_games(rounds: int) -> None:
    """RULES §11: "round r ... is led by seat r mod 4, with any tile"; "The game ends after
    that many rounds"; "the winning team writes the pips left in the losing team's two
    hands, with 7's special hands"; in a fish "by the team whose two hands hold fewer pips,
    a + b per tile, special hands not counted here (equal: nobody wins the round)"; "The
    team with more points after the last round wins"."""
    seen: Counter = Counter()
    for seed in range(12):
        game, events = play_game("sport_goat", 4, {"rounds": rounds}, seed)
        record = exported(game)
        assert len(record["rounds"]) == rounds
        totals = [0, 0]
        for r, (rd, event) in enumerate(zip(record["rounds"], round_ends(events), strict=True)):
            assert rd["moves"][0]["seat"] == r % 4 and "end" not in rd["moves"][0]
            end, hands = event["end"], event["hands"]
            values = [special(h) for h in hands]
            seen["special"] += any(v != pips(h) for v, h in zip(values, hands, strict=True))
            team_values = [values[0] + values[2], values[1] + values[3]]
            if end["kind"] == "out":
                won = end["by"] % 2
            else:
                seen["fish"] += 1
                plain = [pips(hands[0]) + pips(hands[2]), pips(hands[1]) + pips(hands[3])]
                won = None if plain[0] == plain[1] else plain.index(min(plain))
            if won is not None:
                totals[won] += team_values[1 - won]
            assert event["scores"] == [totals[0], totals[1], totals[0], totals[1]]
        result = game.result
        assert result["reason"] == "rounds" and result["final"] == [*totals, *totals]
        gains = expected_gains(totals)
        assert result["rating"] == [*gains, *gains]
        if totals[0] == totals[1]:
            assert result["winners"] == result["losers"] == []
        else:
            won = totals.index(max(totals))
            assert result["winners"] == [won, won + 2]
            assert result["losers"] == [1 - won, 3 - won]
    assert seen["special"] and seen["fish"], seen


def test_rules_11_any_tile_leads() -> None:
    """RULES §11: the leader of every round may lead any tile of his hand."""
    game, _ = play_game("sport_goat", 4, {"rounds": 4}, 0)
    fresh = type(game)(4, game.options, game.seed)
    fresh.start()
    assert fresh.turn == 0
    # "Double-six, 7 tiles each, no bazaar."
    assert fresh.view(None)["bazaar"] == 0 and all(len(h) == 7 for h in fresh.rounds[0]["hands"])
    assert sorted(str(m.tile) for m in fresh.legal_moves()) == sorted(fresh.rounds[0]["hands"][0])


def test_rules_11_a_drawn_game() -> None:
    """RULES §11: "equal totals are a draw ... a draw pays every player +5"."""
    for seed in range(2000):
        game, _ = play_game("sport_goat", 4, {"rounds": 4}, seed)
        final = game.result["final"]
        if final[0] == final[1]:
            break
    else:
        pytest.fail("no drawn game in 2000")
    assert game.result["winners"] == game.result["losers"] == []
    assert game.result["rating"] == [5, 5, 5, 5]
    exported(game)


def test_rules_11_players_and_options() -> None:
    """RULES §11: four players; option rounds 4, 8 (default) or 12."""
    assert validate_options("sport_goat", 4, {}) == {"rounds": 8}
    for bad in ({"rounds": 5}, {"rounds": "8"}, {"teams": True}):
        with pytest.raises(OptionsError):
            validate_options("sport_goat", 4, bad)
    with pytest.raises(OptionsError, match="4 to 4"):
        validate_options("sport_goat", 2, {})
