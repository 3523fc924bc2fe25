"""Public player pages."""

from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import SessionDep
from app.api.i18n import Refusal
from app.api.schemas import Detail, PlayerPage
from app.services.durable import standings

router = APIRouter(prefix="/api/players", tags=["players"])


@router.get("/{name}", responses={404: {"model": Detail}}, response_model_exclude_none=True)
async def player(name: str, session: SessionDep) -> PlayerPage:
    page = await standings.player_page(session, name)
    if page is None:
        raise Refusal(status.HTTP_404_NOT_FOUND, "no_player")
    return PlayerPage.model_validate(page)
