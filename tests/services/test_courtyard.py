"""A courtyard table's changes (PROTOCOL §2d): the write that ends a game decides the next
four; the next game starts only once the ended game is written and its pause is over, and
once, however many processes try."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from app.config import settings
from app.live.hub import Hub
from app.live.store import LiveStore, connect
from app.services.fanout.notices import PlayerNotices
from app.services.play import moves
from app.services.tables import courtyard, lobby
from app.services.tables.bot_seats import wake_at
from app.services.tables.lobby import Deal, Terms, seating
from app.services.tables.next_game import next_game, start_next
from app.services.tables.queue_absence import absent
from app.services.tables.table import REMOVE, Person, Table
from app.services.tables.transact import ServiceError, load
from tests.services.tables import DEAL, NOW, PEOPLE, applied

YARD = Terms("goat", seats=4, options={"teams": True}, rated=False, on_timeout="end",
             reserve_seconds=0, round_pause_seconds=5, waiting_max=2)
E, F, G = Person(5, "p5"), Person(6, "p6"), Person(7, "p7")


def _four() -> Table:
    table = replace(lobby.new_table("t1", PEOPLE[0], YARD, (PEOPLE[0], None, None, None), NOW),
                    version=1)
    for seat in (1, 2, 3):
        table = applied(table, seating(lambda _s, s=seat: PEOPLE[s], seat, DEAL))
    assert table.status == "playing" and table.courtyard is not None
    return table


def test_the_write_that_ends_a_game_decides_the_next_four() -> None:
    table = _four()
    table = applied(table, courtyard.queue_in(E))
    table = applied(table, courtyard.queue_in(F))
    with pytest.raises(ServiceError) as full:
        courtyard.queue_in(G)(table)
    assert full.value.status == 409
    with pytest.raises(ServiceError) as blocked:
        courtyard.queue_in(Person(8, "p8"), apart={PEOPLE[2].id})(table)
    assert blocked.value.status == 403
    ended = applied(table, moves.resignation(PEOPLE[3].id), now=NOW + 1000)  # b+d lose
    yard = ended.courtyard
    assert ended.status == "finished" and yard is not None
    assert yard.next == (PEOPLE[0], E, PEOPLE[2], F) and yard.queue == (PEOPLE[1], PEOPLE[3])
    assert ended.next_round_at == ended.deadline == NOW + 1000 + 5000
    turned = [ev for ev in ended.log[-1].events if ev["type"] == "courtyard"]
    assert turned == [{"type": "courtyard", "round": 0, "leaving": ["p2", "p4"],
                       "coming": ["p5", "p6"], "next": ["p1", "p5", "p3", "p6"], "game": 2}]
    # the game that ended keeps its four until the next begins (its record is theirs)
    assert ended.seats == table.seats

    # Not before it is written, even once the pause is over ...
    later = NOW + 10_000
    deal = Deal(b"\x08" * 32, "game-2", later)
    assert next_game("game-1", later, deal)(ended) is None
    # ... and written, not before the pause is over: only marked written.
    marked = applied(ended, next_game("game-1", NOW + 2000, deal, written=True), now=NOW + 2000)
    assert marked.status == "finished" and marked.courtyard is not None
    assert marked.courtyard.written and marked.deadline == ended.deadline
    # Then the clock at the pause's end starts it, with the four decided, once.
    started = applied(marked, next_game("game-1", later, deal), now=later)
    assert started.status == "playing" and started.game_id == "game-2"
    assert started.seats == (PEOPLE[0], E, PEOPLE[2], F)
    assert started.courtyard is not None and started.courtyard.games == 2
    assert started.courtyard.next is None and started.reserve_ms is None
    assert next_game("game-1", later, deal)(started) is None


def test_a_place_given_up_between_games_goes_to_the_first_waiting() -> None:
    table = applied(_four(), courtyard.queue_in(E))
    table = applied(table, courtyard.queue_in(F))
    ended = applied(table, moves.resignation(PEOPLE[1].id))
    assert ended.courtyard is not None and ended.courtyard.queue == (PEOPLE[1], PEOPLE[3])
    # e, coming in, gives his place up: the first waiting (p2, who lost) takes it
    out = applied(ended, courtyard.queue_out(E))
    assert out.courtyard is not None
    assert out.courtyard.next == (PEOPLE[0], PEOPLE[1], PEOPLE[2], F)
    assert out.courtyard.queue == (PEOPLE[3],)
    with pytest.raises(ServiceError):
        courtyard.queue_out(E)(out)


def test_who_is_away_too_long_leaves_the_courtyard() -> None:
    table = applied(_four(), courtyard.queue_in(E))
    left = applied(table, absent(E.id))  # waiting: his place in the queue
    assert left.courtyard is not None and left.courtyard.queue == ()
    playing = applied(left, absent(PEOPLE[2].id))  # seated: he plays on, then goes
    assert playing.courtyard is not None and playing.courtyard.gone == (PEOPLE[2].id,)
    assert playing.seats == left.seats and not playing.holds(PEOPLE[2].id)
    assert absent(PEOPLE[2].id)(playing) is None
    ended = applied(playing, moves.resignation(PEOPLE[1].id))
    assert ended.courtyard is not None
    assert ended.courtyard.next == (PEOPLE[0], PEOPLE[1], None, PEOPLE[3])
    # nobody waits for his seat: the next game waits for players, and those away go
    waiting = applied(replace(ended, courtyard=replace(ended.courtyard, written=True)),
                      next_game("game-1", NOW + 60_000, DEAL), now=NOW + 60_000)
    assert waiting.status == "waiting" and waiting.free_seats() == [2]
    for who in PEOPLE[:3]:
        if who.id != PEOPLE[2].id:
            waiting = applied(waiting, absent(who.id))
    assert waiting.seats == (None, None, None, PEOPLE[3])
    assert absent(PEOPLE[3].id)(waiting) is REMOVE


def test_who_queues_while_a_seat_of_the_next_game_is_free_takes_it() -> None:
    ended = applied(_four(), lobby.departure(PEOPLE[1]))  # p2 leaves, nobody waits
    came = applied(ended, courtyard.queue_in(E))
    yard = came.courtyard
    assert yard is not None and yard.next == (PEOPLE[0], E, PEOPLE[2], PEOPLE[3])
    assert yard.queue == () and courtyard.coming_in(came) == [E]
    events = came.log[-1].events
    assert [ev["type"] for ev in events] == ["queue", "courtyard"]
    assert events[0]["type"] == "queue" and events[0]["position"] == 0
    assert events[1]["type"] == "courtyard" and events[1]["coming"] == [E.name]
    # and the next game starts with him, not waiting for a player
    started = applied(replace(came, courtyard=replace(yard, written=True)),
                      next_game("game-1", NOW + 60_000, DEAL), now=NOW + 60_000)
    assert started.status == "playing" and started.seats == yard.next


def test_a_courtyard_waiting_again_for_a_player_goes_when_a_new_table_would() -> None:
    ended = applied(_four(), lobby.departure(PEOPLE[1]))  # p2 leaves, nobody waits
    assert ended.courtyard is not None and ended.courtyard.next == (
        PEOPLE[0], None, PEOPLE[2], PEOPLE[3])
    at = NOW + 60_000
    waiting = applied(replace(ended, courtyard=replace(ended.courtyard, written=True)),
                      next_game("game-1", at, DEAL), now=at)
    until = at + int(settings.waiting_table_seconds * 1000)
    assert waiting.status == "waiting" and waiting.deadline == until
    assert wake_at(waiting, None, at) == until  # the clock looks at it then
    # a change while it waits (p3 gives his seat up) keeps its wait as it was
    fewer = applied(waiting, lobby.departure(PEOPLE[2]), now=at + 1000)
    assert fewer.deadline == until and wake_at(fewer, None, at + 1000) == until
    assert moves.timeout(until - 1, deal=DEAL)(fewer) is None
    assert moves.timeout(until, deal=DEAL)(fewer) is REMOVE
    # filled again, it plays, and its clock is the turn's
    full = applied(fewer, seating(lambda _s: E, 1, DEAL), now=at + 2000)
    full = applied(full, seating(lambda _s: F, 2, DEAL), now=at + 2000)
    assert full.status == "playing" and full.deadline != until
    assert moves.timeout(until, deal=DEAL)(full) is not REMOVE


@pytest.fixture
async def stores(redis_url: str, redis_prefix: str) -> AsyncIterator[list[LiveStore]]:
    prefix = f"{redis_prefix}_cy_{secrets.token_hex(3)}"
    made = [LiveStore(connect(redis_url), prefix) for _ in range(3)]
    yield made
    for store in made:
        await store.close()


async def test_the_next_game_starts_once_however_many_processes_try(
    stores: list[LiveStore],
) -> None:
    store = stores[0]
    made = await lobby.create_table(store, PEOPLE[0], replace(YARD, round_pause_seconds=0))
    table_id = str(made["id"])
    for seat in (1, 2, 3):
        await lobby.join(store, PEOPLE[seat], table_id, seat)
    for who in (E, F):
        await courtyard.join_queue(stores[1], who, table_id)
    ended = await moves.resign(store, PEOPLE[0].id, table_id)
    assert ended.finished
    game_1 = ended.table.game_id
    assert game_1 is not None
    # (as a game of several rounds leaves them: its finished rounds in the archive)
    await store.redis.rpush(store.keys.rounds(table_id), b'{"round": "of game 1"}')
    # every process's results writer has written it and tries the next game at once
    changes = await asyncio.gather(*(start_next(s, table_id, game_1, written=True)
                                     for s in stores for _ in range(2)))
    started = [c for c in changes if c is not None and c.table.status == "playing"]
    assert len(started) == 1
    table = await load(store, table_id)
    assert table is not None and table.courtyard is not None
    assert table.courtyard.games == 2 and table.game_id not in (None, game_1)
    assert table.seats == (E, PEOPLE[1], F, PEOPLE[3])  # a+c gave way; e and f opposite
    assert table.courtyard.queue == (PEOPLE[0], PEOPLE[2])
    # the round archive is the new game's alone: the last game's went with its start
    assert await store.archived_rounds(table_id) == []


async def test_who_takes_a_place_given_up_between_games_is_told_until_he_leaves_it(
    stores: list[LiveStore],
) -> None:
    store = stores[0]
    notices = PlayerNotices(store, Hub(store))
    made = await lobby.create_table(store, PEOPLE[0], replace(YARD, round_pause_seconds=60))
    table_id = str(made["id"])
    for seat in (1, 2, 3):
        await lobby.join(store, PEOPLE[seat], table_id, seat)
    for who in (E, F):
        await courtyard.join_queue(store, who, table_id)
    await moves.resign(store, PEOPLE[0].id, table_id)  # p1+p3 give way to e and f
    # e gives his place up: the first waiting (p1) takes it, and is told
    gave_up = await courtyard.leave_queue(stores[1], E, table_id)
    await courtyard.tell_rotated(notices, gave_up)
    told = {"type": "courtyard.seated", "table_id": table_id, "game": 2}
    assert await notices.pending(PEOPLE[0].id) == [told]
    assert await notices.pending(E.id) == []
    # p1 gives it up in turn: p3, waiting, takes it and is told; p1's notice is over, and
    # f, who comes in too, is not told again
    await notices.seen(F.id, table_id)
    await courtyard.tell_rotated(notices, await courtyard.leave_queue(store, PEOPLE[0],
                                                                      table_id))
    assert await notices.pending(PEOPLE[2].id) == [told]
    assert await notices.pending(PEOPLE[0].id) == []
    assert await notices.pending(F.id) == []
