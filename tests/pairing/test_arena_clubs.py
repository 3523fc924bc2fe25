"""Arena seating in a team battle (PROTOCOL §2e): club-mates never sit together while
players of other clubs wait, as last opponents do not (a soft rule): the whole of those
due are parted where a swap between the new tables parts them, and club-mates meet when no one
else waits."""

from __future__ import annotations

import time

from app.domain.arena import Waiting, pair_waiting


def _w(player_id: int, since: int = 0, points: float = 0.0) -> Waiting:
    return Waiting(player_id, points, 1500.0, since)


def _clubs_at(tables: list[list[int]], clubs: dict[int, int]) -> list[set[int]]:
    return [{clubs[p] for p in t} for t in tables]


def test_three_clubs_are_parted_where_a_first_fit_would_leave_two_mates_together() -> None:
    clubs = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3}
    waiting = [_w(p) for p in clubs]
    tables = pair_waiting(waiting, 2, clubs=clubs)
    assert sorted(p for t in tables for p in t) == list(clubs)
    assert all(len(c) == 2 for c in _clubs_at(tables, clubs)), tables
    # without the clubs, by standing alone (here: by id)
    assert pair_waiting(waiting, 2) == [[1, 2], [3, 4], [5, 6], [7, 8]]


def test_club_mates_meet_when_nobody_else_waits_and_blocks_still_hold() -> None:
    clubs = {1: 1, 2: 1, 3: 2}
    assert pair_waiting([_w(1), _w(2)], 2, clubs=clubs) == [[1, 2]]
    # the third, of another club, takes the mate's seat though he waited less
    assert pair_waiting([_w(1, 0), _w(2, 1), _w(3, 5)], 2, clubs=clubs) == [[1, 3]]
    # a block is never given up for a club
    four = {1: 1, 2: 2, 3: 1, 4: 2}
    tables = pair_waiting([_w(p) for p in four], 2, apart={frozenset((1, 2))}, clubs=four)
    assert sorted(map(sorted, tables)) == [[1, 4], [2, 3]]


def test_two_large_clubs_at_tables_of_four_are_seated_soon() -> None:
    """No seating parts them all (each table of four holds mates): the swaps give up
    within their tries and everyone is seated."""
    clubs = {p: p % 2 for p in range(300)}
    started = time.process_time()
    tables = pair_waiting([_w(p, p) for p in clubs], 4, clubs=clubs)
    assert time.process_time() - started < 2.0
    assert len(tables) == 75
