"""The one place that makes a finished game durable and pays its ratings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    DEVIATION_START,
    SKILL_START,
    VOLATILITY_START,
    Game,
    GamePlayer,
    Rating,
    utcnow,
)
from app.db.session import Database, by_dialect
from app.domain import skill
from app.engine import Result
from app.services.durable.recovery import forget_snapshot


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _check(record: dict[str, Any], player_ids: Sequence[int | None]) -> Result:
    """The record's result, once it has the shape of the engine's `Result` for these seats."""
    result = record.get("result")
    if not isinstance(result, dict):
        raise ValueError("the record has no result: only finished games are written")
    seats = len(player_ids)
    for key in ("final", "rating"):
        if len(result.get(key) or []) != seats:
            raise ValueError(f"result.{key} must have one entry per seat ({seats})")
    if len(record.get("players") or []) != seats:
        raise ValueError(f"record.players must have one name per seat ({seats})")
    return cast(Result, result)


# Core statements, not ORM units of work: a busy server writes a game every few moves, and
# the ORM's bookkeeping (identity map, flush order, per-object state) was most of the cost.
_games = cast(Table, Game.__table__)
_players = cast(Table, GamePlayer.__table__)
_ratings = cast(Table, Rating.__table__)

# Each statement is built once and run with its parameters: building one per game (and
# for some, compiling it) cost more of a result's CPU than the database's round trips.
_INSERT_GAME = _games.insert()
_INSERT_SEATS = _players.insert()

# The players' rating rows in a variant, locked for the transaction in player id order.
_LOCK_RATINGS = (
    select(_ratings.c.player_id, _ratings.c.skill, _ratings.c.deviation, _ratings.c.volatility)
    .where(_ratings.c.variant == bindparam("b_variant"),
           _ratings.c.player_id.in_(bindparam("b_ids", expanding=True)))
    .order_by(_ratings.c.player_id)
    .with_for_update()
)

# One rating row paid for one game (executemany); the row is locked by `_lock_ratings`.
_PAY = (
    update(_ratings)
    .where(_ratings.c.player_id == bindparam("b_player"),
           _ratings.c.variant == bindparam("b_variant"))
    .values(
        points=_ratings.c.points + bindparam("b_gain"),
        games=_ratings.c.games + 1,
        wins=_ratings.c.wins + bindparam("b_won"),
        losses=_ratings.c.losses + bindparam("b_lost"),
        skill=bindparam("b_skill"),
        deviation=bindparam("b_deviation"),
        volatility=bindparam("b_volatility"),
        updated_at=bindparam("b_at"),
    )
)


# A player's first rating row in a variant (one that exists is left alone). Run as an
# executemany, not as one INSERT of several VALUES rows: SQLAlchemy caches no such INSERT
# with ON CONFLICT, and would compile it for every game.
_NEW_RATING = by_dialect(lambda insert: insert(_ratings).on_conflict_do_nothing())


async def _lock_ratings(
    session: AsyncSession, variant: str, player_ids: Iterable[int]
) -> dict[int, skill.Skill]:
    """The players' skills in `variant`, their rating rows created if missing and locked
    for this transaction (in player id order, so two games sharing players cannot
    deadlock)."""
    ids = sorted(set(player_ids))
    now = utcnow()
    fresh = [
        {
            "player_id": pid,
            "variant": variant,
            "points": 0,
            "games": 0,
            "wins": 0,
            "losses": 0,
            "skill": SKILL_START,
            "deviation": DEVIATION_START,
            "volatility": VOLATILITY_START,
            "updated_at": now,
        }
        for pid in ids
    ]
    await session.execute(_NEW_RATING[session.get_bind().dialect.name], fresh)
    rows = await session.execute(_LOCK_RATINGS, {"b_variant": variant, "b_ids": ids})
    return {pid: skill.Skill(rating, deviation, volatility)
            for pid, rating, deviation, volatility in rows}


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as it is written: its record (with the result), whether it is rated,
    and the player id of each seat (None: a bot's seat, never paid nor rated)."""

    game_id: str
    table_id: str
    record: dict[str, Any]
    rated: bool
    player_ids: Sequence[int | None]
    started_at: datetime | None
    finished_at: datetime


