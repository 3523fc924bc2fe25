"""What a player's standing with the moderators does to his signing in (PROTOCOL §2h): a
suspended player is refused with the moderator's reason and the suspension's end; one
signing in with the name a moderator took from him is told his new name and why."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import moderation, players
from app.db.models import utcnow
from app.db.text import storable
from app.domain import names
from app.services.accounts import credentials
from app.services.errors import ServiceError
from app.services.moderation.shapes import active, epoch_ms


class Suspended(ServiceError):
    """Signing in refused: the account is suspended (`until` None: until lifted)."""

    def __init__(self, reason: str, until: int | None, shown: str | None) -> None:
        if shown is None:
            super().__init__("unauthorized", "account_suspended", 403, reason=reason)
        else:
            super().__init__("unauthorized", "account_suspended_until", 403, reason=reason,
                             until=shown)
        self.reason, self.until = reason, until


async def refusal(session: AsyncSession, player_id: int) -> Suspended | None:
    """Why the player may not sign in now, or None."""
    standing = await moderation.standing(session, player_id)
    if standing is None or standing.suspension is None \
            or not active(standing.suspended_until, utcnow()):
        return None
    until = standing.suspended_until
    return Suspended(standing.suspension, None if until is None else epoch_ms(until),
                     None if until is None else until.strftime("%Y-%m-%d %H:%M UTC"))


class Renamed(ServiceError):
    """Signing in with a name a moderator took away: the player's new name, and why."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__("unauthorized", "account_renamed", 403, name=name, reason=reason)
        self.name, self.reason = name, reason


async def renamed(session: AsyncSession, username: str, password: str) -> Renamed | None:
    """Whether `username` is a name a moderator renamed a player away from, and
    `password` is that player's: then he is told his new name. None otherwise."""
    if not storable(username):
        return None
    found = await moderation.renamed_from(session, names.key(username))
    if found is None:
        return None
    player_id, reason = found
    name = await players.name_of(session, player_id)
    if name is None or not await credentials.verify_password(session, player_id, password):
        return None
    return Renamed(name, reason)


async def is_moderator(session: AsyncSession, player_id: int) -> bool:
    return await moderation.is_moderator(session, player_id)
