"""Leaderboards per variant, by cumulative points or by Glicko-2 skill."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from pydantic import AfterValidator

from app.api.deps import SessionDep
from app.api.schemas import Leaderboard
from app.services import variants
from app.services.durable import standings

router = APIRouter(prefix="/api/leaderboard", tags=["leaderboard"])


def playable(variant: str) -> str:
    """A variant the engine plays (a leaderboard of one nobody played yet is empty)."""
    if not variants.is_playable(variant):
        raise ValueError(f"unknown variant; playable: {', '.join(variants.names())}")
    return variant


@router.get("")
async def leaderboard(
    session: SessionDep,
    variant: Annotated[str, AfterValidator(playable)] = "goat",
    sort: Literal["points", "skill"] = "points",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    # the database counts rows in 64 bits
    offset: Annotated[int, Query(ge=0, le=2**63 - 1)] = 0,
) -> Leaderboard:
    board = await standings.leaderboard(session, variant, sort, limit, offset)
    return Leaderboard.model_validate(board)
