"""Reviews of finished games (PROTOCOL §2f): ask for one, read it as it is computed."""

from __future__ import annotations

from fastapi import APIRouter, Request, status

from app.api.deps import CurrentPlayer, DatabaseDep
from app.api.i18n import Refusal
from app.api.ratelimit import refuse, take
from app.api.tables import _failures
from app.config import settings
from app.live.ratelimit import Budget
from app.services.durable import reviews
from app.services.errors import ServiceError

router = APIRouter(prefix="/api/games", tags=["reviews"])


@router.post("/{game_id}/review", status_code=status.HTTP_202_ACCEPTED,
             responses=_failures(401, 404, 429), response_model=None)
async def ask(game_id: str, request: Request, player: CurrentPlayer, db: DatabaseDep
              ) -> reviews.ReviewAnswer:
    """Queue the review of a finished game (once per game; asking again is answered with
    the review as it stands). Each player has a budget of reviews asked for."""
    budget = Budget(settings.review_rate, settings.review_burst)
    verdict = await take(request.app.state.live, {f"review:{player.id}": budget}, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)
    try:
        return await reviews.ask(db, game_id, reviews.budget_of(settings.review_budget),
                                 settings.review_queue_max)
    except ServiceError as error:
        raise Refusal.of(error) from error


@router.get("/{game_id}/review", responses=_failures(404), response_model=None)
async def read(game_id: str, db: DatabaseDep) -> reviews.ReviewAnswer:
    try:
        return await reviews.read(db, game_id, reviews.budget_of(settings.review_budget))
    except ServiceError as error:
        raise Refusal.of(error) from error
