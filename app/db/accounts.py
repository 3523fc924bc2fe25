"""One player's own data: everything he may take away, and the deletion of his account
(PROTOCOL §2c)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Block, Challenge, FriendLink, Game, GamePlayer, Player, Rating


async def records(session: AsyncSession, player_id: int) -> list[dict[str, Any]]:
    """The records of every finished game the player played, oldest first."""
    rows = await session.scalars(
        select(Game.record).join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.player_id == player_id).order_by(Game.finished_at, Game.id))
    return list(rows)


async def forget(session: AsyncSession, player_id: int, shown_as: str, now: datetime) -> None:
    """Delete the account: it signs in no more and shows as `shown_as` everywhere (its
    name stays taken by its key and skeleton), its finished games keep their records
    under that name, it leaves every leaderboard, and its friends, blocks and open
    challenges are gone."""
    await session.execute(update(Player).where(Player.id == player_id)
                          .values(name=shown_as, deleted_at=now))
    games = await session.execute(
        select(Game.id, Game.players, Game.record, GamePlayer.seat)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.player_id == player_id))
    for game_id, names, record, seat in games.all():
        names = list(names)
        names[seat] = shown_as
        record = {**record, "players": [shown_as if i == seat else name for i, name in
                                        enumerate(record.get("players") or names)]}
        await session.execute(update(Game).where(Game.id == game_id)
                              .values(players=names, record=record))
    await session.execute(delete(Rating).where(Rating.player_id == player_id))
    await session.execute(delete(FriendLink).where(or_(FriendLink.player_id == player_id,
                                                       FriendLink.friend_id == player_id)))
    await session.execute(delete(Block).where(or_(Block.player_id == player_id,
                                                  Block.blocked_id == player_id)))
    await session.execute(update(Challenge).where(
        or_(Challenge.from_id == player_id, Challenge.to_id == player_id),
        Challenge.status == "open").values(status="withdrawn"))
