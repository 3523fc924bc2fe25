"""RULES §1.5-§1.7 and §2 scoring through app/engine/scoring.py: every worked example."""

from __future__ import annotations

import pytest

from app.engine import parse_tile
from app.engine.scoring import (
    Standing,
    classic_hand_points,
    classic_round_credits,
    credit,
    goat_hand_points,
    settle_goat_round,
)


def tiles(*names: str) -> list:
    return [parse_tile(n) for n in names]


# --- §1.5 round points ------------------------------------------------------------------------


def test_goat_hand_points_are_pips() -> None:
    """RULES §1.5: a player's round points are the pips in his hand."""
    assert goat_hand_points(tiles("3-5", "6-6", "0-1")) == 8 + 12 + 1
    assert goat_hand_points([]) == 0


def test_lone_double_blank_counts_ten() -> None:
    """RULES §1.5: a hand consisting of the single tile 0-0 counts 10."""
    assert goat_hand_points(tiles("0-0")) == 10


def test_double_blank_with_other_tiles_counts_its_pips() -> None:
    """RULES §1.5: 0-0 together with other tiles counts 0, as its pips."""
    assert goat_hand_points(tiles("0-0", "0-1")) == 1
    assert goat_hand_points(tiles("0-0", "2-3", "6-6")) == 17


# --- §1.6 remembered points and opening ------------------------------------------------------


def test_credit_small_points_are_remembered() -> None:
    """RULES §1.6: account not opened, p <= 12 -> add p to remembered (Alex: 3 -> +3)."""
    assert credit(Standing(), 3) == Standing(account=0, opened=False, remembered=3)
    assert credit(Standing(remembered=4), 5) == Standing(0, False, 9)  # Serg +4, 5 -> +9
    assert credit(Standing(remembered=0), 12) == Standing(0, False, 12)  # 12 is not > 12


def test_credit_above_twelve_opens_with_remembered() -> None:
    """RULES §1.6: p > 12 opens the account with p + remembered (Olya +7, 13 -> 20)."""
    assert credit(Standing(remembered=7), 13) == Standing(account=20, opened=True, remembered=0)
    assert credit(Standing(), 13) == Standing(13, True, 0)


def test_credit_opened_account_adds_however_small() -> None:
    """RULES §1.6: account already opened: add p to the account, however small."""
    assert credit(Standing(40, True, 0), 1) == Standing(41, True, 0)
    assert credit(Standing(40, True, 0), 0) == Standing(40, True, 0)
    assert credit(Standing(40, True, 0), 30) == Standing(70, True, 0)


def test_worked_example_masha_alex_olya_serg() -> None:
    """RULES §1.6 worked example: Masha went out (remembered 19 -> 0, not opened); Alex 3 -> +3;
    Olya +7 with 13 -> account 20; Serg +4 with 5 -> +9."""
    before = [Standing(remembered=19), Standing(), Standing(remembered=7), Standing(remembered=4)]
    for rule in ("all", "one"):
        s = settle_goat_round(before, [0, 3, 13, 5], "out", 0, rule, 0)
        assert list(s.standings) == [
            Standing(0, False, 0),
            Standing(0, False, 3),
            Standing(20, True, 0),
            Standing(0, False, 9),
        ]
        assert list(s.credited) == [0, 3, 13, 5]
        assert s.carry == 0


def test_out_player_keeps_opened_account() -> None:
    """RULES §1.6: the player who went out: remembered reset, his opened account unchanged."""
    before = [Standing(55, True, 0), Standing(30, True, 0)]
    s = settle_goat_round(before, [0, 17], "out", 0, "all", 0)
    assert list(s.standings) == [Standing(55, True, 0), Standing(47, True, 0)]


# --- §1.7 fish scoring -----------------------------------------------------------------------


def test_fish_for_all_credits_everyone_and_resets_nobody() -> None:
    """RULES §1.7 `all`: every player, the fisherman included, is credited his own round points
    by §1.6; nobody's remembered points are reset."""
    before = [Standing(remembered=5), Standing(remembered=2), Standing(50, True, 0)]
    s = settle_goat_round(before, [4, 11, 9], "fish", 0, "all", 0)
    # 11 <= 12 goes to remembered whatever was remembered before (§1.6 tests p, not the sum).
    assert list(s.standings) == [
        Standing(0, False, 9),
        Standing(0, False, 13),
        Standing(59, True, 0),
    ]
    assert list(s.credited) == [4, 11, 9]
    assert s.carry == 0


def test_fish_to_one_worked_example() -> None:
    """RULES §1.7 `one` example: Masha 2, Alex 3, Olya 13, Serg 5: amount 23; Olya had +7, her
    account opens at 30; the others' remembered points become 0."""
    before = [
        Standing(remembered=4),
        Standing(remembered=9),
        Standing(remembered=7),
        Standing(remembered=1),
    ]
    s = settle_goat_round(before, [2, 3, 13, 5], "fish", 1, "one", 0)
    assert list(s.standings) == [
        Standing(0, False, 0),
        Standing(0, False, 0),
        Standing(30, True, 0),
        Standing(0, False, 0),
    ]
    assert list(s.credited) == [0, 0, 23, 0]
    assert s.carry == 0


def test_fish_to_one_others_opened_accounts_unchanged() -> None:
    """RULES §1.7 `one`: every other player is credited 0 (an opened account stays as it is)."""
    before = [Standing(40, True, 0), Standing(remembered=6), Standing(12, True, 0)]
    s = settle_goat_round(before, [20, 5, 1], "fish", 2, "one", 0)
    assert list(s.standings) == [
        Standing(66, True, 0),
        Standing(0, False, 0),
        Standing(12, True, 0),
    ]


