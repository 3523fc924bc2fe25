"""Arena pairing does not seat the same players together twice in a row while others
wait (PROTOCOL §2g), and still seats two players alone in an arena again."""

from __future__ import annotations

from app.domain.arena import Waiting, pair_waiting


def _w(pid: int, since: int = 0, points: float = 0) -> Waiting:
    return Waiting(pid, points, 1500, since)


def test_two_who_just_met_are_split_when_others_wait() -> None:
    waiting = [_w(1, 10, 3), _w(2, 10, 3), _w(3, 5), _w(4, 5)]
    last = {1: frozenset({2}), 2: frozenset({1})}
    tables = pair_waiting(waiting, 2, last)
    assert sorted(map(sorted, tables)) == [[1, 3], [2, 4]] or \
        sorted(map(sorted, tables)) == [[1, 4], [2, 3]]
    # without their last game they would have met again (same points, next in rank)
    assert [1, 2] in pair_waiting(waiting, 2)


def test_one_left_over_takes_the_seat_of_an_opponent_met_last() -> None:
    # 1 and 2 just played; 3 waited less than both but is the only other one there
    waiting = [_w(1, 10), _w(2, 10), _w(3, 20)]
    last = {1: frozenset({2}), 2: frozenset({1})}
    tables = pair_waiting(waiting, 2, last)
    assert len(tables) == 1 and 3 in tables[0]
    assert pair_waiting(waiting, 2) == [[1, 2]]


def test_alone_in_the_arena_they_meet_again() -> None:
    last = {1: frozenset({2}), 2: frozenset({1})}
    assert pair_waiting([_w(1), _w(2)], 2, last) == [[1, 2]]


def test_every_waiting_player_is_seated_once_at_most() -> None:
    waiting = [_w(i, i % 3, i % 4) for i in range(1, 14)]
    last = {i: frozenset({i + 1, i - 1}) for i in range(1, 14)}
    for seats in (2, 3, 4):
        tables = pair_waiting(waiting, seats, last)
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated)) == 13 - 13 % seats
        assert all(len(t) == seats for t in tables)
