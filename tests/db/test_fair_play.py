"""Ratings are earned among people: a game with a computer player pays nobody, and says why.

Played through the services on a real Redis and written to each database backend: a rated
table that has a computer player seated (as tables stored before this rule have, and a
rematch of one), and a rated game whose player on turn times out at a table where a computer
player takes over (as a table stored under earlier rules may allow).
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from app.db.session import Database
from app.live.store import LiveStore, connect
from app.services.accounts.credentials import PlayerRef, register
from app.services.durable.finish import Finisher
from app.services.durable.standings import game_record, leaderboard, player_page
from app.services.play import moves
from app.services.play.bot_turns import add_bot
from app.services.tables import lobby
from app.services.tables.bot_seats import bot_entry
from app.services.tables.lobby import Terms
from app.services.tables.table import Step
from app.services.tables.transact import Change, ServiceError, build_view, game_of, loaded, transact


@pytest.fixture
async def store(redis_url: str, redis_prefix: str) -> AsyncIterator[LiveStore]:
    live = LiveStore(connect(redis_url), f"{redis_prefix}_fair_{secrets.token_hex(3)}")
    yield live
    await live.close()


async def _people(db: Database, count: int) -> list[PlayerRef]:
    async with db.session() as session:
        return [await register(session, f"f{secrets.token_hex(4)}", "password123")
                for _ in range(count)]


async def _play_out(store: LiveStore, table_id: str, seed: int) -> Change:
    """Every seat, person or computer, plays random legal moves until the game ends."""
    rng = random.Random(seed)
    while True:
        current = await loaded(store, table_id)
        game = game_of(current)
        assert game is not None and game.turn is not None
        who = current.seats[game.turn]
        assert who is not None
        move = rng.choice(build_view(current, game, game.turn, set())["legal"])
        change = await moves.play(store, who.id, table_id, move["tile"], move["end"],
                                 current.version, fields=move)
        if change.finished:
            return change


async def _nobody_paid(db: Database, person: PlayerRef, game_id: str, reason: str) -> None:
    async with db.session() as session:
        board = await leaderboard(session, "goat", "points", 50, 0)
        assert board["total"] == 0 and board["entries"] == []
        page = await player_page(session, person.name)
        assert page is not None
        assert page["ratings"] == {} or all(r["games"] == 0 for r in page["ratings"].values())
        assert [(g["game_id"], g["rated"], g["rating"]) for g in page["recent_games"]] == [
            (game_id, False, 0)]
        assert page["history"] == []
        record = await game_record(session, game_id)
    assert record is not None and record["result"]["unrated_reason"] == reason


async def test_a_rated_table_takes_no_computer_player(db: Database, store: LiveStore) -> None:
    owner, = await _people(db, 1)
    rated = await lobby.create_table(store, owner, Terms("goat", seats=4, turn_seconds=60,
                                                         rated=True))
    with pytest.raises(ServiceError) as refused:
        await add_bot(store, owner.id, rated["id"], "random", None)
    assert refused.value.code == "bad_request" and refused.value.status == 409
    assert "people" in refused.value.message
    after = await lobby.get_table(store, rated["id"])
    assert after["rated"] is True and [s["player"] for s in after["seats"]][1:] == [None] * 3
    casual = await lobby.create_table(store, owner, Terms("goat", seats=2, turn_seconds=60,
                                                          rated=False))
    seat, _change = await add_bot(store, owner.id, casual["id"], "random", None)
    assert seat == 1


async def test_a_computer_player_seated_at_a_rated_table_makes_its_games_pay_nobody(
    db: Database, store: LiveStore
) -> None:
    """The audit's farm: one account alone with computers at a rated table, game after game
    (a rematch starts at once: computers always accept)."""
    owner, = await _people(db, 1)
    table = await lobby.create_table(store, owner, Terms("goat", seats=2, turn_seconds=60,
                                                         rated=True))
    # Seated as a table stored before this rule holds it.
    await lobby.take_seat(store, table["id"], lambda s: bot_entry("random", s), None,
                          check=lambda _table: None)
    change = await _play_out(store, table["id"], seed=3)
    view = build_view(change.table, game_of(change.table), 0, set())
    assert view["result"]["unrated_reason"] == "bot_seated"
    finisher = Finisher(store, db)
    assert await finisher.write(table["id"])
    assert change.table.game_id is not None
    await _nobody_paid(db, owner, change.table.game_id, "bot_seated")
    # The rematch is a casual table: the farm stops there.
    offer = await lobby.rematch(store, owner, table["id"])
    assert offer["started"] and offer["new_table_id"]
    again = await lobby.get_table(store, offer["new_table_id"])
    assert again["rated"] is False and again["status"] == "playing"


async def test_a_computer_player_taking_over_unrates_the_rest_of_the_game(
    db: Database, store: LiveStore
) -> None:
    first, second = await _people(db, 2)
    table = await lobby.create_table(store, first, Terms("goat", seats=2, turn_seconds=2,
                                                         rated=False, on_timeout="computer",
                                                         reserve_seconds=0))
    await lobby.join(store, second, table["id"])
    # Rated, with a computer player to take over a seat: as a table stored under earlier
    # rules may be (a rated table cannot be made so now).
    assert (await loaded(store, table["id"])).status == "playing"
    made_rated = await transact(store, table["id"], lambda now: Step(replace(now, rated=True), []))
    assert made_rated is not None and made_rated.table.rated
    await asyncio.sleep(2.2)
    taken = await moves.expire(store, table["id"])
    assert taken is not None
    event = taken.table.log[-1].events[0]
    assert event["type"] == "bot_takeover" and event["unrated"] == "bot_takeover"
    assert taken.table.rated is False and taken.table.unrated_reason == "bot_takeover"
    # The reason is stored with the table: every process reads it back.
    assert (await loaded(store, table["id"])).unrated_reason == "bot_takeover"
    assert (await lobby.get_table(store, table["id"]))["rated"] is False
    gone = event["seat"]
    stayed = (first, second)[1 - gone]
    change = await _play_out(store, table["id"], seed=5)
    view = build_view(change.table, game_of(change.table), 1 - gone, set())
    assert view["result"]["unrated_reason"] == "bot_takeover"
    assert await Finisher(store, db).write(table["id"])
    assert change.table.game_id is not None
    await _nobody_paid(db, stayed, change.table.game_id, "bot_takeover")


async def _one_move(store: LiveStore, table_id: str) -> None:
    """The player on turn makes a legal move."""
    current = await loaded(store, table_id)
    game = game_of(current)
    assert game is not None and game.turn is not None
    who = current.seats[game.turn]
    assert who is not None
    move = build_view(current, game, game.turn, set())["legal"][0]
    await moves.play(store, who.id, table_id, move["tile"], move["end"], current.version,
                     fields=move)


async def test_a_game_resigned_before_every_seat_has_moved_is_aborted_and_pays_nothing(
    db: Database, store: LiveStore
) -> None:
    """RULES 1.10: the resign-before-a-move farm. One seat leads, the other resigns before
    his first move: rated or not, the game pays no rating and says it was aborted."""
    first, second = await _people(db, 2)
    table = await lobby.create_table(store, first, Terms("goat", seats=2, rated=True))
    await lobby.join(store, second, table["id"])
    await _one_move(store, table["id"])
    current = await loaded(store, table["id"])
    game = game_of(current)
    assert game is not None and game.turn is not None and current.moved is not None
    assert len(current.moved) == 1  # only the leader has moved
    on_turn = current.seats[game.turn]
    assert on_turn is not None
    change = await moves.resign(store, on_turn.id, table["id"])
    assert change.finished and change.table.unrated_reason == "aborted"
    view = build_view(change.table, game_of(change.table), 0, set())
    assert view["result"]["unrated_reason"] == "aborted"
    assert await Finisher(store, db).write(table["id"])
    assert change.table.game_id is not None
    stayed = first if on_turn.id == second.id else second
    await _nobody_paid(db, stayed, change.table.game_id, "aborted")


async def test_a_game_resigned_once_every_seat_has_moved_pays_as_ever(
    db: Database, store: LiveStore
) -> None:
    first, second = await _people(db, 2)
    table = await lobby.create_table(store, first, Terms("goat", seats=2, rated=True))
    await lobby.join(store, second, table["id"])
    for _ in range(2):
        await _one_move(store, table["id"])
    assert len((await loaded(store, table["id"])).moved or ()) == 2
    change = await moves.resign(store, first.id, table["id"])
    assert change.finished and change.table.unrated_reason is None
    assert await Finisher(store, db).write(table["id"])
    async with db.session() as session:
        board = await leaderboard(session, "goat", "points", 50, 0)
    assert board["total"] == 2  # both were paid: the timeout formula's +1 and 0
