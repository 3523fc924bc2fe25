"""The players' ratings by variant: leaderboard points, games, wins and losses, and the
Glicko-2 skill (with its deviation and volatility)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    DEVIATION_START,
    SKILL_START,
    VOLATILITY_START,
    Game,
    GamePlayer,
    Player,
    Rating,
    utcnow,
)
from app.db.session import by_dialect
from app.domain.skill import Skill

Sort = Literal["points", "skill"]


@dataclass(frozen=True, slots=True)
class Payment:
    """What one finished rated game pays one player in its variant."""

    player_id: int
    gain: int
    won: bool
    lost: bool
    skill: Skill


@dataclass(frozen=True, slots=True)
class Ranked:
    """A leaderboard entry: the rank is counted over the whole board (ties share one)."""

    rank: int
    name: str
    points: int
    games: int
    wins: int
    losses: int
    skill: float
    deviation: float


@dataclass(frozen=True, slots=True)
class Step:
    """A player's rating after one rated game: what it gained, the points it made in all
    (in its variant) and his skill after it."""

    game_id: str
    variant: str
    finished_at: datetime
    gained: int
    points_after: int
    skill_after: float | None


_ratings = cast(Table, Rating.__table__)

# The players' rating rows in a variant, locked for the transaction in player id order.
_LOCK = (
    select(_ratings.c.player_id, _ratings.c.skill, _ratings.c.deviation, _ratings.c.volatility)
    .where(_ratings.c.variant == bindparam("b_variant"),
           _ratings.c.player_id.in_(bindparam("b_ids", expanding=True)))
    .order_by(_ratings.c.player_id)
    .with_for_update()
)

# One rating row paid for one game (executemany); the row is locked by `lock`.
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
_NEW = by_dialect(lambda insert: insert(_ratings).on_conflict_do_nothing())


async def lock(session: AsyncSession, variant: str, player_ids: Iterable[int]
               ) -> dict[int, Skill]:
    """The players' skills in `variant`, their rating rows created if missing and locked
    for this transaction (in player id order, so two games sharing players cannot
    deadlock)."""
    ids = sorted(set(player_ids))
    now = utcnow()
    fresh = [
        {
            "player_id": pid, "variant": variant, "points": 0, "games": 0, "wins": 0,
            "losses": 0, "skill": SKILL_START, "deviation": DEVIATION_START,
            "volatility": VOLATILITY_START, "updated_at": now,
        }
        for pid in ids
    ]
    await session.execute(_NEW[session.get_bind().dialect.name], fresh)
    rows = await session.execute(_LOCK, {"b_variant": variant, "b_ids": ids})
    return {pid: Skill(rating, deviation, volatility)
            for pid, rating, deviation, volatility in rows}


async def pay(session: AsyncSession, variant: str, payments: Sequence[Payment]) -> None:
    """Pay one game to rating rows `lock` locked."""
    now = utcnow()
    await session.execute(_PAY, [
        {
            "b_player": paid.player_id, "b_variant": variant, "b_gain": paid.gain,
            "b_won": int(paid.won), "b_lost": int(paid.lost), "b_skill": paid.skill.rating,
            "b_deviation": paid.skill.deviation, "b_volatility": paid.skill.volatility,
            "b_at": now,
        }
        for paid in payments
    ])


async def skill(session: AsyncSession, player_id: int, variant: str) -> float:
    """The player's skill at `variant` (the starting skill if he has played none)."""
    found = await session.scalar(select(Rating.skill).where(
        Rating.player_id == player_id, Rating.variant == variant))
    return SKILL_START if found is None else float(found)


async def of_player(session: AsyncSession, player_id: int) -> list[Rating]:
    """The player's rating rows, by variant name."""
    return list(await session.scalars(
        select(Rating).where(Rating.player_id == player_id).order_by(Rating.variant)))


async def board(session: AsyncSession, variant: str, sort: Sort, limit: int, offset: int
                ) -> tuple[int, list[Ranked]]:
    """How many players have a rated game in `variant`, and a page of them, best first
    (standard competition ranking, "1224", over the whole board)."""
    key = Rating.points if sort == "points" else Rating.skill
    ranked = (
        select(
            Player.name,
            Rating,
            func.rank().over(order_by=key.desc()).label("rank"),
        )
        .join(Player, Player.id == Rating.player_id)
        .where(Rating.variant == variant, Rating.games > 0)
        .subquery()
    )
    total = await session.scalar(
        select(func.count()).where(Rating.variant == variant, Rating.games > 0)
    )
    rows = await session.execute(
        select(ranked).order_by(ranked.c.rank, ranked.c.name).limit(limit).offset(offset)
    )
    return total or 0, [
        Ranked(row.rank, row.name, row.points, row.games, row.wins, row.losses, row.skill,
               row.deviation)
        for row in rows
    ]


async def history(session: AsyncSession, player_id: int, limit: int) -> list[Step]:
    """The player's points (and skill) after each of his last `limit` rated games, the
    newest first, per variant. Derived from the seats of rated games, so it always agrees
    with the ratings table."""
    points_after = (
        func.sum(GamePlayer.points)
        .over(
            partition_by=Game.variant,
            order_by=(Game.finished_at, Game.id),
        )
        .label("points_after")
    )
    steps = (
        select(
            Game.id.label("game_id"),
            Game.variant,
            Game.finished_at,
            GamePlayer.points,
            GamePlayer.skill_after,
            points_after,
        )
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.player_id == player_id, Game.rated.is_(True))
        .subquery()
    )
    rows = await session.execute(
        select(steps)
        .order_by(steps.c.finished_at.desc(), steps.c.game_id.desc())
        .limit(limit)
    )
    return [Step(row.game_id, row.variant, row.finished_at, row.points,
                 int(row.points_after), row.skill_after)
            for row in rows]
