"""The turn clock as the pure commands and `seal` make it (RULES 1.10, PROTOCOL §2g): the
reserve spent once the turn time is, a seat a computer player holds and gives back at its
person's turn, and the seats that have moved."""

from __future__ import annotations

from app.services.play.moves import move, seat_reclaim, timeout
from app.services.tables.bot_seats import bot_entry
from app.services.tables.lobby import Terms
from app.services.tables.table import Table
from app.services.tables.transact import ServiceError, build_view, game_of
from tests.services.tables import NOW, PEOPLE, playing, written

TURN_MS = 30_000
RESERVE_MS = 10_000


def _reserved(on_timeout: str = "end") -> Table:
    return playing(Terms("goat", seats=4, options={}, rated=False, turn_seconds=30,
                         reserve_seconds=10, on_timeout=on_timeout))  # type: ignore[arg-type]


def _move_at(table: Table, now: int) -> Table:
    """The seat on turn (a person or a computer player) makes its first legal move."""
    game = game_of(table)
    assert game is not None and game.turn is not None
    legal = game.legal_for(game.turn)[0]
    who = table.seats[game.turn]
    assert who is not None
    step = move(who.id, str(legal["tile"]), legal["end"], table.version, now=now)(table)
    return written(table, step, now)


def test_the_deadline_counts_the_turn_time_and_the_reserve() -> None:
    table = _reserved()
    assert table.deadline == NOW + TURN_MS + RESERVE_MS
    assert build_view(table, game_of(table), None, set())["clock"] == {
        "reserve_ms": [RESERVE_MS] * 4}


def test_a_move_within_the_turn_time_leaves_the_reserve_whole() -> None:
    table = _reserved()
    game = game_of(table)
    assert game is not None and game.turn is not None
    after = _move_at(table, NOW + TURN_MS - 1)
    assert after.reserves() == [RESERVE_MS] * 4


def test_a_slow_move_spends_the_reserve_and_the_rest_of_it_stays_for_the_game() -> None:
    table = _reserved()
    game = game_of(table)
    assert game is not None and game.turn is not None
    slow = game.turn
    after = _move_at(table, NOW + TURN_MS + 4_000)  # 4 s into his reserve
    left = after.reserves()
    assert left[slow] == RESERVE_MS - 4_000
    assert [r for s, r in enumerate(left) if s != slow] == [RESERVE_MS] * 3
    # the next player's clock: his turn time and his whole reserve
    assert after.deadline == NOW + TURN_MS + 4_000 + TURN_MS + RESERVE_MS
    # every process reads the same clock from the stored table
    assert Table.from_dict(after.to_dict()).reserves() == left
    assert build_view(after, game_of(after), slow, set())["clock"]["reserve_ms"] == left


def test_a_turn_past_both_times_out_and_not_before() -> None:
    table = _reserved()
    assert table.deadline is not None
    assert timeout(NOW + TURN_MS + RESERVE_MS - 1)(table) is None  # still in his reserve
    step = timeout(table.deadline + 1)(table)
    assert step is not None and step.events[0]["type"] == "timeout"


def test_a_seat_held_by_a_computer_player_is_given_back_at_its_persons_turn() -> None:
    table = _reserved(on_timeout="computer")
    game = game_of(table)
    assert game is not None and game.turn is not None and table.deadline is not None
    gone = game.turn
    taken = written(table, timeout(table.deadline + 1)(table), table.deadline + 1)
    assert taken.seats[gone] == bot_entry("heuristic", gone)
    assert taken.reserves()[gone] == 0  # spent, for the rest of the game
    view = build_view(taken, game_of(taken), None, set())
    assert view["seats"][gone]["stand_in_for"] == PEOPLE[gone].name
    assert view["seats"][gone]["reclaiming"] is False
    # Only the person it is held for may ask for it.
    other = PEOPLE[(gone + 1) % 4].id
    try:
        seat_reclaim(other)(taken)
    except ServiceError as error:
        assert error.code == "not_seated"
    else:
        raise AssertionError("a seat reclaimed by someone else")
    # The computer player moves for him; he asks while another seat is on turn: nothing
    # changes hands, and that seat's clock goes on.
    now = taken.deadline
    assert now is not None
    taken = _move_at(taken, now)
    game = game_of(taken)
    assert game is not None and game.turn != gone
    asked = written(taken, seat_reclaim(PEOPLE[gone].id)(taken), now + 5)
    assert asked.deadline == taken.deadline and asked.seats[gone] == taken.seats[gone]
    assert asked.log[-1].events[-1] == {"type": "seat_reclaim", "round": 0, "seat": gone,
                                        "player": PEOPLE[gone].name, "returned": False}
    assert seat_reclaim(PEOPLE[gone].id)(asked) is None  # asked already
    # The others move until it is his seat's turn: then it is his again, with his turn time.
    current = asked
    while (g := game_of(current)) is not None and g.turn != gone:
        current = _move_at(current, now + 10)
    assert current.seats[gone] == PEOPLE[gone]
    assert current.stand_ins == ()
    assert current.deadline == now + 10 + TURN_MS  # no reserve left
    assert current.log[-1].events[-1]["type"] == "seat_reclaim"
    assert current.log[-1].events[-1]["returned"] is True  # type: ignore[typeddict-item]


def test_every_seat_that_places_or_knocks_has_moved() -> None:
    table = _reserved()
    assert table.moved == ()
    game = game_of(table)
    assert game is not None and game.turn is not None
    first = game.turn
    after = _move_at(table, NOW)
    assert after.moved is not None and first in after.moved
