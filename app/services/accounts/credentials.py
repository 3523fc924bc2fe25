"""Accounts: registration and password checks (argon2); tokens are app/services/sessions.py's."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import settings
from app.db import players, ratings
from app.db.models import Player, Rating
from app.db.session import write_transaction
from app.db.text import storable
from app.domain import names
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
    """Names are unique regardless of letter case (and of their Unicode normal form)."""
    return names.key(name)


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
    """Create an account; raises NameTaken if the name exists in any letter case.

    The password is hashed (slow by design) between a read and the write, never under the
    write lock: on SQLite every other write would wait for it."""
    name = names.normal(name)
    key = name_key(name)
    taken = await players.taken(session, key, names.skeleton(name))
    await session.rollback()  # no connection held while the password is hashed
    if taken:
        raise NameTaken(name)
    password_hash = await _hash(password)
    await write_transaction(session)
    player = Player(name=name, name_key=key, password_hash=password_hash)
    players.add(session, player)
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
    name = names.normal(name)
    player = await players.login_of(session, name_key(name))
    await session.rollback()  # no connection held while the password is checked
    # Usernames are taken exactly as sent (PROTOCOL 1): "MASHA" does not log in as "masha".
    if player is None or player.name != name:
        await _verify(_dummy_hash(), password)
        return None
    if not await _verify(player.password_hash, password):
        return None
    return PlayerRef(player.id, player.name)


async def verify_password(session: AsyncSession, player_id: int, password: str) -> bool:
    """Whether `password` is the player's (no connection is held while it is checked)."""
    checked = await players.password_hash(session, player_id)
    await session.rollback()
    return checked is not None and await _verify(checked, password)


async def change_password(
    session: AsyncSession, player_id: int, current: str, new: str
) -> bool:
    """Set a new password if `current` is the player's password; False if it is not (or
    stopped being so while the new one was hashed: the change is a compare-and-set)."""
    checked = await players.password_hash(session, player_id)
    await session.rollback()  # no connection held while the passwords are checked and hashed
    if checked is None or not await _verify(checked, current):
        return False
    password_hash = await _hash(new)
    await write_transaction(session)
    changed = await players.replace_password_hash(session, player_id, checked, password_hash)
    await session.commit()
    return changed


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
    return {r.variant: rating_view(r) for r in await ratings.of_player(session, player_id)}
