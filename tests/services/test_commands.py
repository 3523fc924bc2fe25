"""Each command as the pure function `transact` applies: what it makes of a table, what it
refuses (in PROTOCOL §2's order), and that it never changes the table it is given."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.live.store import Outage
from app.services.gathering.seating import seated_start
from app.services.play import moves
from app.services.play.moves import TimedOut, clock_restart, move, resignation, timeout
from app.services.tables.bot_seats import bot_entry
from app.services.tables.caps import lapse
from app.services.tables.lobby import Terms, departure, new_table, rematch_offer, seating
from app.services.tables.table import REMOVE, Rematch, Step, Table
from app.services.tables.transact import (
    LOG_LENGTH,
    Command,
    ServiceError,
    game_of,
    lobby_entry_changed,
    public_table,
    seal,
)
from tests.services.tables import DEAL, NOW, PEOPLE, applied, playing, waiting, written


def refusal(command: Command, table: Table) -> str:
    before = table.to_dict()
    with pytest.raises(ServiceError) as refused:
        command(table)
    assert table.to_dict() == before
    return refused.value.code


def step_of(command: Command, table: Table) -> Step:
    """The step `command` makes of `table`, which is left as it was."""
    before = table.to_dict()
    step = command(table)
    assert isinstance(step, Step), step
    assert table.to_dict() == before
    return step


def on_turn(table: Table) -> tuple[int, dict[str, str | None]]:
    game = game_of(table)
    assert game is not None and game.turn is not None
    return game.turn, game.legal_for(game.turn)[0]


def a_move(table: Table, seat: int | None = None, seq: int | None = None, now: int = NOW,
           **kw: object) -> Command:
    turn, legal = on_turn(table)
    seat = turn if seat is None else seat
    return move(PEOPLE[seat].id, str(legal["tile"]), legal["end"],
                table.version if seq is None else seq, now=now, **kw)  # type: ignore[arg-type]


# -- a move ---------------------------------------------------------------------------------

def test_a_legal_move_is_played_and_written_at_the_next_version_with_its_events() -> None:
    table = playing()
    turn, _ = on_turn(table)
    step = step_of(a_move(table), table)
    assert step.events[0]["type"] == "play" and step.events[0]["seat"] == turn
    assert step.game is not None and step.game.turn != turn
    after = written(table, step, NOW + 5)
    assert after.version == table.version + 1
    assert after.deadline == NOW + 5 + table.turn_seconds * 1000
    assert after.log[-1].v == after.version and after.log[-1].events == step.events
    assert game_of(after) is not None and game_of(after).turn == step.game.turn  # type: ignore[union-attr]


def test_a_move_is_refused_in_the_protocols_order() -> None:
    table = playing()
    turn, legal = on_turn(table)
    other = (turn + 1) % 4
    finished = applied(table, resignation(PEOPLE[other].id))
    stranger = move(99, str(legal["tile"]), legal["end"], table.version, now=NOW)
    assert refusal(stranger, finished) == "not_seated"
    late = move(PEOPLE[turn].id, str(legal["tile"]), legal["end"], 1, now=NOW)
    assert refusal(late, finished) == "game_over"
    assert refusal(a_move(table, other, seq=table.version - 1), table) == "stale"
    assert refusal(a_move(table, other), table) == "not_your_turn"
    bad = move(PEOPLE[turn].id, "0-0", "nowhere", table.version, now=NOW)
    assert refusal(bad, table) == "illegal_move"


def test_a_move_after_the_deadline_is_the_players_timeout_unless_the_clocks_were_down() -> None:
    table = playing()
    assert table.deadline is not None
    late = table.deadline + 1
    with pytest.raises(TimedOut):
        a_move(table, now=late)(table)
    assert refusal(a_move(table, now=late, outage=True), table) == "unavailable"
    step_of(a_move(table, now=table.deadline), table)  # at the deadline: still in time


def test_a_move_on_a_turn_that_ran_out_while_the_store_was_away_counts() -> None:
    table = playing()
    assert table.deadline is not None
    late = table.deadline + 9000
    during = Outage(table.deadline - 1000, table.deadline + 5000)
    step = step_of(a_move(table, now=late, forgiven=during), table)
    assert step.events[0]["type"] == "play"
    # An outage over before the turn ran out, or begun after, forgives nothing.
    with pytest.raises(TimedOut) as timed_out:
        a_move(table, now=late, forgiven=Outage(NOW - 9000, table.deadline - 1))(table)
    assert timed_out.value.deadline == table.deadline
    with pytest.raises(TimedOut):
        a_move(table, now=late, forgiven=Outage(table.deadline + 1, late))(table)
    # While the clocks have not been restarted yet, the move waits for them.
    assert refusal(a_move(table, now=late, outage=True, forgiven=during), table) == "unavailable"


def test_a_bot_is_never_late() -> None:
    table = playing(bots=(1, 2, 3))
    turn, legal = on_turn(table)
    assert table.deadline is not None
    who = table.seats[turn]
    assert who is not None
    late = move(who.id, str(legal["tile"]), legal["end"], table.version,
                now=table.deadline + 60_000)
    step_of(late, table)


def test_no_move_during_the_pause_between_rounds() -> None:
    table = replace(playing(), next_round_at=NOW + 3000)
    with pytest.raises(ServiceError, match="next round starts in 3 s") as refused:
        a_move(table)(table)
    assert refusal(a_move(table), table) == "not_your_turn" == refused.value.code


def test_a_move_uses_the_game_given_once_then_parses_its_own() -> None:
    table = playing()
    given = game_of(table)
    command = a_move(table, game=given)
    assert step_of(command, table).game is given
    again = step_of(command, table).game
    assert again is not given and again is not None


# -- resigning, timing out, the clock -----------------------------------------------------

def test_a_resignation_ends_the_game_as_a_timeout_of_the_seat() -> None:
    table = playing()
    step = step_of(resignation(PEOPLE[2].id), table)
    assert step.events[0] == {"type": "timeout", "round": 0, "seat": 2, "reason": "resign"}
    sealed = seal(table, step, NOW + 9)
    assert sealed.finished and sealed.table.status == "finished"
    assert sealed.table.finished_at == NOW + 9 and sealed.table.deadline is None
    assert refusal(resignation(PEOPLE[2].id), waiting(taken=3)) == "bad_request"
    assert refusal(resignation(PEOPLE[2].id), sealed.table) == "game_over"
    assert refusal(resignation(99), table) == "not_seated"


def test_a_timeout_applies_only_once_the_deadline_has_passed() -> None:
    table = playing()
    assert table.deadline is not None
    turn, _ = on_turn(table)
    assert timeout(table.deadline - 1)(table) is None
    step = step_of(timeout(table.deadline + 1), table)
    assert step.events[0] == {"type": "timeout", "round": 0, "seat": turn, "reason": "timeout"}
    assert written(table, step).status == "finished"
    assert timeout(NOW)(waiting()) is None


def test_a_turn_that_ran_out_while_the_store_was_away_starts_again() -> None:
    table = playing(Terms("goat", seats=4, options={}, rated=False, on_timeout="computer"))
    assert table.deadline is not None
    turn, _ = on_turn(table)
    now = table.deadline + 7000
    during = Outage(table.deadline - 2000, table.deadline + 3000)
    step = step_of(timeout(now, during), table)
    # No timeout and no bot taking over: a whole turn again, from now.
    assert step.events == [{"type": "clock", "round": 0, "seat": turn, "paused_ms": 7000}]
    assert step.table.seats == table.seats
    # His turn time again, and his reserve as it was: the outage is charged to nobody.
    assert written(table, step, now).deadline == now + 30_000 + 60_000
    # A turn that ran out outside the outage is timed out as ever.
    step = step_of(timeout(now, Outage(NOW - 9000, table.deadline - 1)), table)
    assert step.events[0]["type"] == "bot_takeover"


def test_a_bot_takes_over_a_timed_out_seat_where_the_table_allows_it() -> None:
    table = playing(Terms("goat", seats=4, options={}, rated=False, on_timeout="computer"))
    assert table.deadline is not None
    turn, _ = on_turn(table)
    step = step_of(timeout(table.deadline + 1), table)
    assert step.table.seats[turn] == bot_entry("heuristic", turn)
    assert step.events == [{"type": "bot_takeover", "round": 0, "seat": turn,
                            "player": PEOPLE[turn].name, "bot": "heuristic"}]
    assert written(table, step).status == "playing"
    # A bot on turn is moved by the server, never timed out.
    assert timeout(table.deadline + 1)(step.table) is None


def test_the_end_of_a_pause_starts_the_first_turns_clock() -> None:
    table = replace(playing(), next_round_at=NOW, deadline=NOW)
    step = step_of(timeout(NOW + 1), table)
    turn, _ = on_turn(table)
    assert step.events == [{"type": "round_resume", "round": 0, "turn": turn}]
    after = written(table, step, NOW + 1)
    assert after.next_round_at is None and after.deadline == NOW + 1 + 30_000


def test_a_restarted_clock_gives_the_player_on_turn_a_whole_turn() -> None:
    table = playing()
    turn, _ = on_turn(table)
    step = step_of(clock_restart(4000), table)
    assert step.events == [{"type": "clock", "round": 0, "seat": turn, "paused_ms": 4000}]
    assert written(table, step, NOW + 50_000).deadline == NOW + 50_000 + 30_000
    assert clock_restart(4000)(waiting()) is None


def test_a_pause_between_rounds_follows_a_rounds_end() -> None:
    terms = Terms("goat", seats=4, options={}, rated=False, round_pause_seconds=5)
    table = playing(terms)
    step = Step(table, [{"type": "round_end", "round": 1}])
    after = written(table, step, NOW + 7)
    assert after.next_round_at == after.deadline == NOW + 7 + 5000


def test_the_log_keeps_the_last_changes_and_their_json() -> None:
    table = playing()
    for n in range(LOG_LENGTH + 3):
        table = written(table, Step(table, [{"type": "note", "n": n}]))
    assert len(table.log) == LOG_LENGTH and table.log[-1].events == [{"type": "note", "n": 18}]
    assert [entry.v for entry in table.log] == list(range(table.version - 15, table.version + 1))
    assert table.log_json is not None and len(table.log_json) == LOG_LENGTH


# -- seats ----------------------------------------------------------------------------------

def test_seating_takes_the_first_free_seat_or_the_one_asked() -> None:
    table = waiting(taken=2)
    step = step_of(seating(lambda seat: PEOPLE[2], None, DEAL), table)
    assert step.table.seats[2] == PEOPLE[2]
    assert step.events == [{"type": "join", "round": 0, "seat": 2, "player": "p3"}]
    assert step_of(seating(lambda seat: PEOPLE[2], 3, DEAL), table).table.seats[3] == PEOPLE[2]
    assert refusal(seating(lambda seat: PEOPLE[2], 1, DEAL), table) == "bad_request"  # taken
    assert refusal(seating(lambda seat: PEOPLE[2], 4, DEAL), table) == "bad_request"  # no seat

    def refuse(checked: Table) -> None:
        raise ServiceError("not_seated", "not_seated_here", 409)

    assert refusal(seating(lambda seat: PEOPLE[2], None, DEAL, refuse), table) == "not_seated"


def test_the_last_seat_starts_the_game_from_the_deal() -> None:
    table = waiting(taken=3)
    step = step_of(seating(lambda seat: PEOPLE[3], None, DEAL), table)
    assert [e["type"] for e in step.events][:2] == ["join", "start"]
    assert step.game is not None and step.game.status == "playing"
    assert step.table.game_id == DEAL.game_id and step.table.started_at == DEAL.now
    started = written(table, step)
    assert started.status == "playing" and started.deadline == NOW + 30_000
    # The seed stays secret: only its commitment is told.
    assert DEAL.seed.hex() not in str(step.events)
    assert refusal(seating(lambda seat: PEOPLE[3], None, DEAL), started) == "bad_request"


def test_a_table_made_with_every_seat_taken_starts_with_each_join_told() -> None:
    """A seek's match or a tournament's pairing: every seat taken when the table is made."""
    terms = Terms("goat", seats=2, options={}, private=True)
    table = replace(new_table("t2", PEOPLE[1], terms, (PEOPLE[1], PEOPLE[2]), NOW), version=1)
    step = step_of(seated_start(DEAL), table)
    assert step.events[:2] == [{"type": "join", "round": 0, "seat": 0, "player": "p2"},
                               {"type": "join", "round": 0, "seat": 1, "player": "p3"}]
    assert step.events[2]["type"] == "start" and DEAL.seed.hex() not in str(step.events)
    started = written(table, step)
    assert started.status == "playing" and started.game_id == DEAL.game_id and started.private
    assert seated_start(DEAL)(started) is None  # started already: nothing to do
    assert refusal(seated_start(DEAL), table.with_seat(1, None)) == "bad_request"


def test_a_private_table_and_its_rematch_stay_out_of_the_lobby() -> None:
    terms = Terms("goat", seats=2, options={}, rated=False, private=True)
    hidden = waiting(terms)
    assert hidden.private and public_table(hidden)["private"] is True
    assert lobby_entry_changed(None, hidden) is None
    assert lobby_entry_changed(hidden, applied(hidden, seating(lambda seat: PEOPLE[1], None,
                                                               DEAL))) is None
    assert Terms.of(hidden).private  # a rematch is made with the same terms
    shown = waiting(replace(terms, private=False))
    assert lobby_entry_changed(None, shown) == public_table(shown)
    assert public_table(shown)["private"] is False


def test_leaving_frees_the_seat_and_the_last_person_out_removes_the_table() -> None:
    table = waiting(taken=2)
    step = step_of(departure(PEOPLE[1]), table)
    assert step.table.seats[1] is None
    assert step.events == [{"type": "leave", "round": 0, "seat": 1, "player": "p2"}]
    assert departure(PEOPLE[0])(waiting()) is REMOVE
    with_bot = waiting().with_seat(2, bot_entry("strong", 2))
    assert departure(PEOPLE[0])(with_bot) is REMOVE  # bots do not keep a table
    assert refusal(departure(PEOPLE[3]), table) == "not_seated"


def test_leaving_a_running_game_resigns_and_a_finished_one_is_refused() -> None:
    table = playing()
    step = step_of(departure(PEOPLE[1]), table)
    assert step.events[0]["reason"] == "resign" and step.events[0]["seat"] == 1
    assert refusal(departure(PEOPLE[1]), written(table, step)) == "game_over"


def test_a_waiting_table_lapses_and_a_started_one_does_not() -> None:
    assert lapse(waiting(taken=3)) is REMOVE
    assert lapse(playing()) is None


# -- a rematch ------------------------------------------------------------------------------

def test_rematch_offers_gather_until_every_person_has_offered() -> None:
    table = playing(bots=(3,))
    assert refusal(rematch_offer(PEOPLE[0].id, "new"), table) == "bad_request"
    over = applied(table, resignation(PEOPLE[1].id))
    first = step_of(rematch_offer(PEOPLE[1].id, "new"), over)
    assert first.table.rematch == Rematch((1,), None) and not first.listed
    assert first.events == [{"type": "rematch", "round": 0, "seat": 1, "offers": [1],
                              "new_table_id": None}]
    offered = written(over, first)
    assert rematch_offer(PEOPLE[1].id, "new")(offered) is None  # said already
    second = applied(offered, rematch_offer(PEOPLE[0].id, "new"))
    # The bot in seat 3 always plays again: the third person's offer starts the new table.
    last = step_of(rematch_offer(PEOPLE[2].id, "new"), second)
    assert last.table.rematch == Rematch((0, 1, 2), "new")
    assert rematch_offer(PEOPLE[0].id, "other")(written(second, last)) is None
    assert refusal(rematch_offer(99, "new"), offered) == "not_seated"


def test_every_command_is_refused_at_a_table_it_does_not_concern() -> None:
    """A stranger gets `not_seated` from every seated command, and nothing changes."""
    table = playing()
    for command in (resignation(99), departure(replace(PEOPLE[0], id=99)),
                    rematch_offer(99, "x"), moves.move(99, "1-1", None, table.version, now=NOW)):
        assert refusal(command, table) == "not_seated"
