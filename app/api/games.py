"""Stored records of finished games (domino-record/1) and their positions for replays."""

from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import SessionDep
from app.api.i18n import Refusal
from app.api.schemas import Detail, GameRecord
from app.engine import replay_positions
from app.services.durable import standings
from app.wire.answers import ReplayPositions

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("/{game_id}", responses={404: {"model": Detail}})
async def game(game_id: str, session: SessionDep) -> GameRecord:
    record = await standings.game_record(session, game_id)
    if record is None:
        raise Refusal(status.HTTP_404_NOT_FOUND, "no_game")
    return record


@router.get("/{game_id}/positions", responses={404: {"model": Detail}}, response_model=None)
async def positions(game_id: str, session: SessionDep) -> ReplayPositions:
    """Every position of a finished game with every hand, as the engine replays it, and
    each seat's bot strength (null: a person) for the replay's names."""
    record = await standings.game_record(session, game_id)
    if record is None:
        raise Refusal(status.HTTP_404_NOT_FOUND, "no_game")
    found = replay_positions(record)
    bots = await standings.game_bots(session, game_id, list(record.get("players") or []))
    return {"game_id": game_id, "positions": found, "bots": bots}
