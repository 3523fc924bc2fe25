"""Challenges (PROTOCOL §2c): one player asks a named other to play; accepted, it becomes a
private table with both seated (made by the caller, the way every table is made). Each
change is told to both players (`challenge.new`, `challenge.update`)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import people, players
from app.db.models import Challenge, utcnow
from app.db.session import Database
from app.db.text import storable
from app.engine import OptionsError, validate_options
from app.services.errors import ServiceError
from app.services.fanout.notices import PlayerNotices
from app.services.people import directory
from app.wire.messages import ChallengeInfo, ChallengeStatus

# How long a challenge stays open, and how many open ones a player may have sent.
CHALLENGE_SECONDS = 600
MAX_OPEN = 10


def _aware(moment: datetime) -> datetime:
    """A time as stored (SQLite gives it back without its zone, which is UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _ms(moment: datetime) -> int:
    return int(_aware(moment).timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class Accepting:
    """A challenge just taken for acceptance: what its table is made with, and by whom."""

    id: str
    from_id: int
    from_name: str
    variant: str
    seats: int
    settings: dict[str, Any]


class Challenges:
    def __init__(self, db: Database, notices: PlayerNotices) -> None:
        self.db = db
        self.notices = notices

    async def _info(self, session: AsyncSession, row: Challenge) -> ChallengeInfo:
        who = await players.names(session, [row.from_id, row.to_id])
        status: ChallengeStatus = row.status  # type: ignore[assignment]
        if status == "open" and _aware(row.expires_at) <= utcnow():
            status = "expired"
        options = row.settings.get("options", {})
        return {"id": row.id, "from": who.get(row.from_id, ""), "to": who.get(row.to_id, ""),
                "variant": row.variant, "seats": row.seats, "options": options,
                "turn_seconds": int(row.settings.get("turn_seconds", 30)),
                "rated": bool(row.settings.get("rated", True)), "status": status,
                "table_id": row.table_id, "expires_at": _ms(row.expires_at),
                "created_at": _ms(row.created_at)}

    async def send(self, me: int, to: str, variant: str, seats: int,
                   settings: dict[str, Any]) -> ChallengeInfo:
        try:
            validate_options(variant, seats, settings.get("options"))
        except OptionsError as error:
            raise ServiceError.of_engine("bad_request", error, 422) from error
        now = utcnow()
        async with self.db.writing() as session:
            other = await directory.find(session, to)
            if other.id == me:
                raise ServiceError("bad_request", "people_yourself", 409)
            if await people.apart(session, me, [other.id]):
                raise ServiceError("bad_request", "people_forbidden", 403)
            if await people.open_outgoing(session, me, now) >= MAX_OPEN:
                raise ServiceError("rate_limited", "people_too_many_challenges", 429,
                                   n=MAX_OPEN)
            row = Challenge(id=secrets.token_hex(8), from_id=me, to_id=other.id,
                            variant=variant, seats=seats, settings=settings, status="open",
                            created_at=now,
                            expires_at=now + timedelta(seconds=CHALLENGE_SECONDS))
            people.add_challenge(session, row)
            await session.flush()
            info = await self._info(session, row)
        await self.notices.tell([other.id], {"type": "challenge.new", "challenge": info})
        return info

    async def _row(self, session: AsyncSession, challenge_id: str, me: int) -> Challenge:
        row = await people.challenge(session, challenge_id) if storable(challenge_id) else None
        if row is None or me not in (row.from_id, row.to_id):
            raise ServiceError("not_found", "people_no_challenge", 404)
        return row

    async def _close(self, challenge_id: str, me: int, status: str, *, by: str
                     ) -> ChallengeInfo:
        """Close an open challenge `me` may close (`by`: "to" or "from"); 409 if it is not
        open any more."""
        async with self.db.writing() as session:
            row = await self._row(session, challenge_id, me)
            if (row.to_id if by == "to" else row.from_id) != me:
                raise ServiceError("not_found", "people_no_challenge", 404)
            if not await people.settle_challenge(session, row.id, status, utcnow()):
                raise ServiceError("bad_request", "people_challenge_closed", 409)
            await session.refresh(row)
            info = await self._info(session, row)
        await self.notices.tell([row.from_id, row.to_id],
                                {"type": "challenge.update", "challenge": info})
        return info

    async def decline(self, challenge_id: str, me: int) -> ChallengeInfo:
        return await self._close(challenge_id, me, "declined", by="to")

    async def withdraw(self, challenge_id: str, me: int) -> ChallengeInfo:
        return await self._close(challenge_id, me, "withdrawn", by="from")

    async def claim(self, challenge_id: str, me: int) -> Accepting:
        """The challenge `me` was sent, taken for acceptance before its table is made (so two
        accepts never make two tables): 409 if it is not open, 403 between players who block
        each other now. `placed` or `released` follows."""
        async with self.db.writing() as session:
            row = await self._row(session, challenge_id, me)
            if row.to_id != me:
                raise ServiceError("not_found", "people_no_challenge", 404)
            if await people.apart(session, me, [row.from_id]):
                raise ServiceError("bad_request", "people_forbidden", 403)
            if not await people.settle_challenge(session, row.id, "accepted", utcnow()):
                raise ServiceError("bad_request", "people_challenge_closed", 409)
            name = await players.name_of(session, row.from_id) or ""
            return Accepting(row.id, row.from_id, name, row.variant, row.seats,
                             dict(row.settings))

    async def released(self, challenge_id: str) -> None:
        """Its table could not be made: the challenge is open again."""
        async with self.db.writing() as session:
            await people.set_challenge(session, challenge_id, "open", None)

    async def placed(self, challenge_id: str, table_id: str) -> ChallengeInfo:
        """Its table is made: the challenge names it, and both players hear."""
        async with self.db.writing() as session:
            await people.set_challenge(session, challenge_id, "accepted", table_id)
            row = await people.challenge(session, challenge_id)
            assert row is not None
            await session.refresh(row)
            info = await self._info(session, row)
        await self.notices.tell([row.from_id, row.to_id],
                                {"type": "challenge.update", "challenge": info})
        return info

    async def listing(self, me: int, limit: int, offset: int) -> dict[str, list[ChallengeInfo]]:
        async with self.db.session() as session:
            incoming, outgoing = await people.open_challenges(session, me, utcnow(), limit,
                                                              offset)
            return {"incoming": [await self._info(session, r) for r in incoming],
                    "outgoing": [await self._info(session, r) for r in outgoing]}
