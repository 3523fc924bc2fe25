"""Reports and moderation over HTTP (PROTOCOL §2h): a player reports another; moderators
read the reports, a player's file and the audit log, and act. Every route spends the
caller's budget of commands (on every process together); a report and a moderator's
action have budgets of their own too; every list pages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status
from pydantic import BaseModel, Field, field_validator, model_validator

from app.api.ratelimit import LimitedPlayer, refuse, take
from app.api.schemas import STRICT, EpochMs
from app.api.tables import LiveDep, _failures, _refusals
from app.live.ratelimit import Budget
from app.services.accounts.credentials import PlayerRef
from app.services.moderation import reports
from app.services.moderation.actions import ActionRequest, require_moderator
from app.services.moderation.files import player_file
from app.services.moderation.shapes import log_entry
from app.wire.moderation import (
    Action,
    ActionDone,
    LogPage,
    NoticePage,
    PlayerFile,
    ReportInfo,
    ReportPage,
    ReportReason,
)

router = APIRouter(prefix="/api", tags=["moderation"])

Limit = Annotated[int, Query(ge=1, le=100)]
Offset = Annotated[int, Query(ge=0, le=100_000)]
Name = Annotated[str | None, Query(max_length=80)]

# A player's reports: five at once, then one a minute; a moderator's reads and actions:
# two a second, sixty at once. Each on every process together.
REPORT_BUDGET = Budget(1 / 60, 5)
MODERATOR_BUDGET = Budget(2, 60)

REASON_CHARS = 500
TEXT_CHARS = 1000


def _reason(value: str) -> str:
    if not value.strip():
        raise ValueError("a reason is required")
    return value.strip()


class ReportBody(BaseModel):
    model_config = STRICT
    name: str = Field(max_length=80)
    reason: ReportReason
    game_id: str | None = Field(None, max_length=64)
    text: str | None = Field(None, max_length=TEXT_CHARS)


class CloseBody(BaseModel):
    model_config = STRICT
    reason: str = Field(min_length=1, max_length=REASON_CHARS)

    _said = field_validator("reason")(_reason)


class ActionBody(BaseModel):
    model_config = STRICT
    action: Action
    reason: str = Field(min_length=1, max_length=REASON_CHARS)
    minutes: int | None = Field(None, ge=1, le=60 * 24 * 30)  # mute: up to 30 days
    days: int | None = Field(None, ge=1, le=3650)  # suspend: none until lifted
    name: str | None = Field(None, max_length=80)  # rename
    game_ids: list[Annotated[str, Field(max_length=64)]] | None = Field(None, min_length=1,
                                                                          max_length=200)
    since: EpochMs | None = None  # remove_gains: games finished in [since, until)
    until: EpochMs | None = None
    report_id: int | None = Field(None, ge=1, le=2**31 - 1)

    _said = field_validator("reason")(_reason)

    @model_validator(mode="after")
    def _needs(self) -> ActionBody:
        if self.action == "mute" and self.minutes is None:
            raise ValueError("mute needs minutes")
        if self.action == "rename" and not self.name:
            raise ValueError("rename needs a name")
        if self.action == "remove_gains":
            if (self.game_ids is None) == (self.since is None):
                raise ValueError("remove_gains needs game_ids or since (not both)")
            if self.since is not None and self.until is not None and self.until <= self.since:
                raise ValueError("until must come after since")
        return self

    def request(self) -> ActionRequest:
        def moment(ms: int | None) -> datetime | None:
            return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC)

        return ActionRequest(self.action, self.reason, self.minutes, self.days, self.name,
                             tuple(self.game_ids or ()), moment(self.since),
                             moment(self.until), self.report_id)


async def _spend(request: Request, key: str, budget: Budget) -> None:
    verdict = await take(request.app.state.live, {key: budget}, "http")
    if not verdict.allowed:
        raise refuse(verdict.retry_ms)


async def moderator(request: Request, player: LimitedPlayer, live: LiveDep) -> PlayerRef:
    """The caller, if he is a moderator now (403 otherwise), within a moderator's budget."""
    with _refusals():
        await require_moderator(live.db, player.id)
    await _spend(request, f"mod:{player.id}",
                 MODERATOR_BUDGET)
    return player


Moderator = Annotated[PlayerRef, Depends(moderator)]


@router.post("/reports", status_code=status.HTTP_201_CREATED,
             responses=_failures(401, 404, 409, 429), response_model=None)
async def report(body: ReportBody, player: LimitedPlayer, live: LiveDep, request: Request,
                 response: Response) -> ReportInfo:
    """Report a player (201); the same report open already is answered as it is (200)."""
    await _spend(request, f"report:{player.id}", REPORT_BUDGET)
    with _refusals():
        filed, new = await reports.file(live.db, player.id, body.name, body.reason,
                                        body.game_id, body.text)
    if not new:
        response.status_code = status.HTTP_200_OK
    return filed


class SeenBody(BaseModel):
    model_config = STRICT
    entry: int = Field(ge=1, le=2**31 - 1)


@router.get("/me/notices", responses=_failures(401), response_model=None)
async def my_notices(player: LimitedPlayer, live: LiveDep) -> NoticePage:
    """What moderators did about the caller that he has not read yet (PROTOCOL §2h)."""
    return await live.moderation.unseen(player.id)


@router.post("/me/notices/seen", status_code=status.HTTP_204_NO_CONTENT,
             responses=_failures(401))
async def notices_seen(body: SeenBody, player: LimitedPlayer, live: LiveDep) -> Response:
    """He has read his notices up to `entry`."""
    await live.moderation.seen(player.id, body.entry)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/mod/reports", responses=_failures(401, 403, 404), response_model=None)
async def open_reports(mod: Moderator, live: LiveDep,
                       report_status: Annotated[Literal["open", "closed"],
                                                Query(alias="status")] = "open",
                       name: Name = None, limit: Limit = 50, offset: Offset = 0) -> ReportPage:
    with _refusals():
        return await reports.listing(live.db, report_status, limit, offset, name)


@router.post("/mod/reports/{report_id}/close", responses=_failures(401, 403, 404, 409),
             response_model=None)
async def close_report(report_id: Annotated[int, Path(ge=1, le=2**31 - 1)], body: CloseBody,
                       mod: Moderator, live: LiveDep) -> ReportInfo:
    with _refusals():
        return await reports.close(live.db, mod.id, report_id, body.reason)


@router.get("/mod/players/{name}", responses=_failures(401, 403, 404), response_model=None)
async def player(name: Annotated[str, Path(max_length=80)], mod: Moderator,
                 live: LiveDep) -> PlayerFile:
    with _refusals():
        return await player_file(live.db, live.chat_log, name)


@router.post("/mod/players/{name}/actions", responses=_failures(401, 403, 404, 409),
             response_model=None)
async def act(name: Annotated[str, Path(max_length=80)], body: ActionBody, mod: Moderator,
              live: LiveDep) -> ActionDone:
    with _refusals():
        return await live.moderation.act(mod.id, name, body.request())


@router.get("/mod/log", responses=_failures(401, 403, 404), response_model=None)
async def audit_log(mod: Moderator, live: LiveDep, name: Name = None, limit: Limit = 50,
                    offset: Offset = 0) -> LogPage:
    with _refusals():
        entries = await live.moderation.log(name, limit, offset)
    return {"entries": [log_entry(entry) for entry in entries]}
