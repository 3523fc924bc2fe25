"""The sign-in sessions' rows: one per sign-in, until it expires or is revoked (its
tokens name it, and are refused once it is revoked)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import LoginSession


async def open_session(session: AsyncSession, session_id: str, player_id: int,
                       created_at: datetime, expires_at: datetime) -> None:
    """A new sign-in of the player; his expired ones go (their tokens are refused by
    their expiry anyway), so the table holds about as many rows as there are live
    sign-ins."""
    await session.execute(delete(LoginSession).where(
        LoginSession.player_id == player_id,
        LoginSession.expires_at < created_at,
    ))
    session.add(LoginSession(id=session_id, player_id=player_id, created_at=created_at,
                             expires_at=expires_at))


async def get(session: AsyncSession, session_id: str) -> LoginSession | None:
    return await session.get(LoginSession, session_id)


async def revoke(session: AsyncSession, session_ids: Sequence[str], at: datetime) -> None:
    """Mark these sessions revoked (those that are not yet)."""
    await session.execute(
        update(LoginSession)
        .where(LoginSession.id.in_(session_ids), LoginSession.revoked_at.is_(None))
        .values(revoked_at=at)
    )


async def live_ids(session: AsyncSession, player_id: int) -> list[str]:
    """The player's sessions that are not revoked."""
    return list(await session.scalars(select(LoginSession.id).where(
        LoginSession.player_id == player_id, LoginSession.revoked_at.is_(None))))
