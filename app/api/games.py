"""Stored records of finished games (domino-record/1) and their positions for replays."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.api.deps import SessionDep
from app.api.i18n import Refusal
from app.api.packed import gzipped_json
from app.api.schemas import Detail, GameRecord
from app.api.tables import LiveDep
from app.services.durable import standings

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("/{game_id}", responses={404: {"model": Detail}})
async def game(game_id: str, session: SessionDep) -> GameRecord:
    record = await standings.game_record(session, game_id)
    if record is None:
        raise Refusal(status.HTTP_404_NOT_FOUND, "no_game")
    return record


@router.get("/{game_id}/positions", responses={404: {"model": Detail}}, response_model=None)
async def positions(game_id: str, live: LiveDep, request: Request) -> Response:
    """Every position of a finished game with every hand, as the engine replays it, and
    each seat's bot strength (null: a person) for the replay's names (`ReplayPositions`):
    computed once a game, for every process."""
    found = await live.replays.positions_gzipped(game_id)
    if found is None:
        raise Refusal(status.HTTP_404_NOT_FOUND, "no_game")
    return gzipped_json(request, found)
