"""Clubs (PROTOCOL §2e): made (at most a few owned by one player), found, read with their
members and the members' leaderboard; joined (an open club at once, a closed one by a
request an admin accepts, or by an invitation), left; roles given by the owner, members
removed by the admins.

Every change of a club's members is made with the club's row locked, so its count of
members and its roles stay right whatever process and however many at once change them.
"""

from __future__ import annotations

import unicodedata
from typing import Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import clubs, players
from app.db.clubs import ROLES
from app.db.models import Club
from app.db.session import Database
from app.domain import names
from app.domain.text import readable
from app.services.accounts.own_data import shown_as
from app.services.clubs.entry import ADMINS
from app.services.errors import ServiceError
from app.services.people import directory
from app.wire.clubs import (
    ClubInfo,
    ClubJoined,
    ClubLeader,
    ClubList,
    ClubMemberInfo,
    ClubMembers,
    ClubPage,
    ClubRequests,
    ClubYou,
    MyClub,
    MyClubs,
    Role,
)
from app.words import ErrorKey

OWNED_MAX = 3  # clubs one player may own
NAME_LENGTH = (3, 40)


class Caller(Protocol):
    @property
    def id(self) -> int: ...


def clean_name(name: str) -> str:
    """The name as kept: NFC, with what cannot be seen taken out, trimmed; 422 unless it
    is 3-40 characters then."""
    kept = readable(unicodedata.normalize("NFC", name)).strip()
    if not NAME_LENGTH[0] <= len(kept) <= NAME_LENGTH[1]:
        raise ServiceError("bad_request", "club_name_invalid", 422,
                           low=NAME_LENGTH[0], high=NAME_LENGTH[1])
    return kept


def clean_description(text: str) -> str:
    return "\n".join(readable(line).rstrip()
                     for line in unicodedata.normalize("NFC", text).splitlines()).strip()


def _missing(club_id: int) -> ServiceError:
    return ServiceError("not_found", "no_club", 404, club=club_id)


def _refused(key: ErrorKey, status: int) -> ServiceError:
    return ServiceError("bad_request", key, status)


def _ms(club: Club) -> int:
    created = club.created_at
    return int(created.timestamp() * 1000) if created is not None else 0


async def _infos(session: AsyncSession, rows: list[Club]) -> list[ClubInfo]:
    """The clubs as PROTOCOL §2e shows them, their owners' and admins' names read at once."""
    owners = await players.names(session, (c.owner_id for c in rows))
    admins = await clubs.admins(session, (c.id for c in rows))
    return [{"id": c.id, "name": c.name, "description": c.description, "open": c.open,
             "owner": owners.get(c.owner_id, shown_as(c.owner_id)), "members": c.members,
             "admins": admins.get(c.id, []), "created_at": _ms(c)} for c in rows]


async def _club(session: AsyncSession, club_id: int, *, lock: bool = False) -> Club:
    club = await clubs.get(session, club_id, lock=lock)
    if club is None:
        raise _missing(club_id)
    return club


async def _role(session: AsyncSession, club_id: int, player_id: int) -> Role | None:
    role = await clubs.role_of(session, club_id, player_id)
    return role if role in ROLES else None  # type: ignore[return-value]


async def _admin(session: AsyncSession, club_id: int, player_id: int) -> Role:
    """The caller's role, which must be the owner's or an admin's (else 403)."""
    role = await _role(session, club_id, player_id)
    if role not in ADMINS:
        raise _refused("club_admins_only", 403)
    assert role is not None
    return role


# -- clubs -----------------------------------------------------------------------------------


async def create(db: Database, owner: Caller, name: str, description: str, open_: bool
                 ) -> ClubInfo:
    kept = clean_name(name)
    async with db.writing() as session:
        # The owner's row, locked, orders his creations: the cap holds on every process.
        await players.get(session, owner.id, lock=True)
        if await clubs.owned_by(session, owner.id) >= OWNED_MAX:
            raise ServiceError("bad_request", "too_many_clubs", 409, n=OWNED_MAX)
        if await clubs.named(session, names.key(kept)) is not None:
            raise _refused("club_name_taken", 409)
        club = Club(name=kept, name_key=names.key(kept),
                    description=clean_description(description), open=open_,
                    owner_id=owner.id, members=0)
        clubs.add(session, club)
        try:  # the same name made at this moment elsewhere: its unique key refuses it
            await session.flush()
        except IntegrityError as error:
            raise _refused("club_name_taken", 409) from error
        await clubs.add_member(session, club.id, owner.id, "owner")
        await session.flush()
        await session.refresh(club)
        return (await _infos(session, [club]))[0]


async def page(db: Database, club_id: int, reader: int | None) -> ClubPage:
    async with db.session() as session:
        club = await _club(session, club_id)
        info = (await _infos(session, [club]))[0]
        board: dict[str, list[ClubLeader]] = {}
        for leader in await clubs.leaderboard(session, club_id):
            board.setdefault(leader.variant, []).append(
                {"name": leader.name, "points": leader.points, "skill": round(leader.skill)})
        you: ClubYou | None = None
        if reader is not None:
            you = {"role": await _role(session, club_id, reader),
                   "requested": await clubs.has_ask(session, club_id, reader, "request"),
                   "invited": await clubs.has_ask(session, club_id, reader, "invite")}
    return {**info, "leaderboard": board, "you": you}


async def search(db: Database, q: str, offset: int, limit: int) -> ClubList:
    async with db.session() as session:
        total, rows = await clubs.search(session, names.key(q.strip()), offset, limit)
        return {"total": total, "clubs": await _infos(session, rows)}


