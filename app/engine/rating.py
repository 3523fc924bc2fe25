"""Rating gains of RULES.md §1.9 and §9: exact arithmetic, halves rounded up."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

Number = int | Fraction


def round_half_up(x: Number | str) -> int:
    """Nearest integer, halves going up: 7.5 -> 8, 8.5 -> 9, -0.5 -> 0.

    Python's built-in `round` rounds halves to even (round(8.5) == 8) and is wrong here.
    """
    return math.floor(Fraction(x) + Fraction(1, 2))


def game_gain(account: Number) -> int:
    """A non-goat's gain when a game finishes normally: max(1, [(100 - S) / 10])."""
    return max(1, round_half_up((100 - Fraction(account)) / 10))


def timeout_gain(timed_out_account: Number, own_account: Number) -> int:
    """Gain of a player whose opponent timed out: max(1, [(T - S) / 10])."""
    return max(1, round_half_up((Fraction(timed_out_account) - Fraction(own_account)) / 10))


def goat_gains(accounts: list[int], goats: list[int]) -> list[int]:
    """Gains of a Goat game that ended at 101: goats gain 0, the others `game_gain`."""
    return [0 if seat in goats else game_gain(acc) for seat, acc in enumerate(accounts)]


def timeout_gains(accounts: list[int], timed_out: int) -> list[int]:
    """Gains of a game interrupted by `timed_out`: he gains 0, the others `timeout_gain`."""
    t = accounts[timed_out]
    return [0 if seat == timed_out else timeout_gain(t, acc) for seat, acc in enumerate(accounts)]


def higher_wins_gains(scores: list[int], winners: list[int], target: int) -> list[int]:
    """RULES.md §9 for "higher wins" variants: S = 100 * (winner - own) / target."""
    best = max(scores)
    return [
        game_gain(0) if seat in winners else game_gain(Fraction(100 * (best - s), target))
        for seat, s in enumerate(scores)
    ]


def lower_wins_gains(totals: list[int], winners: list[int]) -> list[int]:
    """RULES.md §9 for "lower wins" variants (Mexican Train): a winner gains
    `game_gain(0)`; the others S = 100 * (own - best) / max(1, worst - best)."""
    best, worst = min(totals), max(totals)
    spread = max(1, worst - best)
    return [
        game_gain(0) if seat in winners else game_gain(Fraction(100 * (t - best), spread))
        for seat, t in enumerate(totals)
    ]


DRAW_GAIN = 5  # a drawn Sport Goat or General game pays every player +5 (RULES §11, §12)


def team_gains(gains_by_side: Sequence[int], side_of_seat: Sequence[int]) -> list[int]:
    """Each seat gains what its side gains: partners are paid alike in every team game
    (Team Goat, Fives at 4, Sea Goat at 4, Sport Goat, General). `gains_by_side` is the
    variant's own formula applied to the sides' totals as if each side were one player."""
    return [gains_by_side[side] for side in side_of_seat]


def margin_gains(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """RULES §11 and §12: the winners gain `game_gain(0)` = 10, the others
    S = 100 * (winners' total - own total) / max(1, winners' total); with no winner (a
    draw) everybody gains `DRAW_GAIN`."""
    if not winners:
        return [DRAW_GAIN] * len(totals)
    best = totals[winners[0]]
    return [
        game_gain(0) if side in winners else game_gain(Fraction(100 * (best - t), max(1, best)))
        for side, t in enumerate(totals)
    ]
