"""The finished games' rows: each game's record, and its people's seats (what each was
paid). Written once, when the game ended (app.services.durable.results), read by the
game and player pages and by the tournaments."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import Game, GamePlayer


@dataclass(frozen=True, slots=True)
class GameRow:
    """A finished game as it is stored."""

    id: str
    table_id: str
    variant: str
    options: dict[str, Any]
    players: list[str]
    record: dict[str, Any]
    seed: str | None
    end_reason: str
    started_at: datetime | None
    finished_at: datetime
    rated: bool


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A person's seat in a finished game: his final score, the points he was paid, how
    it ended for him and his skill after it (rated games)."""

    game_id: str
    seat: int
    player_id: int
    final: int
    points: int
    outcome: str  # "won" | "lost" | "draw"
    skill_after: float | None


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One of a player's recent games, as his page lists it."""

    game_id: str
    variant: str
    finished_at: datetime
    seat: int
    final: int
    points: int
    outcome: str
    rated: bool
    end_reason: str


# Core statements, not ORM units of work: a busy server writes a game every few moves, and
# the ORM's bookkeeping (identity map, flush order, per-object state) was most of the cost.
# Each is built once and run with its parameters.
_INSERT_GAME = cast(Table, Game.__table__).insert()
_INSERT_SEATS = cast(Table, GamePlayer.__table__).insert()


async def insert(session: AsyncSession, game: GameRow) -> None:
    """Store the game's row (an `IntegrityError` when it is stored already: the caller's
    transaction is then to be rolled back)."""
    await session.execute(_INSERT_GAME, {
        "id": game.id, "table_id": game.table_id, "variant": game.variant,
        "options": game.options, "players": game.players, "record": game.record,
        "seed": game.seed, "end_reason": game.end_reason, "started_at": game.started_at,
        "finished_at": game.finished_at, "rated": game.rated,
    })


async def insert_seats(session: AsyncSession, seats: Sequence[SeatRow]) -> None:
    if not seats:
        return
    await session.execute(_INSERT_SEATS, [
        {"game_id": s.game_id, "seat": s.seat, "player_id": s.player_id, "final": s.final,
         "points": s.points, "outcome": s.outcome, "skill_after": s.skill_after}
        for s in seats
    ])


async def written_ids(session: AsyncSession, game_ids: Iterable[str]) -> set[str]:
    """Which of these games are stored."""
    ids = list(set(game_ids))
    if not ids:
        return set()
    return set(await session.scalars(select(Game.id).where(Game.id.in_(ids))))


async def record(session: AsyncSession, game_id: str) -> dict[str, Any] | None:
    return await session.scalar(select(Game.record).where(Game.id == game_id))


async def record_of_table(session: AsyncSession, table_id: str) -> dict[str, Any] | None:
    """The written record of the game played at `table_id` (a tournament's table plays one
    game), or None while none is written."""
    return await session.scalar(select(Game.record).where(Game.table_id == table_id))


async def ids_of_tables(session: AsyncSession, table_ids: Iterable[str]) -> dict[str, str]:
    """The written game of each of these tables (one game a table: tournament tables),
    by table id, in one query."""
    wanted = list(table_ids)
    if not wanted:
        return {}
    rows = await session.execute(select(Game.table_id, Game.id).where(Game.table_id.in_(wanted)))
    return {table_id: game_id for table_id, game_id in rows.all()}


async def people_seats(session: AsyncSession, game_id: str) -> set[int]:
    """The seats of the game that were people's (a bot's seat has no row)."""
    return set(await session.scalars(select(GamePlayer.seat).where(
        GamePlayer.game_id == game_id)))


async def recent_of(session: AsyncSession, player_id: int, limit: int) -> list[PlayedGame]:
    """The player's last `limit` games, the newest first."""
    rows = await session.execute(
        select(GamePlayer, Game.variant, Game.finished_at, Game.rated, Game.end_reason)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.player_id == player_id)
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(limit)
    )
    return [PlayedGame(gp.game_id, variant, finished_at, gp.seat, gp.final, gp.points,
                       gp.outcome, rated, end_reason)
            for gp, variant, finished_at, rated, end_reason in rows]


async def is_written(session: AsyncSession, game_id: str) -> bool:
    return await session.get(Game, game_id) is not None


async def most_rated_together(session: AsyncSession, player_ids: Sequence[int],
                              since: datetime) -> int:
    """The most rated games any two of `player_ids` played together since `since`."""
    if len(set(player_ids)) < 2:
        return 0
    a, b = aliased(GamePlayer), aliased(GamePlayer)
    counts = (
        select(func.count().label("n"))
        .select_from(a)
        .join(b, (b.game_id == a.game_id) & (b.player_id > a.player_id))
        .join(Game, Game.id == a.game_id)
        .where(a.player_id.in_(player_ids), b.player_id.in_(player_ids), Game.rated,
               Game.finished_at >= since)
        .group_by(a.player_id, b.player_id)
        .subquery()
    )
    return int(await session.scalar(select(func.coalesce(func.max(counts.c.n), 0))) or 0)
