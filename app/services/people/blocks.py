"""Blocks (PROTOCOL §2c): a player keeps another away. Blocking ends their friendship and
withdraws the challenges between them; the blocked player is told nothing, and the
blocker's own sockets learn whom he blocks (`block.update`) so they drop those players'
chat lines."""

from __future__ import annotations

from collections.abc import Iterable

from app.db import people
from app.db.models import utcnow
from app.db.session import Database
from app.services.errors import ServiceError
from app.services.fanout.notices import PlayerNotices
from app.services.people import directory

# The most players one list of blocks holds for a socket's chat filter.
MUTED_MAX = 1000


class Blocks:
    def __init__(self, db: Database, notices: PlayerNotices) -> None:
        self.db = db
        self.notices = notices

    async def block(self, me: int, name: str) -> None:
        async with self.db.writing() as session:
            other = await directory.find(session, name)
            if other.id == me:
                raise ServiceError("bad_request", "people_yourself", 409)
            await people.add_block(session, me, other.id)
            await people.drop_links(session, me, other.id)
            await people.withdraw_between(session, me, other.id, utcnow())
        await self._tell(me)

    async def unblock(self, me: int, name: str) -> None:
        async with self.db.writing() as session:
            other = await directory.find(session, name)
            await people.drop_block(session, me, other.id)
        await self._tell(me)

    async def listing(self, me: int, limit: int, offset: int) -> list[str]:
        async with self.db.session() as session:
            return [name for _id, name in await people.blocked_by(session, me, limit, offset)]

    async def muted(self, me: int) -> list[str]:
        """The names of everyone `me` blocks (his sockets drop their chat)."""
        return await self.listing(me, MUTED_MAX, 0)

    async def apart(self, me: int, others: Iterable[int]) -> set[int]:
        """Those of `others` who block `me` or whom he blocks."""
        async with self.db.session() as session:
            return await people.apart(session, me, others)

    async def apart_from_all(self, me: int) -> set[int]:
        async with self.db.session() as session:
            return await people.apart_from_all(session, me)

    async def _tell(self, me: int) -> None:
        await self.notices.tell([me], {"type": "block.update", "blocked": await self.muted(me)})
