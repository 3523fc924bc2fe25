"""Arena seating keeps apart players who block one another (PROTOCOL §2c), while others
wait; with nobody kept apart it seats as before."""

from __future__ import annotations

from app.domain.arena import Waiting, pair_waiting


def _w(player_id: int, since: int, points: float = 0.0) -> Waiting:
    return Waiting(player_id, points, 1500.0, since)


def test_nobody_apart_seats_as_before() -> None:
    waiting = [_w(1, 0, 3), _w(2, 1, 2), _w(3, 2, 1), _w(4, 3, 0)]
    assert pair_waiting(waiting, 2) == [[1, 2], [3, 4]]
    assert pair_waiting(waiting, 2, apart={frozenset((1, 3))}) == [[1, 2], [3, 4]]


def test_two_who_block_each_other_are_seated_apart_while_others_wait() -> None:
    waiting = [_w(1, 0, 3), _w(2, 1, 2), _w(3, 2, 1), _w(4, 3, 0)]
    tables = pair_waiting(waiting, 2, apart={frozenset((1, 2))})
    assert len(tables) == 2
    assert all({1, 2} - set(t) for t in tables)
    # a third waiting player takes the blocked one's place; the blocked one waits
    three = pair_waiting([_w(1, 0), _w(2, 1), _w(3, 5)], 2, apart={frozenset((1, 2))})
    assert three == [[1, 3]]
    # only the two of them: nobody is seated
    assert pair_waiting([_w(1, 0), _w(2, 1)], 2, apart={frozenset((1, 2))}) == []


def test_four_seats_with_a_pair_apart() -> None:
    waiting = [_w(n, n) for n in range(1, 10)]
    tables = pair_waiting(waiting, 4, apart={frozenset((1, 2)), frozenset((3, 4))})
    assert len(tables) == 2
    for t in tables:
        assert not ({1, 2} <= set(t) or {3, 4} <= set(t))
