"""Accounts: registration, password checks (argon2) and signed, expiring session tokens."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import settings
from app.db.models import Player, Rating
from app.db.session import Database, write_transaction
from app.db.text import storable
from app.engine import VARIANTS

TOKEN_ALGORITHM = "HS256"
_hasher = PasswordHasher()


@dataclass(frozen=True)
class PlayerRef:
    """Who is acting: enough to seat a player and name him, nothing secret."""

    id: int
    name: str


class NameTaken(ValueError):
    pass


def name_key(name: str) -> str:
    """Names are unique regardless of letter case."""
    return name.lower()


@cache
def _dummy_hash() -> str:
    # Verified against when the name is unknown, so a failed login costs the same either way.
    return _hasher.hash("not-a-password-of-anyone")


async def _hash(password: str) -> str:
    # argon2 is deliberately slow: keep it off the event loop.
    return await asyncio.to_thread(_hasher.hash, password)


async def _verify(password_hash: str, password: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def issue_token(player: PlayerRef, *, now: float | None = None, seconds: int | None = None) -> str:
    issued = int(time.time() if now is None else now)
    lifetime = settings.token_seconds if seconds is None else seconds
    payload = {"sub": str(player.id), "name": player.name, "iat": issued, "exp": issued + lifetime}
    return jwt.encode(payload, settings.secret_key, algorithm=TOKEN_ALGORITHM)


def token_player_id(token: str) -> int | None:
    """The player id of a valid, unexpired token signed by us; None for anything else."""
    try:
        payload: dict[str, Any] = jwt.decode(
            token,
            settings.secret_key,
            algorithms=[TOKEN_ALGORITHM],
            options={"require": ["sub", "iat", "exp"]},
        )
        player_id = int(payload["sub"])
    except (jwt.InvalidTokenError, ValueError, TypeError):
        return None
    # Only ids we could have issued (a 32-bit primary key); anything else is not ours.
    return player_id if 0 < player_id < 2**31 else None


async def player_by_token(session: AsyncSession, token: str) -> PlayerRef | None:
    player_id = token_player_id(token)
    if player_id is None:
        return None
    # The account must still exist: a token outlives nothing it names.
    player = await session.get(Player, player_id)
    return PlayerRef(player.id, player.name) if player else None


async def player_for_token(db: Database, token: str) -> PlayerRef | None:
    """The player a session token belongs to (used by the websocket gateway)."""
    async with db.session() as session:
        return await player_by_token(session, token)


async def register(session: AsyncSession, name: str, password: str) -> PlayerRef:
    """Create an account; raises NameTaken if the name exists in any letter case."""
    key = name_key(name)
    await write_transaction(session)
    if await session.scalar(select(Player.id).where(Player.name_key == key)) is not None:
        raise NameTaken(name)
    player = Player(name=name, name_key=key, password_hash=await _hash(password))
    session.add(player)
    try:
        await session.commit()
    except IntegrityError as exc:  # registered by someone else a moment ago
        await session.rollback()
        raise NameTaken(name) from exc
    return PlayerRef(player.id, player.name)


async def authenticate(session: AsyncSession, name: str, password: str) -> PlayerRef | None:
    if not storable(name):
        await _verify(_dummy_hash(), password)
        return None
    player = await session.scalar(select(Player).where(Player.name_key == name_key(name)))
    # Usernames are taken exactly as sent (PROTOCOL 1): "MASHA" does not log in as "masha".
    if player is None or player.name != name:
        await _verify(_dummy_hash(), password)
        return None
    if not await _verify(player.password_hash, password):
        return None
    return PlayerRef(player.id, player.name)


def rating_view(rating: Rating) -> dict[str, Any]:
    view: dict[str, Any] = {
        "points": rating.points,
        "games": rating.games,
        "wins": rating.wins,
        "losses": rating.losses,
        "skill": round(rating.skill, 1),
        "deviation": round(rating.deviation, 1),
        "volatility": round(rating.volatility, 6),
    }
    # A variant may have its own word for a loser (Goat's "goats"): the engine says so.
    cls = VARIANTS.get(rating.variant)
    if cls is not None and cls.losers_called is not None:
        view[cls.losers_called] = rating.losses
    return view


async def ratings_of(session: AsyncSession, player_id: int) -> dict[str, dict[str, Any]]:
    rows = await session.scalars(
        select(Rating).where(Rating.player_id == player_id).order_by(Rating.variant)
    )
    return {r.variant: rating_view(r) for r in rows}
