"""A team battle's club standings (PROTOCOL §2e), a pure function: a club scores the sum of
its `leaders` best players' points; clubs equal on points are ordered by the games those
players played (fewer first), and clubs equal on both share a place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One player of the battle: the club he plays for, his points and games."""

    club: int
    points: float
    games: int


@dataclass(frozen=True)
class ClubStanding:
    club: int
    points: float
    games: int  # the games its scoring players played
    place: int


def club_standings(clubs: Sequence[int], entries: Sequence[Entry], leaders: int
                   ) -> list[ClubStanding]:
    """Every club of `clubs` (in the battle's order where tied), the best first."""
    if leaders < 1:
        raise ValueError("a club scores with at least one player")
    by_club: dict[int, list[Entry]] = {club: [] for club in clubs}
    for entry in entries:
        if entry.club in by_club:
            by_club[entry.club].append(entry)
    scored: list[tuple[int, float, int]] = []
    for club in clubs:
        best = sorted(by_club[club], key=lambda e: (-e.points, e.games))[:leaders]
        scored.append((club, sum(e.points for e in best), sum(e.games for e in best)))
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][1], scored[i][2], i))
    standings: list[ClubStanding] = []
    for i in order:
        club, points, games = scored[i]
        place = 1 + sum(1 for _, p, g in scored if (-p, g) < (-points, games))
        standings.append(ClubStanding(club, points, games, place))
    return standings
