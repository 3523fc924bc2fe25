"""Quick pairing over HTTP (PROTOCOL §2b): open, list and cancel seeks."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Response, status
from pydantic import BaseModel, Field

from app.api.i18n import Refusal
from app.api.ratelimit import LimitedPlayer
from app.api.schemas import STRICT
from app.api.tables import LiveDep, _failures
from app.services.gathering.seeks import LISTED, SeekRequest
from app.services.tables.lobby import DEFAULT_RESERVE, MAX_RESERVE
from app.services.tables.transact import ServiceError
from app.wire.answers import SeekInfo, SeekOpened

router = APIRouter(prefix="/api/seeks", tags=["seeks"])


class SeekCreate(BaseModel):
    model_config = STRICT
    variant: str
    seats: int = Field(4, ge=2, le=8)
    options: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: int = Field(30, ge=5, le=300)
    rated: bool = True
    # PROTOCOL §2g, as at a table
    reserve_seconds: int = Field(DEFAULT_RESERVE, ge=0, le=MAX_RESERVE)
    on_timeout: Literal["end", "computer"] | None = None
    # [lo, hi] of the variant's skill rating
    rating_range: list[int | float] | None = Field(None, min_length=2, max_length=2)


@router.post("", status_code=status.HTTP_201_CREATED, responses=_failures(401, 409, 422),
             response_model=None)
async def open_seek(body: SeekCreate, player: LimitedPlayer, live: LiveDep) -> SeekOpened:
    span = None if body.rating_range is None else \
        (float(body.rating_range[0]), float(body.rating_range[1]))
    ask = SeekRequest(body.variant, body.seats, body.options, body.turn_seconds, body.rated, span,
                      body.reserve_seconds, body.on_timeout)
    try:
        return await live.seeks.open(player, ask)
    except ServiceError as error:
        raise Refusal.of(error) from error


@router.get("", response_model=None)
async def list_seeks(live: LiveDep, offset: int = Query(0, ge=0, le=100_000),
                     limit: int = Query(LISTED, ge=1, le=LISTED)) -> list[SeekInfo]:
    """The open seeks, the oldest first, a page of them."""
    return await live.seeks.list_open(offset, limit)


@router.delete("/{seek_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses=_failures(401, 404))
async def cancel_seek(seek_id: str, player: LimitedPlayer, live: LiveDep) -> Response:
    try:
        await live.seeks.cancel(player.id, seek_id)
    except ServiceError as error:
        raise Refusal.of(error) from error
    return Response(status_code=status.HTTP_204_NO_CONTENT)
