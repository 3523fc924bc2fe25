"""Glicko-2 skill ratings (Glickman, "Example of the Glicko-2 system", 2013).

Written out from the published algorithm rather than taken from the `glicko2` package:
its volatility step uses the rating where the paper has the deviation (phi), which only
goes unnoticed for players rated exactly 1500.

A multi-player game is one rating period in which every seat meets every other seat:
a winner beats a loser (1 / 0), two seats with the same outcome draw (0.5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5  # system constant: how fast volatility may change
EPSILON = 0.000001
MAX_DEVIATION = 350.0


@dataclass(frozen=True)
class Skill:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, delta: float, v: float) -> float:
    """Step 5: the Illinois-algorithm root of f(x)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Skill, results: Sequence[tuple[Skill, float]]) -> Skill:
    """The player's skill after one rating period against (opponent, score) pairs."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    if not results:
        # Step 6 alone: an idle period only widens the deviation.
        idle = math.sqrt(phi * phi + player.volatility**2) * SCALE
        return Skill(player.rating, min(MAX_DEVIATION, idle), player.volatility)
    opponents = [((o.rating - 1500) / SCALE, o.deviation / SCALE, score) for o, score in results]
    v = 1 / sum(
        _g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j))
        for mu_j, phi_j, _ in opponents
    )
    improvement = sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    delta = v * improvement
    sigma = _new_volatility(player.volatility, phi, delta, v)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Skill(new_mu * SCALE + 1500, new_phi * SCALE, sigma)


def update_game(skills: Sequence[Skill], won: Sequence[bool]) -> list[Skill]:
    """Every seat's skill after one game: pairwise results, one rating period."""
    after = []
    for seat, skill in enumerate(skills):
        results = [
            (other, 0.5 if won[seat] == won[j] else (1.0 if won[seat] else 0.0))
            for j, other in enumerate(skills)
            if j != seat
        ]
        after.append(update(skill, results))
    return after
