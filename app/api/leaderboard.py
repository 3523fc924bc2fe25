"""Leaderboards per variant, by cumulative points or by Glicko-2 skill."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.deps import SessionDep
from app.api.schemas import Leaderboard
from app.services import standings

router = APIRouter(prefix="/api/leaderboard", tags=["leaderboard"])

Variant = Literal["goat", "classic", "fives", "mexican_train", "telephone", "sea_goat", "donkey"]


@router.get("")
async def leaderboard(
    session: SessionDep,
    variant: Variant = "goat",
    sort: Literal["points", "skill"] = "points",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> Leaderboard:
    board = await standings.leaderboard(session, variant, sort, limit, offset)
    return Leaderboard.model_validate(board)
