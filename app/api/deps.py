"""Annotated dependencies shared by the routers: the database session and who is calling."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.i18n import Refusal
from app.db.session import Database
from app.services.accounts.credentials import PlayerRef
from app.services.accounts.sessions import Identity, Sessions

__all__ = [
    "SESSION_COOKIE",
    "CurrentIdentity",
    "CurrentPlayer",
    "DatabaseDep",
    "OptionalIdentity",
    "OptionalPlayer",
    "PlayerRef",
    "SessionDep",
    "SessionsDep",
]

SESSION_COOKIE = "domino_session"


# The dependencies are coroutines, even those that only read the app's state: FastAPI runs
# a plain function in its thread pool, a thread hop per request for nothing.
async def get_database(request: Request) -> Database:
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


def _sessions(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.live.sessions
    return sessions


async def get_sessions(request: Request) -> Sessions:
    return _sessions(request)


async def optional_identity(request: Request) -> Identity | None:
    """The caller's session, or None for anonymous callers and expired, revoked or invalid
    tokens (spectators). Checked without the database unless the session cache misses;
    a store that cannot answer is a 503, never a 401."""
    token = _token(request)
    return await _sessions(request).identify(token) if token else None


async def current_identity(
    identity: Annotated[Identity | None, Depends(optional_identity)],
) -> Identity:
    if identity is None:
        raise Refusal(
            status.HTTP_401_UNAUTHORIZED, "not_authenticated", {"WWW-Authenticate": "Bearer"}
        )
    return identity


async def optional_player(
    identity: Annotated[Identity | None, Depends(optional_identity)],
) -> PlayerRef | None:
    return None if identity is None else identity.player


async def current_player(
    identity: Annotated[Identity, Depends(current_identity)],
) -> PlayerRef:
    return identity.player


SessionsDep = Annotated[Sessions, Depends(get_sessions)]
OptionalIdentity = Annotated[Identity | None, Depends(optional_identity)]
CurrentIdentity = Annotated[Identity, Depends(current_identity)]
OptionalPlayer = Annotated[PlayerRef | None, Depends(optional_player)]
CurrentPlayer = Annotated[PlayerRef, Depends(current_player)]
