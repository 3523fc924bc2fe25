"""The moderator role, granted and taken back by an operator (`domino moderator NAME`,
PROTOCOL §2h), each change a line of the audit log. The role is read from the database at
every moderator's request, so it takes effect at once on every process."""

from __future__ import annotations

from app.db import moderation
from app.db.moderation import NewEntry
from app.db.session import Database
from app.services.people import directory


async def set_role(db: Database, name: str, on: bool, reason: str) -> str:
    """Make the player a moderator (`on`) or not; his name. A 404 for an unknown name."""
    async with db.writing() as session:
        found = await directory.find(session, name)
        if await moderation.is_moderator(session, found.id) != on:
            await moderation.set_moderator(session, found.id, on)
            await moderation.write(session, NewEntry(
                None, found.id, "grant" if on else "revoke", reason or "by the operator", {}))
    return found.name