def test_fish_to_one_small_amount_is_remembered_by_the_winner() -> None:
    """RULES §1.7 `one`: the amount is credited by §1.6, so 12 or less is remembered."""
    before = [Standing(remembered=3), Standing(remembered=2)]
    s = settle_goat_round(before, [3, 8], "fish", 0, "one", 0)
    assert list(s.standings) == [Standing(0, False, 0), Standing(0, False, 13)]


def test_fish_to_one_tie_is_carried() -> None:
    """RULES §1.7 `one`, tie for the highest: Alex 14, Olya 14, amount 35 -> carry +35; nobody
    is credited; remembered points untouched (Choice)."""
    before = [
        Standing(remembered=3),
        Standing(remembered=8),
        Standing(remembered=7),
        Standing(22, True, 0),
    ]
    s = settle_goat_round(before, [3, 14, 14, 4], "fish", 0, "one", 0)
    assert list(s.standings) == before
    assert list(s.credited) == [0, 0, 0, 0]
    assert s.carry == 35


def test_carry_paid_in_a_going_out_round() -> None:
    """RULES §1.7: a carry is paid next round to the single highest, whatever way the round
    ends (going out): his own due plus the carry, as one credit by §1.6."""
    before = [
        Standing(remembered=3),
        Standing(remembered=8),
        Standing(remembered=7),
        Standing(22, True, 0),
    ]
    s = settle_goat_round(before, [0, 5, 6, 4], "out", 0, "one", 35)
    assert list(s.standings) == [
        Standing(0, False, 0),
        Standing(0, False, 13),
        Standing(48, True, 0),  # 6 + 35 = 41 > 12: opens with 41 + 7
        Standing(26, True, 0),
    ]
    assert list(s.credited) == [0, 5, 41, 4]
    assert s.carry == 0


@pytest.mark.parametrize("rule", ["all", "one"])
def test_carry_paid_in_a_fish_round(rule: str) -> None:
    """RULES §1.7: the carry is paid in a fish under either rule: fish amount (`one`) or own
    round points (`all`) plus the carry, as one credit."""
    before = [Standing(remembered=2), Standing(remembered=1), Standing(30, True, 0)]
    s = settle_goat_round(before, [3, 9, 5], "fish", 2, rule, 35)
    if rule == "one":
        assert list(s.standings) == [
            Standing(0, False, 0),
            Standing(53, True, 0),
            Standing(30, True, 0),
        ]
        assert list(s.credited) == [0, 52, 0]
    else:
        assert list(s.standings) == [
            Standing(0, False, 5),
            Standing(45, True, 0),
            Standing(35, True, 0),
        ]
        assert list(s.credited) == [3, 44, 5]
    assert s.carry == 0


def test_repeated_tie_under_one_with_fish_adds_the_amount() -> None:
    """RULES §1.7: if that round again has a tie for the highest, the carry stays, and under
    `one` with a fish the new amount is added to it."""
    before = [Standing(remembered=2), Standing(remembered=1), Standing(30, True, 0)]
    s = settle_goat_round(before, [9, 9, 5], "fish", 2, "one", 35)
    assert list(s.standings) == before
    assert list(s.credited) == [0, 0, 0]
    assert s.carry == 35 + 23


def test_repeated_tie_in_a_fish_for_all_keeps_the_carry() -> None:
    """RULES §1.7: a tie for the highest keeps the carry; under `all` everyone is credited."""
    before = [Standing(remembered=2), Standing(remembered=1), Standing(30, True, 0)]
    s = settle_goat_round(before, [9, 9, 5], "fish", 2, "all", 35)
    assert list(s.standings) == [
        Standing(0, False, 11),
        Standing(0, False, 10),
        Standing(35, True, 0),
    ]
    assert list(s.credited) == [9, 9, 5]
    assert s.carry == 35


def test_going_out_round_with_a_tie_credits_normally_and_keeps_the_carry() -> None:
    """RULES §1.7 Choice: in a going-out round with a tie for the highest round points, every
    player is credited normally and the carry stays."""
    before = [
        Standing(remembered=5),
        Standing(remembered=1),
        Standing(30, True, 0),
        Standing(remembered=4),
    ]
    s = settle_goat_round(before, [8, 0, 8, 3], "out", 1, "one", 35)
    assert list(s.standings) == [
        Standing(0, False, 13),
        Standing(0, False, 0),
        Standing(38, True, 0),
        Standing(0, False, 7),
    ]
    assert list(s.credited) == [8, 0, 8, 3]
    assert s.carry == 35


# --- §2 classic ------------------------------------------------------------------------------


def test_classic_double_blank_counts_25_in_a_hand() -> None:
    """RULES §2: pip counts: each tile its pips, except 0-0 in a hand counts 25."""
    assert classic_hand_points(tiles("0-0")) == 25
    assert classic_hand_points(tiles("0-0", "3-4")) == 32
    assert classic_hand_points(tiles("6-6", "1-2")) == 15


def test_classic_going_out_scores_the_other_hands() -> None:
    """RULES §2: going out: the winner scores the sum of all other hands."""
    assert list(classic_round_credits([12, 0, 30, 7], "out", 1)) == [0, 49, 0, 0]


def test_classic_block_lowest_scores_difference() -> None:
    """RULES §2: block: the lowest hand scores (sum of the other hands) - (his own hand)."""
    assert list(classic_round_credits([12, 5, 30], "fish", 0)) == [0, 12 + 30 - 5, 0]


def test_classic_block_tie_for_lowest_scores_nothing() -> None:
    """RULES §2: a tie for the lowest hand scores nothing for anybody."""
    assert list(classic_round_credits([5, 5, 30, 9], "fish", 2)) == [0, 0, 0, 0]
