"""A player's own data (PROTOCOL §2c): the export of his account, ratings and games, and
the deletion of his account."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import accounts, players
from app.db.models import utcnow
from app.db.session import write_transaction
from app.live.store import LiveStore
from app.services.accounts.credentials import ratings_of, verify_password
from app.services.errors import ServiceError
from app.services.tables import seated


def shown_as(player_id: int) -> str:
    """The name a deleted account's games show: `deleted-<n>`."""
    return f"deleted-{player_id}"


async def export(session: AsyncSession, player_id: int) -> dict[str, Any]:
    player = await players.get(session, player_id)
    if player is None or player.deleted_at is not None:
        raise ServiceError("not_found", "no_player", 404)
    return {
        "account": {"id": player.id, "name": player.name,
                    "created_at": int(player.created_at.timestamp() * 1000)},
        "ratings": await ratings_of(session, player_id),
        "games": await accounts.records(session, player_id),
    }


async def delete(session: AsyncSession, store: LiveStore, player_id: int,
                 password: str) -> bool:
    """Delete the account if `password` is his (False if not); 409 while he sits at a
    game in play. The caller revokes his sessions."""
    if not await verify_password(session, player_id, password):
        return False
    if any(t.status == "playing" for t in await seated.tables_of(store, player_id)):
        raise ServiceError("bad_request", "people_playing_now", 409)
    await write_transaction(session)
    await accounts.forget(session, player_id, shown_as(player_id), utcnow())
    await session.commit()
    return True
