"""Read side of the durable data: leaderboards, player pages and stored game records."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games, players, ratings
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
    total, ranked = await ratings.board(session, variant, sort, limit, offset)
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
        for row in ranked
    ]
    return {"variant": variant, "sort": sort, "total": total, "entries": entries}


async def player_page(session: AsyncSession, name: str) -> dict[str, Any] | None:
    """A player's ratings, recent games and rating history; None if there is no such player.

    The name is looked up in any letter case (names are unique regardless of case).
    """
    if not storable(name):
        return None
    player = await players.by_key(session, name_key(name))
    if player is None:
        return None
    recent_games = [
        {
            "game_id": game.game_id,
            "variant": game.variant,
            "finished_at": epoch_ms(game.finished_at),
            "seat": game.seat,
            "final": game.final,
            "rating": game.points,
            "outcome": game.outcome,
            "rated": game.rated,
            # how the game ended ("goat", "target", "timeout", "resign", ...)
            "reason": game.end_reason,
        }
        for game in await games.recent_of(session, player.id, RECENT_GAMES)
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
    history = [
        {
            "game_id": step.game_id,
            "variant": step.variant,
            "finished_at": epoch_ms(step.finished_at),
            "gained": step.gained,
            "points": step.points_after,
            "skill": None if step.skill_after is None else round(step.skill_after, 1),
        }
        for step in await ratings.history(session, player_id, HISTORY_LENGTH)
    ]
    history.reverse()
    return history


async def game_record(session: AsyncSession, game_id: str) -> dict[str, Any] | None:
    if not storable(game_id):
        return None
    record = await games.record(session, game_id)
    return dict(record) if record is not None else None


async def game_bots(session: AsyncSession, game_id: str, names: list[str]) -> list[str | None]:
    """Each seat's bot strength (None: a person). A person's seat has its game_players row;
    a computer's has none, and its stored name is the one `seats.bot_entry` wrote."""
    people = await games.people_seats(session, game_id)
    return [None if seat in people else bot_strength(str(name), seat)
            for seat, name in enumerate(names)]

