"""The results writer: one transaction, exact payments (RULES 1.9), paid once per game."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError

from app.db.models import Game, GamePlayer, Rating
from app.db.session import Database
from app.services.accounts.credentials import register
from app.services.durable.results import FinishedGame, write_result, written_game_ids
from tests.persistence import classic_record, goat_record, moment, new_game_id, timeout_record

NAMES = ["masha", "alex", "olya", "serg"]


async def _players(db: Database, names: list[str] = NAMES) -> list[int]:
    ids = []
    for name in names:
        async with db.session() as session:
            ids.append((await register(session, name, "password123")).id)
    return ids


async def _write(db: Database, ids: list[int], record: dict[str, Any], **kw: Any) -> bool:
    return await write_result(db, FinishedGame(
        game_id=kw.pop("game_id", None) or new_game_id(),
        table_id=kw.pop("table_id", "t1"),
        record=record,
        rated=kw.pop("rated", True),
        player_ids=ids,
        started_at=kw.pop("started_at", moment(0)),
        finished_at=kw.pop("finished_at", moment(30)),
    ))


async def _points(db: Database, ids: list[int], variant: str = "goat") -> list[int]:
    async with db.session() as session:
        rows = {
            r.player_id: r
            for r in await session.scalars(select(Rating).where(Rating.variant == variant))
        }
    return [rows[pid].points if pid in rows else 0 for pid in ids]


async def _count(db: Database, model: type) -> int:
    async with db.session() as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_goat_game_pays_by_rule_1_9(db: Database):
    ids = await _players(db)
    record = goat_record(NAMES, [25, 15, 35, 110], goats=[3])
    assert record["result"]["rating"] == [8, 9, 7, 0]

    assert await _write(db, ids, record, game_id="game-1") is True

    assert await _points(db, ids) == [8, 9, 7, 0]
    async with db.session() as session:
        ratings = {r.player_id: r for r in await session.scalars(select(Rating))}
        seats = list(await session.scalars(select(GamePlayer).order_by(GamePlayer.seat)))
        game = await session.get(Game, "game-1")
    assert [ratings[p].games for p in ids] == [1, 1, 1, 1]
    assert [ratings[p].wins for p in ids] == [1, 1, 1, 0]
    assert [ratings[p].losses for p in ids] == [0, 0, 0, 1]
    # Glicko-2: the three who beat the goat went up, the goat went down.
    assert all(ratings[p].skill > 1500 for p in ids[:3])
    assert ratings[ids[3]].skill < 1500
    assert all(ratings[p].deviation < 350 for p in ids)
    # Each seat's row keeps the skill the game left its player with.
    assert [s.skill_after for s in seats] == [ratings[p].skill for p in ids]
    assert [(s.seat, s.player_id, s.final, s.points, s.outcome) for s in seats] == [
        (0, ids[0], 25, 8, "won"),
        (1, ids[1], 15, 9, "won"),
        (2, ids[2], 35, 7, "won"),
        (3, ids[3], 110, 0, "lost"),
    ]
    assert game is not None
    assert game.record == record
    assert (game.variant, game.table_id, game.end_reason, game.rated) == (
        "goat",
        "t1",
        "goat",
        True,
    )
    assert game.seed == record["seed"]
    assert game.players == NAMES
    assert game.options == {"fish_rule": "all", "teams": False}


async def test_timeout_pays_by_the_timeout_rule(db: Database):
    ids = await _players(db, NAMES[:3])
    # T = 32 (seat 2 timed out): S = 30 -> 0.2 -> +1, S = 13 -> 1.9 -> +2, the sleeper 0.
    record = timeout_record(NAMES[:3], [30, 13, 32], timed_out=2)
    assert record["result"]["rating"] == [1, 2, 0]

    assert await _write(db, ids, record) is True

    assert await _points(db, ids) == [1, 2, 0]
    async with db.session() as session:
        outcomes = list(await session.scalars(select(GamePlayer.outcome).order_by(GamePlayer.seat)))
    assert outcomes == ["won", "won", "lost"]


async def test_written_twice_pays_once(db: Database):
    ids = await _players(db)
    record = goat_record(NAMES, [25, 15, 35, 110], goats=[3])

    assert await _write(db, ids, record, game_id="same") is True
    assert await _write(db, ids, record, game_id="same") is False

    assert await _points(db, ids) == [8, 9, 7, 0]
    assert await _count(db, Game) == 1
    assert await _count(db, GamePlayer) == 4
    assert await written_game_ids(db, ["same", "other"]) == {"same"}


async def test_written_twice_concurrently_pays_once(db: Database):
    ids = await _players(db)
    record = goat_record(NAMES, [25, 15, 35, 110], goats=[3])
    # Two independent database handles: two connections, two transactions in flight.
    other = Database(db.url)
    try:
        outcomes = await asyncio.gather(
            _write(db, ids, record, game_id="race"),
            _write(other, ids, record, game_id="race"),
        )
    finally:
        await other.dispose()

    assert sorted(outcomes) == [False, True]
    assert await _points(db, ids) == [8, 9, 7, 0]
    async with db.session() as session:
        games = await session.scalar(select(func.sum(Rating.games)))
    assert games == 4


async def test_concurrent_games_of_the_same_players_both_pay(db: Database):
    ids = await _players(db)
    other = Database(db.url)
    try:
        written = await asyncio.gather(
            _write(db, ids, goat_record(NAMES, [25, 15, 35, 110], goats=[3])),
            _write(other, ids, goat_record(NAMES, [110, 0, 50, 60], goats=[0])),
        )
    finally:
        await other.dispose()

    assert written == [True, True]
    # No lost update: 8+0, 9+10, 7+5, 0+4.
    assert await _points(db, ids) == [8, 19, 12, 4]


async def test_unrated_game_is_stored_but_pays_nothing(db: Database):
    ids = await _players(db)
    record = goat_record(NAMES, [25, 15, 35, 110], goats=[3])

    assert await _write(db, ids, record, game_id="friendly", rated=False) is True

    assert await _count(db, Rating) == 0
    async with db.session() as session:
        game = await session.get(Game, "friendly")
        paid = list(await session.scalars(select(GamePlayer.points)))
    assert game is not None
    assert game.rated is False
    assert game.record == record
    assert paid == [0, 0, 0, 0]


async def test_ratings_are_per_variant(db: Database):
    ids = await _players(db, NAMES[:2])
    await _write(db, ids, goat_record(NAMES[:2], [101, 40], goats=[0]))
    await _write(db, ids, classic_record(NAMES[:2], [40, 100]))

    assert await _points(db, ids, "goat") == [0, 6]
    # Classic (RULES 9): the winner +10; S = 100 * (100 - 40) / 100 = 60 -> +4.
    assert await _points(db, ids, "classic") == [4, 10]


async def test_unknown_player_is_an_error_not_a_duplicate(db: Database):
    ids = await _players(db, NAMES[:2])
    with pytest.raises(IntegrityError):
        await _write(db, [ids[0], 999_999], goat_record(NAMES[:2], [101, 40], goats=[0]))
    assert await _count(db, Game) == 0
    assert await _count(db, Rating) == 0


async def test_unfinished_record_is_refused(db: Database):
    ids = await _players(db, NAMES[:2])
    record = goat_record(NAMES[:2], [101, 40], goats=[0])
    record["result"] = None
    with pytest.raises(ValueError, match="no result"):
        await _write(db, ids, record)
    assert await _count(db, Game) == 0


async def test_bots_seats_are_never_paid_nor_rated(db: Database):
    """A rated game with bots (their seats have no player id) pays only its people, by the
    result's own gains; the bots get no rating row and no seat row."""
    ids = await _players(db, ["masha", "olya"])
    record = goat_record(["masha", "Bot 2 (strong)", "olya", "Bot 4 (random)"],
                         [25, 15, 35, 110], goats=[3])
    seats: list[int | None] = [ids[0], None, ids[1], None]
    assert await write_result(db, FinishedGame(
        game_id="with-bots", table_id="t1", record=record, rated=True, player_ids=seats,
        started_at=moment(0), finished_at=moment(30),
    )) is True
    assert await _points(db, ids) == [8, 7]
    async with db.session() as session:
        rows = list(await session.scalars(select(GamePlayer).order_by(GamePlayer.seat)))
        ratings = list(await session.scalars(select(Rating)))
    assert [(r.seat, r.player_id, r.points) for r in rows] == [(0, ids[0], 8), (2, ids[1], 7)]
    assert sorted(r.player_id for r in ratings) == sorted(ids)
    # two winners among the people: a draw between them, so their skills stay level
    assert ratings[0].skill == pytest.approx(ratings[1].skill)


