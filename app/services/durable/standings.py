"""Read side of the durable data: leaderboards, player pages and stored game records."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, GamePlayer, Player, Rating
from app.db.text import storable
from app.services.accounts.credentials import name_key, ratings_of
from app.services.tables.bot_seats import bot_strength

Sort = Literal["points", "skill"]
RECENT_GAMES = 20
HISTORY_LENGTH = 200


def epoch_ms(moment: datetime) -> int:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return int(aware.timestamp() * 1000)


async def leaderboard(
    session: AsyncSession, variant: str, sort: Sort, limit: int, offset: int
) -> dict[str, Any]:
    """Players with at least one rated game in `variant`, best first.

    Ties share a rank (standard competition ranking, "1224"), counted over the whole
    board, so a page further down still shows the true rank.
    """
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
    entries = [
        {
            "rank": row.rank,
            "player": row.name,
            "points": row.points,
            "games": row.games,
            "wins": row.wins,
            "losses": row.losses,
            "skill": round(row.skill, 1),
            "deviation": round(row.deviation, 1),
        }
        for row in rows
    ]
    return {"variant": variant, "sort": sort, "total": total or 0, "entries": entries}


async def player_page(session: AsyncSession, name: str) -> dict[str, Any] | None:
    """A player's ratings, recent games and rating history; None if there is no such player.

    The name is looked up in any letter case (names are unique regardless of case).
    """
    if not storable(name):
        return None
    player = await session.scalar(select(Player).where(Player.name_key == name_key(name)))
    if player is None:
        return None
    recent = await session.execute(
        select(GamePlayer, Game.variant, Game.finished_at, Game.rated, Game.end_reason)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.player_id == player.id)
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(RECENT_GAMES)
    )
    recent_games = [
        {
            "game_id": gp.game_id,
            "variant": variant,
            "finished_at": epoch_ms(finished_at),
            "seat": gp.seat,
            "final": gp.final,
            "rating": gp.points,
            "outcome": gp.outcome,
            "rated": rated,
            # how the game ended ("goat", "target", "timeout", "resign", ...)
            "reason": end_reason,
        }
        for gp, variant, finished_at, rated, end_reason in recent
    ]
    return {
        "name": player.name,
        "ratings": await ratings_of(session, player.id),
        "recent_games": recent_games,
        "history": await _history(session, player.id),
    }


async def _history(session: AsyncSession, player_id: int) -> list[dict[str, Any]]:
    """Cumulative points (and skill) after each rated game, oldest first, per variant.

    Derived from the seats of rated games, so it always agrees with the ratings table.
    """
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
        .limit(HISTORY_LENGTH)
    )
    history = [
        {
            "game_id": row.game_id,
            "variant": row.variant,
            "finished_at": epoch_ms(row.finished_at),
            "gained": row.points,
            "points": int(row.points_after),
            "skill": None if row.skill_after is None else round(row.skill_after, 1),
        }
        for row in rows
    ]
    history.reverse()
    return history


async def game_record(session: AsyncSession, game_id: str) -> dict[str, Any] | None:
    if not storable(game_id):
        return None
    record = await session.scalar(select(Game.record).where(Game.id == game_id))
    return dict(record) if record is not None else None


async def game_bots(session: AsyncSession, game_id: str, names: list[str]) -> list[str | None]:
    """Each seat's bot strength (None: a person). A person's seat has its game_players row;
    a computer's has none, and its stored name is the one `seats.bot_entry` wrote."""
    rows = await session.scalars(select(GamePlayer.seat).where(GamePlayer.game_id == game_id))
    people = set(rows)
    return [None if seat in people else bot_strength(str(name), seat)
            for seat, name in enumerate(names)]

