"""Tournament points per game and final places (PROTOCOL §2b), and arena pairing."""

from __future__ import annotations

from app.domain.arena import Waiting, pair_waiting
from app.domain.points import Played, game_points, standings
from app.services.gathering.tournament_director import points_of


def test_a_game_pays_seats_minus_place_in_the_variants_direction() -> None:
    # Goat: fewer points is better
    assert game_points([10, 20, 30, 40], "lower", "goat", [3]) == [3, 2, 1, 0]
    assert game_points([10, 20, 30, 40], "higher", "target", []) == [0, 1, 2, 3]


def test_tied_players_share_the_mean_of_their_places() -> None:
    assert game_points([10, 20, 20, 40], "higher", "target", []) == [0, 1.5, 1.5, 3]
    assert game_points([5, 5, 5, 5], "higher", "target", []) == [1.5] * 4
    # partners keep one score: the team shares its two places
    assert game_points([30, 10, 30, 10], "higher", "target", []) == [2.5, 0.5, 2.5, 0.5]


def test_a_timeout_or_resignation_is_last_whatever_the_score() -> None:
    assert game_points([10, 20, 20, 40], "higher", "timeout", [3]) == [1, 2.5, 2.5, 0]
    assert game_points([0, 50], "lower", "resign", [0]) == [0, 1]


def test_places_by_points_then_opponents_points_then_games_won() -> None:
    games = [Played([1, 2], [1, 0]), Played([3, 4], [1, 0]), Played([2, 3], [0.5, 0.5]),
             Played([1, 4], [0.5, 0.5])]
    points = {1: 1.5, 2: 0.5, 3: 1.5, 4: 0.5}
    table = standings(points, games)
    # 1 met 2 (0.5) and 4 (0.5); 3 met 4 (0.5) and 2 (0.5): equal; both won once
    assert [(s.player, s.place) for s in table] == [(1, 1), (3, 1), (2, 3), (4, 3)]
    assert [s.opponents for s in table] == [1, 1, 3, 3]
    # opponents' points decide between equal points
    games = [Played([1, 2], [1, 0]), Played([3, 4], [1, 0]), Played([2, 4], [1, 0])]
    table = standings({1: 1, 2: 1, 3: 1, 4: 0}, games)
    assert [s.player for s in table] == [1, 2, 3, 4]
    assert [s.place for s in table] == [1, 1, 3, 4]
    assert [s.opponents for s in table] == [1, 1, 0, 2]
    # three at one table: ranked by their points
    games = [Played([1, 2, 3], [2, 1, 0]), Played([1, 2, 3], [0.5, 0.5, 2])]
    table = standings({1: 2.5, 2: 1.5, 3: 2}, games)
    assert [s.player for s in table] == [1, 3, 2]


def test_arena_seats_the_longest_waiting_and_groups_them_by_points() -> None:
    waiting = [Waiting(i, float(i % 3), 1500.0, since=100 - i) for i in range(10)]
    tables = pair_waiting(waiting, 4)
    seated = [p for t in tables for p in t]
    assert len(tables) == 2 and len(set(seated)) == 8
    # the two who began waiting last (ids 0 and 1) wait on
    assert {0, 1}.isdisjoint(seated)
    assert pair_waiting(waiting[:3], 4) == []
    points = {w.id: w.points for w in waiting}
    assert min(points[p] for p in tables[0]) >= max(points[p] for p in tables[1])


def test_a_game_aborted_before_every_seat_moved_scores_no_tournament_points() -> None:
    """PROTOCOL §2g: the director credits an aborted game, and nobody scores from it."""
    result = {"final": [0, 0], "reason": "resign", "losers": [1], "winners": [0]}
    assert points_of("goat", result) == [1.0, 0.0]
    assert points_of("goat", {**result, "unrated_reason": "aborted"}) == [0.0, 0.0]