async def test_a_drawn_game_is_a_draw_for_everyone(db: Database):
    """RULES §11: "equal totals are a draw ... a draw pays every player +5": stored as
    the outcome "draw" (neither a win nor a loss), +5 each."""
    from tests.engine.family import play_game

    for seed in range(2000):
        game, _ = play_game("sport_goat", 4, {"rounds": 4}, seed)
        if game.result["final"][0] == game.result["final"][1]:
            break
    record = game.record(NAMES)
    assert record["result"]["winners"] == record["result"]["losers"] == []
    ids = await _players(db)
    assert await _write(db, ids, record, game_id="drawn") is True
    assert await _points(db, ids, "sport_goat") == [5, 5, 5, 5]
    async with db.session() as session:
        ratings = {r.player_id: r for r in await session.scalars(select(Rating))}
        seats = list(await session.scalars(select(GamePlayer).order_by(GamePlayer.seat)))
    assert [s.outcome for s in seats] == ["draw"] * 4
    assert [(ratings[p].games, ratings[p].wins, ratings[p].losses) for p in ids] == [(1, 0, 0)] * 4


async def test_a_result_runs_only_statements_compiled_before(db: Database):
    """A busy server writes a game every few moves: after the first game, writing one must
    compile nothing (a statement SQLAlchemy cannot cache is compiled for every game)."""
    ids = await _players(db)
    record = goat_record(NAMES, [25, 15, 35, 110], goats=[3])
    await _write(db, ids, record)  # the first game compiles what it needs
    misses: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
             executemany: bool) -> None:
        # (SQL strings sent as they are, like SQLite's BEGIN, are never compiled)
        if context.compiled is not None and context.cache_hit is not context.dialect.CACHE_HIT:
            misses.append(statement.split("(")[0])

    engine = db.engine.sync_engine
    event.listen(engine, "after_cursor_execute", seen)
    try:
        assert await _write(db, ids, record)
    finally:
        event.remove(engine, "after_cursor_execute", seen)
    assert misses == []


