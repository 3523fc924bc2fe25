"""Tournament points of a game and the tournament's places (PROTOCOL §2b), pure functions.

A game pays each seat `seats - place`: 1st of 4 scores 3, last 0, and players tied share
the mean of their places. The standings order the final scores in the variant's `wins`
direction; partners have one score (their team's), so they share their team's places; a
player who lost on time or resigned is last. Final places: points, then the sum of the
opponents' points (each opponent's total, once per game against him), then games won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

INTERRUPTED = ("timeout", "resign")


def game_points(final: Sequence[float], wins: str, reason: str, losers: Sequence[int]
                ) -> list[float]:
    """Points per seat of a finished game: `final` its final scores by seat, `wins`
    "higher" or "lower" (the variant's), `reason` and `losers` its result's."""
    seats = len(final)
    last = set(losers) if reason in INTERRUPTED else set()

    def key(seat: int) -> tuple[int, float]:
        score = final[seat] if wins == "higher" else -final[seat]
        return (0 if seat in last else 1, score)

    order = sorted(range(seats), key=key, reverse=True)
    points = [0.0] * seats
    place = 1
    i = 0
    while i < seats:
        j = i
        while j + 1 < seats and key(order[j + 1]) == key(order[i]):
            j += 1
        mean_place = (place + place + (j - i)) / 2
        for seat in order[i:j + 1]:
            points[seat] = seats - mean_place
        place += j - i + 1
        i = j + 1
    return points


@dataclass(frozen=True)
class Played:
    """One finished tournament game: player ids by seat and the points each scored."""

    players: Sequence[int]
    points: Sequence[float]


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    opponents: float
    won: int
    place: int


def standings(points: Mapping[int, float], games: Sequence[Played]) -> list[Standing]:
    """Every player of `points` (his total, byes included) ranked, best first; equal on
    all three counts share a place."""
    opponents = dict.fromkeys(points, 0.0)
    won = dict.fromkeys(points, 0)
    for game in games:
        best = max(game.points)
        alone = sum(1 for p in game.points if p == best) == 1
        for player, scored in zip(game.players, game.points, strict=True):
            if player not in points:
                continue
            opponents[player] += sum(points.get(o, 0.0) for o in game.players if o != player)
            if alone and scored == best:
                won[player] += 1
    order = sorted(points, key=lambda p: (-points[p], -opponents[p], -won[p], p))
    out: list[Standing] = []
    for index, player in enumerate(order):
        key = (points[player], opponents[player], won[player])
        if out and (out[-1].points, out[-1].opponents, out[-1].won) == key:
            place = out[-1].place
        else:
            place = index + 1
        out.append(Standing(player, points[player], opponents[player], won[player], place))
    return out
