"""The courtyard table's rotation, the pure part (PROTOCOL §2d, RULES §12)."""

from __future__ import annotations

from app.domain.courtyard import giving_way, losing_team, rotate, sat_longer

FOUR = ("a", "b", "c", "d")  # a+c (seats 0, 2) against b+d (seats 1, 3)


def test_the_losers_give_way_to_the_first_two_waiting_who_sit_as_partners() -> None:
    r = rotate(FOUR, ["e", "f", "g"], losers=[1, 3], since=[1, 1, 1, 1], game=2)
    assert r.seats == ("a", "e", "c", "f")  # e and f opposite each other
    assert r.queue == ("g", "b", "d")  # the losers at the back, in seat order
    assert r.leaving == ("b", "d") and r.coming == ("e", "f")
    assert r.since == (1, 2, 1, 2)


def test_a_timeout_names_one_loser_and_his_team_gives_way() -> None:
    assert losing_team([2]) == 0
    r = rotate(FOUR, ["e", "f"], losers=[2], since=[1, 1, 1, 1], game=2)
    assert r.seats == ("e", "b", "f", "d") and r.queue == ("a", "c")


def test_fewer_than_two_waiting_the_same_four_play_on() -> None:
    r = rotate(FOUR, ["e"], losers=[0, 2], since=[1, 1, 1, 1], game=2)
    assert r.seats == FOUR and r.queue == ("e",) and r.since == (1, 1, 1, 1)
    assert rotate(FOUR, [], losers=[0, 2], since=[1, 1, 1, 1], game=2).seats == FOUR


def test_a_draw_the_team_that_has_sat_longer_gives_way() -> None:
    assert losing_team([]) is None and losing_team([0, 1, 2, 3]) is None
    # b and d came in at game 2: a and c have sat longer
    r = rotate(FOUR, ["e", "f"], losers=[], since=[1, 2, 1, 2], game=3)
    assert r.seats == ("e", "b", "f", "d") and r.queue == ("a", "c")
    # a and c came in at game 3: now b and d have sat longer
    assert giving_way([], [3, 2, 3, 2]) == 1
    # one of a team sat down first, his partner later: the sums decide, then the first
    assert sat_longer([1, 2, 4, 2]) == 1  # a sat first, but b and d sat more games
    assert sat_longer([1, 2, 3, 2]) == 0  # as many games: a sat down first
    assert sat_longer([1, 1, 1, 1]) == 0  # the first game: team 0


def test_a_seat_left_empty_is_taken_by_the_first_waiting() -> None:
    # c left the table: his team lost; he neither stays nor queues
    r = rotate(("a", "b", None, "d"), ["e", "f", "g"], losers=[0, 2], since=[1, 1, 1, 1],
               game=2)
    assert r.seats == ("e", "b", "f", "d") and r.queue == ("g", "a")
    # a winner left: the losers give way, and the next waiting takes the winner's seat
    r = rotate(("a", None, "c", "d"), ["e", "f", "g"], losers=[0, 2], since=[1, 1, 1, 1],
               game=2)
    assert r.seats == ("e", "g", "f", "d") and r.queue == ("a", "c")
    # nobody waits: the seat stays empty
    r = rotate(("a", None, "c", "d"), [], losers=[0, 2], since=[1, 1, 1, 1], game=2)
    assert r.seats == ("a", None, "c", "d")


def test_nobody_seated_is_taken_from_the_queue_twice() -> None:
    r = rotate(FOUR, ["b", "e", "f"], losers=[1, 3], since=[1, 1, 1, 1], game=2)
    assert r.seats == ("a", "e", "c", "f") and r.queue == ("b", "d")
