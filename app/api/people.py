"""People over HTTP (PROTOCOL §2c): friends, blocks, challenges and the tables one sits at.
Every route spends the caller's budget of commands (on every process together); every
list pages (`limit`, `offset`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response, status
from pydantic import Field

from app.api.ratelimit import LimitedPlayer
from app.api.tables import (
    LiveDep,
    TableCreate,
    _failures,
    _refusals,
    open_table,
    seat_player,
)
from app.services.accounts.credentials import PlayerRef
from app.services.tables import seated
from app.services.tables.transact import public_table
from app.wire.messages import ChallengeInfo, TableInfo

router = APIRouter(prefix="/api", tags=["people"])

Limit = Annotated[int, Query(ge=1, le=100)]
Offset = Annotated[int, Query(ge=0, le=100_000)]


# -- friends ----------------------------------------------------------------------------


@router.post("/friends/{name}", status_code=status.HTTP_201_CREATED,
             responses=_failures(401, 403, 404, 409))
async def befriend(name: str, player: LimitedPlayer, live: LiveDep,
                   response: Response) -> dict[str, str]:
    """Ask to be friends (201 "requested"), or accept his request (200 "friends")."""
    with _refusals():
        answer = await live.friends.ask(player.id, player.name, name)
    if answer == "friends":
        response.status_code = status.HTTP_200_OK
    return {"status": answer}


@router.delete("/friends/{name}", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 404, 409))
async def unfriend(name: str, player: LimitedPlayer, live: LiveDep) -> Response:
    with _refusals():
        await live.friends.drop(player.id, player.name, name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/friends", responses=_failures(401))
async def friends(player: LimitedPlayer, live: LiveDep, limit: Limit = 50,
                  offset: Offset = 0) -> dict[str, Any]:
    return await live.friends.listing(player.id, limit, offset)


# -- blocks -----------------------------------------------------------------------------


@router.post("/blocks/{name}", status_code=status.HTTP_204_NO_CONTENT,
             responses=_failures(401, 404, 409))
async def block(name: str, player: LimitedPlayer, live: LiveDep) -> Response:
    with _refusals():
        await live.blocks.block(player.id, name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/blocks/{name}", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 404))
async def unblock(name: str, player: LimitedPlayer, live: LiveDep) -> Response:
    with _refusals():
        await live.blocks.unblock(player.id, name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/blocks", responses=_failures(401))
async def blocks(player: LimitedPlayer, live: LiveDep, limit: Limit = 50,
                 offset: Offset = 0) -> list[str]:
    return await live.blocks.listing(player.id, limit, offset)


# -- challenges -------------------------------------------------------------------------


class ChallengeCreate(TableCreate):
    """A table's settings (whatever `POST /api/tables` takes) and whom they are for."""

    to: str = Field(max_length=80)
    seats: int = 2


def _settings(body: ChallengeCreate) -> dict[str, Any]:
    return body.model_dump(exclude={"to", "variant", "seats", "private"})


@router.post("/challenges", status_code=status.HTTP_201_CREATED,
             responses=_failures(401, 403, 404, 409, 422, 429), response_model=None)
async def challenge(body: ChallengeCreate, player: LimitedPlayer,
                    live: LiveDep) -> ChallengeInfo:
    with _refusals():
        return await live.challenges.send(player.id, body.to, body.variant, body.seats,
                                          _settings(body))


@router.post("/challenges/{challenge_id}/accept",
             responses=_failures(401, 403, 404, 409), response_model=None)
async def accept(challenge_id: str, player: LimitedPlayer, live: LiveDep) -> ChallengeInfo:
    """A private table made as any table is (its creator the challenger, in seat 0), the
    accepting player seated beside him: with two seats the game starts at once."""
    with _refusals():
        taken = await live.challenges.claim(challenge_id, player.id)
    try:
        body = TableCreate.model_validate({**taken.settings, "variant": taken.variant,
                                           "seats": taken.seats, "private": True})
        table = await open_table(body, PlayerRef(taken.from_id, taken.from_name), live)
        await seat_player(table["id"], player, live)
    except BaseException:
        await live.challenges.released(taken.id)
        raise
    with _refusals():
        return await live.challenges.placed(taken.id, table["id"])


@router.post("/challenges/{challenge_id}/decline", responses=_failures(401, 404, 409),
             response_model=None)
async def decline(challenge_id: str, player: LimitedPlayer, live: LiveDep) -> ChallengeInfo:
    with _refusals():
        return await live.challenges.decline(challenge_id, player.id)


@router.delete("/challenges/{challenge_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 404, 409))
async def withdraw(challenge_id: str, player: LimitedPlayer, live: LiveDep) -> Response:
    with _refusals():
        await live.challenges.withdraw(challenge_id, player.id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/challenges", responses=_failures(401), response_model=None)
async def challenges(player: LimitedPlayer, live: LiveDep, limit: Limit = 50,
                     offset: Offset = 0) -> dict[str, list[ChallengeInfo]]:
    return await live.challenges.listing(player.id, limit, offset)


# -- my tables --------------------------------------------------------------------------


@router.get("/me/tables", responses=_failures(401), response_model=None)
async def my_tables(player: LimitedPlayer, live: LiveDep) -> list[TableInfo]:
    """Every waiting or playing table the caller sits at, private ones too (at most
    `seated.KEPT`, the newest first)."""
    with _refusals():
        return [public_table(t) for t in await seated.tables_of(live.store, player.id)]