async def mine(db: Database, player_id: int, offset: int, limit: int) -> MyClubs:
    async with db.session() as session:
        total, rows = await clubs.of_player(session, player_id, offset, limit)
        infos = await _infos(session, [club for club, _ in rows])
    listed: list[MyClub] = [{**info, "role": role}  # type: ignore[typeddict-item]
                            for info, (_, role) in zip(infos, rows, strict=True)]
    return {"total": total, "clubs": listed}


# -- joining and leaving ---------------------------------------------------------------------


async def join(db: Database, player: Caller, club_id: int) -> ClubJoined:
    """An open club: a member at once; a closed one: a member if he was invited, else his
    request waits for an admin. 409 when he is a member already."""
    async with db.writing() as session:
        club = await _club(session, club_id, lock=True)
        if await _role(session, club_id, player.id) is not None:
            raise _refused("club_member_already", 409)
        if club.open or await clubs.has_ask(session, club_id, player.id, "invite"):
            await clubs.add_member(session, club_id, player.id, "member")
            return {"status": "member"}
        await clubs.add_ask(session, club_id, player.id, "request")
        return {"status": "requested"}


async def leave(db: Database, player: Caller, club_id: int) -> None:
    """Out of the club (or his request to join it withdrawn); the owner stays (409)."""
    async with db.writing() as session:
        await _club(session, club_id, lock=True)
        role = await _role(session, club_id, player.id)
        if role == "owner":
            raise _refused("club_owner_stays", 409)
        if role is None:
            if not await clubs.drop_ask(session, club_id, player.id, "request"):
                raise _refused("not_club_member", 409)
            return
        await clubs.remove_member(session, club_id, player.id)


async def accept(db: Database, admin: Caller, club_id: int, name: str) -> ClubMemberInfo:
    """An admin lets in a player who asked to join (404 when he did not ask)."""
    async with db.writing() as session:
        await _club(session, club_id, lock=True)
        await _admin(session, club_id, admin.id)
        other = await directory.find(session, name)
        if not await clubs.has_ask(session, club_id, other.id, "request"):
            raise _refused("club_no_request", 404)
        await clubs.add_member(session, club_id, other.id, "member")
        return {"name": other.name, "role": "member"}


async def refuse(db: Database, admin: Caller, club_id: int, name: str) -> None:
    async with db.writing() as session:
        await _club(session, club_id, lock=True)
        await _admin(session, club_id, admin.id)
        other = await directory.find(session, name)
        if not await clubs.drop_ask(session, club_id, other.id, "request"):
            raise _refused("club_no_request", 404)


async def invite(db: Database, admin: Caller, club_id: int, name: str) -> ClubJoined:
    """An admin invites a player: his join then makes him a member at once. One who had
    asked to join is let in by it. 409 for a member already."""
    async with db.writing() as session:
        await _club(session, club_id, lock=True)
        await _admin(session, club_id, admin.id)
        other = await directory.find(session, name)
        if await _role(session, club_id, other.id) is not None:
            raise _refused("club_member_already", 409)
        if await clubs.has_ask(session, club_id, other.id, "request"):
            await clubs.add_member(session, club_id, other.id, "member")
            return {"status": "member"}
        await clubs.add_ask(session, club_id, other.id, "invite")
        return {"status": "invited"}


async def requests(db: Database, admin: Caller, club_id: int, kind: str, offset: int,
                   limit: int) -> ClubRequests:
    """The players who asked to join (`kind` "request") or were invited ("invite"):
    for its admins only."""
    async with db.session() as session:
        await _club(session, club_id)
        await _admin(session, club_id, admin.id)
        total, found = await clubs.asks(session, club_id, kind, offset, limit)
    return {"total": total, "names": found}


# -- members and roles -----------------------------------------------------------------------


async def members(db: Database, club_id: int, offset: int, limit: int) -> ClubMembers:
    async with db.session() as session:
        await _club(session, club_id)
        total, found = await clubs.members(session, club_id, offset, limit)
    # a deleted account's name is `deleted-<n>` already (PROTOCOL §2c)
    return {"total": total, "members": [
        {"name": m.name, "role": m.role}  # type: ignore[typeddict-item]
        for m in found]}


async def set_role(db: Database, owner: Caller, club_id: int, name: str, role: Role
                   ) -> ClubMemberInfo:
    """The owner makes a member an admin, or an admin a member again."""
    async with db.writing() as session:
        await _club(session, club_id, lock=True)
        if await _role(session, club_id, owner.id) != "owner":
            raise _refused("club_owner_only", 403)
        other = await directory.find(session, name)
        current = await _role(session, club_id, other.id)
        if current is None:
            raise _refused("not_club_member", 404)
        if current == "owner":
            raise _refused("club_owner_stays", 409)
        await clubs.set_role(session, club_id, other.id, role)
        return {"name": other.name, "role": role}


async def remove(db: Database, admin: Caller, club_id: int, name: str) -> None:
    """An admin removes a member; only the owner removes an admin; nobody the owner."""
    async with db.writing() as session:
        await _club(session, club_id, lock=True)
        mine = await _admin(session, club_id, admin.id)
        other = await directory.find(session, name)
        theirs = await _role(session, club_id, other.id)
        if theirs is None:
            raise _refused("not_club_member", 404)
        if theirs == "owner" or (theirs == "admin" and mine != "owner"):
            raise _refused("club_owner_only", 403)
        await clubs.remove_member(session, club_id, other.id)