async def _write(session: AsyncSession, finished: FinishedGame, result: Result) -> None:
    game_id, record, rated = finished.game_id, finished.record, finished.rated
    player_ids, started_at = finished.player_ids, finished.started_at
    variant = str(record["variant"])
    # The game row goes first: a concurrent writer of the same game blocks on its primary
    # key right here and then fails, before it has touched a single rating.
    await session.execute(_INSERT_GAME, {
        "id": game_id,
        "table_id": finished.table_id,
        "variant": variant,
        "options": record.get("options") or {},
        "players": list(record["players"]),
        "record": record,
        "seed": record.get("seed"),
        "end_reason": str(result.get("reason", "")),
        "started_at": _aware(started_at) if started_at else None,
        "finished_at": _aware(finished.finished_at),
        "rated": rated,
    })

    winners = set(result.get("winners") or [])
    losers = set(result.get("losers") or [])
    # People only: a bot's seat (None) is never paid, never rated and has no row here. A
    # rated table with bots pays its people what the result says; their skill is updated
    # from the outcomes among the people at the table.
    seated = [(seat, pid) for seat, pid in enumerate(player_ids) if pid is not None]
    won = {seat: seat in winners for seat, _ in seated}
    # A draw (Sport Goat, General: RULES §11, §12) names nobody a winner or a loser.
    outcome = {
        seat: "won" if seat in winners else "lost" if seat in losers else "draw"
        for seat, _ in seated
    }
    gains = {seat: int(result["rating"][seat]) if rated else 0 for seat, _ in seated}
    skills_after: dict[int, float | None] = {seat: None for seat, _ in seated}
    if rated and seated:
        ratings = await _lock_ratings(session, variant, [pid for _, pid in seated])
        before = [ratings[pid] for _, pid in seated]
        after = skill.update_game(before, [won[seat] for seat, _ in seated])
        now = utcnow()
        await session.execute(_PAY, [
            {
                "b_player": pid,
                "b_variant": variant,
                "b_gain": gains[seat],
                "b_won": int(won[seat]),
                "b_lost": int(outcome[seat] == "lost"),
                "b_skill": new.rating,
                "b_deviation": new.deviation,
                "b_volatility": new.volatility,
                "b_at": now,
            }
            for (seat, pid), new in zip(seated, after, strict=True)
        ])
        skills_after = {seat: new.rating for (seat, _), new in zip(seated, after, strict=True)}
    if seated:
        await session.execute(_INSERT_SEATS, [
            {
                "game_id": game_id,
                "seat": seat,
                "player_id": pid,
                "final": int(result["final"][seat]),
                "points": gains[seat],
                "outcome": outcome[seat],
                "skill_after": skills_after[seat],
            }
            for seat, pid in seated
        ])


async def write_result(db: Database, finished: FinishedGame) -> bool:
    """Store a finished game and pay its ratings in one transaction.

    Idempotent on `game_id`: returns True if this call wrote the game, False if it was
    already written (then nothing changes, also when two calls race). Only rated games
    change ratings; `record["result"]["rating"]` are the gains by seat. A seat whose
    player id is None is a bot's: nothing is written or paid for it.
    """
    result = _check(finished.record, finished.player_ids)
    try:
        async with db.writing() as session:
            await _write(session, finished, result)
            await forget_snapshot(session, finished.table_id, finished.game_id)
    except IntegrityError:
        # Everything was rolled back. A duplicate game is the expected case; anything else
        # (an unknown player id, say) is a bug the caller must see.
        if finished.game_id in await written_game_ids(db, [finished.game_id]):
            return False
        raise
    return True


async def written_game_ids(db: Database, game_ids: Iterable[str]) -> set[str]:
    """Which of these games are already stored (for restart recovery of unwritten results)."""
    ids = list(set(game_ids))
    if not ids:
        return set()
    async with db.session() as session:
        rows = await session.scalars(select(Game.id).where(Game.id.in_(ids)))
        return set(rows)
