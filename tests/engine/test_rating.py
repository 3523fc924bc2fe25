"""RULES §1.9 and §9 rating formulas through app/engine/rating.py: every worked example."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.engine.rating import (
    game_gain,
    goat_gains,
    higher_wins_gains,
    round_half_up,
    timeout_gain,
    timeout_gains,
)


@pytest.mark.parametrize(
    ("x", "expected"),
    [("7.5", 8), ("8.5", 9), ("6.5", 7), ("0.2", 0), ("1.9", 2), ("0.5", 1), ("2.5", 3)],
)
def test_round_half_up_examples(x: str, expected: int) -> None:
    """RULES §1.9: round_half_up: 7.5 -> 8, 8.5 -> 9, 6.5 -> 7, 0.2 -> 0, 1.9 -> 2 (halves up,
    not banker's rounding)."""
    assert round_half_up(Fraction(x)) == expected


@pytest.mark.parametrize(
    ("account", "gain"),
    [(25, 8), (15, 9), (35, 7), (96, 1), (100, 1), (0, 10), (5, 10), (45, 6), (94, 1)],
)
def test_game_gain_examples(account: int, gain: int) -> None:
    """RULES §1.9: a non-goat gains max(1, round_half_up((100 - S) / 10)); S = 25 -> 7.5 -> +8;
    S = 100 -> the minimum +1."""
    assert game_gain(account) == gain


def test_goats_gain_nothing() -> None:
    """RULES §1.9: a goat gains 0; every other player the game formula (S his account)."""
    assert goat_gains([25, 104, 15, 110], [1, 3]) == [8, 0, 9, 0]
    assert goat_gains([0, 101], [1]) == [10, 0]


@pytest.mark.parametrize(("own", "gain"), [(30, 1), (13, 2), (40, 1), (0, 3), (32, 1)])
def test_timeout_gain_examples(own: int, gain: int) -> None:
    """RULES §1.9 timeout, T = 32: S = 30 -> 0.2 -> 0 -> +1; S = 13 -> 1.9 -> +2; S = 40 -> +1."""
    assert timeout_gain(32, own) == gain


def test_timed_out_player_gains_nothing() -> None:
    """RULES §1.9: the player who timed out gains 0; the others max(1, [(T - S) / 10])."""
    assert timeout_gains([30, 32, 13, 40], 1) == [1, 0, 2, 1]
    assert timeout_gains([0, 0], 0) == [0, 1]


def test_higher_wins_gains() -> None:
    """RULES §9: S = 100 * (winner_score - own_score) / target; the winner gains 10."""
    # target 100: winner 104, others 79 (S = 25 -> 8) and 104 - 19 = 85 (S = 85 -> 1.5 -> 2).
    assert higher_wins_gains([104, 79, 19], [0], 100) == [10, 8, 2]
    # target 200: (210 - 160) * 100 / 200 = 25 -> +8
    assert higher_wins_gains([160, 210], [1], 200) == [8, 10]