async def test_rated_games_of_the_same_two_accounts_beyond_the_daily_number_pay_nothing(
    db: Database,
):
    """PROTOCOL §2g: `daily_pair_games` (10) rated games together in 24 hours pay; the
    next one is written unrated (`unrated_reason: "pair_limit"`), and a day later they
    pay again. The farm of the audit: two accounts playing each other over and over."""
    ids = await _players(db)
    record = goat_record(NAMES, [25, 15, 35, 110], goats=[3])
    gains = record["result"]["rating"]
    for n in range(10):
        assert await _write(db, ids, record, finished_at=moment(30 + n))
    assert await _points(db, ids) == [10 * g for g in gains]
    assert await _write(db, ids, record, game_id="one-too-many", finished_at=moment(60))
    assert await _points(db, ids) == [10 * g for g in gains]
    async with db.session() as session:
        row = await session.get(Game, "one-too-many")
        assert row is not None and row.rated is False
        assert row.record["result"]["unrated_reason"] == "pair_limit"
        paid = await session.scalars(select(GamePlayer.points)
                                     .where(GamePlayer.game_id == "one-too-many"))
        assert list(paid) == [0, 0, 0, 0]
    # 25 hours on, the ten of the day before are more than a day old
    assert await _write(db, ids, record, finished_at=moment(60 + 25 * 60))
    assert await _points(db, ids) == [11 * g for g in gains]
