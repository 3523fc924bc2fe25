"""Clubs over HTTP (PROTOCOL §2e): made, found, read, joined, left; requests, invitations,
roles and removals. Every route spends the caller's budget (a player's on every process
together; a signed-out reader's address's, by the API's own limit); making a club and
inviting have budgets of their own; every list pages (`offset`, `limit`)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response, status
from pydantic import BaseModel, Field

from app.api.deps import DatabaseDep, OptionalPlayer
from app.api.ratelimit import LimitedPlayer, client_address, refuse, take
from app.api.schemas import STRICT
from app.api.tables import LiveDep, _failures, _refusals
from app.config import settings
from app.live.ratelimit import Budget
from app.services.clubs import clubs
from app.wire.clubs import (
    ClubInfo,
    ClubJoined,
    ClubList,
    ClubMemberInfo,
    ClubMembers,
    ClubPage,
    ClubRequests,
    MyClubs,
)

router = APIRouter(prefix="/api", tags=["clubs"])

Limit = Annotated[int, Query(ge=1, le=100)]
Offset = Annotated[int, Query(ge=0, le=100_000)]
# A club's id as the database's integer holds it (a larger one names no club: 422).
ClubId = Annotated[int, Path(ge=1, le=2**31 - 1)]

# An invitation reaches another player: a steady trickle, a burst for a new club.
INVITE_BUDGET = Budget(1 / 6, 30)


class ClubCreate(BaseModel):
    model_config = STRICT
    name: str = Field(min_length=1, max_length=80)  # 3-40 once cleaned (the service)
    description: str = Field("", max_length=1000)
    open: bool


class Invitation(BaseModel):
    model_config = STRICT
    name: str = Field(min_length=1, max_length=80)


class RoleChange(BaseModel):
    model_config = STRICT
    role: Literal["admin", "member"]



async def _spend(live: LiveDep, buckets: dict[str, Budget]) -> None:
    verdict = await take(live, buckets, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)


@router.post("/clubs", status_code=status.HTTP_201_CREATED,
             responses=_failures(401, 409, 422, 429), response_model=None)
async def create(body: ClubCreate, player: LimitedPlayer, db: DatabaseDep, live: LiveDep,
                 request: Request) -> ClubInfo:
    # A club is listed for everyone, as a tournament is: the budgets of making one, per
    # player and per address, on every process together (buckets of their own).
    await _spend(live, {
        f"club-create:{player.id}": Budget(settings.tournament_create_rate,
                                           settings.tournament_create_burst),
        f"club-create-addr:{client_address(request.scope)}": Budget(
            settings.tournament_address_rate, settings.tournament_address_burst)})
    with _refusals():
        return await clubs.create(db, player, body.name, body.description, body.open)


@router.get("/clubs", response_model=None)
async def search(db: DatabaseDep, q: str = Query("", max_length=40), offset: Offset = 0,
                 limit: Limit = 50) -> ClubList:
    return await clubs.search(db, q, offset, limit)


@router.get("/me/clubs", responses=_failures(401), response_model=None)
async def mine(player: LimitedPlayer, db: DatabaseDep, offset: Offset = 0,
               limit: Limit = 50) -> MyClubs:
    """The clubs the caller is in, with his role in each."""
    return await clubs.mine(db, player.id, offset, limit)


@router.get("/clubs/{club_id}", responses=_failures(404), response_model=None)
async def read(club_id: ClubId, db: DatabaseDep, reader: OptionalPlayer) -> ClubPage:
    with _refusals():
        return await clubs.page(db, club_id, None if reader is None else reader.id)


@router.post("/clubs/{club_id}/join", responses=_failures(401, 404, 409), response_model=None)
async def join(club_id: ClubId, player: LimitedPlayer, db: DatabaseDep) -> ClubJoined:
    with _refusals():
        return await clubs.join(db, player, club_id)


@router.post("/clubs/{club_id}/leave", responses=_failures(401, 404, 409),
             response_model=None)
async def leave(club_id: ClubId, player: LimitedPlayer, db: DatabaseDep) -> dict[str, bool]:
    with _refusals():
        await clubs.leave(db, player, club_id)
    return {"left": True}


@router.get("/clubs/{club_id}/requests", responses=_failures(401, 403, 404),
            response_model=None)
async def requests(club_id: ClubId, player: LimitedPlayer, db: DatabaseDep,
                   kind: Literal["request", "invite"] = "request", offset: Offset = 0,
                   limit: Limit = 50) -> ClubRequests:
    """Who asked to join (or, `kind=invite`, who was invited): for the admins."""
    with _refusals():
        return await clubs.requests(db, player, club_id, kind, offset, limit)


@router.post("/clubs/{club_id}/requests/{name}", responses=_failures(401, 403, 404),
             response_model=None)
async def accept(club_id: ClubId, name: str, player: LimitedPlayer, db: DatabaseDep
                 ) -> ClubMemberInfo:
    with _refusals():
        return await clubs.accept(db, player, club_id, name)


@router.delete("/clubs/{club_id}/requests/{name}", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 403, 404))
async def refuse_request(club_id: ClubId, name: str, player: LimitedPlayer, db: DatabaseDep
                         ) -> Response:
    with _refusals():
        await clubs.refuse(db, player, club_id, name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/clubs/{club_id}/invite", status_code=status.HTTP_201_CREATED,
             responses=_failures(401, 403, 404, 409, 429), response_model=None)
async def invite(club_id: ClubId, body: Invitation, player: LimitedPlayer, db: DatabaseDep,
                 live: LiveDep) -> ClubJoined:
    await _spend(live, {f"club-invite:{player.id}": INVITE_BUDGET})
    with _refusals():
        return await clubs.invite(db, player, club_id, body.name)


@router.get("/clubs/{club_id}/members", responses=_failures(404), response_model=None)
async def members(club_id: ClubId, db: DatabaseDep, offset: Offset = 0, limit: Limit = 50
                  ) -> ClubMembers:
    with _refusals():
        return await clubs.members(db, club_id, offset, limit)


@router.post("/clubs/{club_id}/members/{name}", responses=_failures(401, 403, 404, 409),
             response_model=None)
async def set_role(club_id: ClubId, name: str, body: RoleChange, player: LimitedPlayer,
                   db: DatabaseDep) -> ClubMemberInfo:
    with _refusals():
        return await clubs.set_role(db, player, club_id, name, body.role)


@router.delete("/clubs/{club_id}/members/{name}", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 403, 404))
async def remove(club_id: ClubId, name: str, player: LimitedPlayer, db: DatabaseDep
                 ) -> Response:
    with _refusals():
        await clubs.remove(db, player, club_id, name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
