"""Accounts: registration and password checks (argon2); tokens are app/services/sessions.py's."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import settings
from app.db.models import Player, Rating
from app.db.session import write_transaction
from app.db.text import storable
from app.engine import VARIANTS

# argon2id with the settings' costs: by default argon2-cffi's (RFC 9106's low-memory
# profile: 3 passes over 64 MiB, 4 lanes). A hash names its own costs, so it is checked
# with them whatever the settings say now.
_hasher = PasswordHasher(
    time_cost=settings.password_time_cost,
    memory_cost=settings.password_memory_kib,
    parallelism=settings.password_lanes,
)


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


async def change_password(
    session: AsyncSession, player_id: int, current: str, new: str
) -> bool:
    """Set a new password if `current` is the player's password; False if it is not."""
    player = await session.get(Player, player_id)
    if player is None or not await _verify(player.password_hash, current):
        return False
    player.password_hash = await _hash(new)
    await session.commit()
    return True


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
