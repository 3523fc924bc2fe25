"""Glicko-2 skill (RULES 9): Glickman's worked example and the pairwise game update."""

from __future__ import annotations

import pytest

from app.domain.skill import Skill, update, update_game


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system" (Glickman, 2013), section "Example calculation".
    player = Skill(1500, 200, 0.06)
    after = update(player, [(Skill(1400, 30), 1), (Skill(1550, 100), 0), (Skill(1700, 300), 0)])
    # The paper rounds its intermediate steps and prints 1464.06 / 151.52 / 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_volatility_step_uses_the_deviation_not_the_rating():
    # The same results for a player rated 1800: a rating-for-phi mix-up would move sigma.
    after = update(
        Skill(1800, 200, 0.06), [(Skill(1400, 30), 1), (Skill(1550, 100), 0), (Skill(1700, 300), 0)]
    )
    assert after.volatility == pytest.approx(0.060004, abs=0.000002)


def test_an_idle_period_only_widens_the_deviation():
    after = update(Skill(1600, 100, 0.06), [])
    assert after.rating == 1600
    assert after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_game_is_pairwise_winners_beat_losers_and_equals_draw():
    start = [Skill()] * 4
    after = update_game(start, [True, True, True, False])
    # The three winners drew each other and beat the goat: they move up equally.
    assert after[0] == after[1] == after[2]
    assert after[0].rating > 1500 > after[3].rating
    # One winner and one loser: symmetric around 1500.
    duel = update_game([Skill(), Skill()], [True, False])
    assert duel[0].rating - 1500 == pytest.approx(1500 - duel[1].rating)
