"""Annotated dependencies shared by the routers: the database session and who is calling."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import Database
from app.services.accounts import PlayerRef, player_by_token

__all__ = [
    "SESSION_COOKIE",
    "CurrentPlayer",
    "DatabaseDep",
    "OptionalPlayer",
    "PlayerRef",
    "SessionDep",
]

SESSION_COOKIE = "domino_session"


def get_database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def get_session(
    db: Annotated[Database, Depends(get_database)],
) -> AsyncIterator[AsyncSession]:
    async with db.session() as session:
        yield session


DatabaseDep = Annotated[Database, Depends(get_database)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]


def _token(request: Request) -> str | None:
    """The Bearer token if the caller sent one (it then decides alone), else the cookie."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        return token.strip() if scheme.lower() == "bearer" and token.strip() else ""
    return request.cookies.get(SESSION_COOKIE)


async def optional_player(request: Request, session: SessionDep) -> PlayerRef | None:
    """The caller, or None for anonymous callers and stale or invalid tokens (spectators)."""
    token = _token(request)
    return await player_by_token(session, token) if token else None


async def current_player(
    player: Annotated[PlayerRef | None, Depends(optional_player)],
) -> PlayerRef:
    if player is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "not authenticated (missing, invalid or expired token)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return player


OptionalPlayer = Annotated[PlayerRef | None, Depends(optional_player)]
CurrentPlayer = Annotated[PlayerRef, Depends(current_player)]
