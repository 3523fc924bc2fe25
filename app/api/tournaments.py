"""Tournaments over HTTP (PROTOCOL §2b): create, list, read, join, leave, start, cancel."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, status
from pydantic import BaseModel, Field

from app.api.deps import DatabaseDep
from app.api.ratelimit import LimitedPlayer, client_address, refuse, take
from app.api.schemas import STRICT, EpochMs
from app.api.tables import LiveDep, _failures, _refusals
from app.config import settings
from app.live.ratelimit import Budget
from app.services.gathering import tournaments
from app.services.tables.lobby import DEFAULT_RESERVE, MAX_RESERVE
from app.wire.answers import TournamentListed
from app.wire.messages import TournamentInfo

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


ClubNumber = Annotated[int, Field(ge=1, le=2**31 - 1)]


class Battle(BaseModel):
    model_config = STRICT
    clubs: list[ClubNumber] = Field(min_length=2, max_length=10)
    leaders: int = Field(5, ge=1, le=20)


class TournamentCreate(BaseModel):
    model_config = STRICT
    name: str = Field(min_length=1, max_length=80)
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int = Field(4, ge=2, le=8)
    format: Literal["swiss", "arena"]
    minutes: int | None = Field(None, ge=5, le=180)
    rounds: int | None = Field(None, ge=1, le=15)
    turn_seconds: int = Field(30, ge=5, le=300)
    round_pause_seconds: int = Field(5, ge=0, le=30)
    # PROTOCOL §2g: each player's reserve at the tournament's tables (a timeout there
    # always ends the game)
    reserve_seconds: int = Field(DEFAULT_RESERVE, ge=0, le=MAX_RESERVE)
    rated: bool = True
    starts_at: EpochMs | None = None
    max_players: int = Field(1000, ge=4, le=1000)
    private: bool = False
    # PROTOCOL §2e: a club tournament (its members only), or a team battle of clubs
    club: ClubNumber | None = None
    battle: Battle | None = None


class TournamentJoin(BaseModel):
    """PROTOCOL §2e as built: in a team battle, the club to play for (else the first of
    its clubs the player is a member of)."""

    model_config = STRICT
    club: ClubNumber | None = None



@router.post("", status_code=status.HTTP_201_CREATED,
             responses=_failures(401, 403, 404, 409, 422, 429),
             response_model=None)
async def create(body: TournamentCreate, player: LimitedPlayer, db: DatabaseDep,
                 live: LiveDep, request: Request) -> TournamentInfo:
    # Budgets of their own, per player and per address, on every process together: a
    # tournament is listed for everyone and its director works for it at every tick.
    verdict = await take(live, {
        f"tcreate:{player.id}": Budget(settings.tournament_create_rate,
                                       settings.tournament_create_burst),
        f"tcreate-addr:{client_address(request.scope)}": Budget(
            settings.tournament_address_rate, settings.tournament_address_burst),
    }, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)
    ask = tournaments.TournamentRequest(
        name=body.name, variant=body.variant, options=body.options, seats=body.seats,
        format=body.format, minutes=body.minutes, rounds=body.rounds,
        turn_seconds=body.turn_seconds, round_pause_seconds=body.round_pause_seconds,
        rated=body.rated, starts_at=body.starts_at, max_players=body.max_players,
        private=body.private, reserve_seconds=body.reserve_seconds, club=body.club,
        battle_clubs=None if body.battle is None else tuple(body.battle.clubs),
        battle_leaders=5 if body.battle is None else body.battle.leaders)
    with _refusals():
        return await tournaments.create(db, player, ask, live.store.keys.prefix)


@router.get("", response_model=None)
async def listing(db: DatabaseDep,
                  status: Literal["waiting", "running", "finished", "cancelled"] | None = None,
                  offset: int = Query(0, ge=0, le=100_000),
                  limit: int = Query(tournaments.LISTED, ge=1, le=tournaments.LISTED),
                  club: int | None = Query(None, ge=1, le=2**31 - 1),
                  ) -> list[TournamentListed]:
    return await tournaments.listing(db, status, offset, limit, club)


@router.get("/{tournament_id}", responses=_failures(404), response_model=None)
async def read(tournament_id: str, db: DatabaseDep) -> TournamentInfo:
    with _refusals():
        return await tournaments.describe(db, tournament_id)


@router.post("/{tournament_id}/join", responses=_failures(401, 403, 404, 409),
             response_model=None)
async def join(tournament_id: str, player: LimitedPlayer, db: DatabaseDep, live: LiveDep,
               body: TournamentJoin | None = None) -> TournamentInfo:
    with _refusals():
        await tournaments.join(db, player, tournament_id, None if body is None else body.club)
    await live.tournaments.changed(tournament_id)
    live.director.kick()
    return await tournaments.describe(db, tournament_id)


@router.post("/{tournament_id}/leave", responses=_failures(401, 404, 409), response_model=None)
async def leave(tournament_id: str, player: LimitedPlayer, db: DatabaseDep, live: LiveDep
                ) -> TournamentInfo:
    with _refusals():
        await tournaments.leave(db, player, tournament_id)
    await live.tournaments.changed(tournament_id)
    return await tournaments.describe(db, tournament_id)


@router.post("/{tournament_id}/start", responses=_failures(401, 403, 404, 409), response_model=None)
async def start(tournament_id: str, player: LimitedPlayer, db: DatabaseDep, live: LiveDep
                ) -> TournamentInfo:
    with _refusals():
        await tournaments.start(db, player, tournament_id)
    await live.tournaments.changed(tournament_id)
    live.director.kick()
    return await tournaments.describe(db, tournament_id)


@router.post("/{tournament_id}/cancel", responses=_failures(401, 403, 404, 409),
             response_model=None)
async def cancel(tournament_id: str, player: LimitedPlayer, db: DatabaseDep, live: LiveDep
                 ) -> TournamentInfo:
    with _refusals():
        await tournaments.cancel(db, player, tournament_id)
    await live.tournaments.changed(tournament_id)
    return await tournaments.describe(db, tournament_id)
