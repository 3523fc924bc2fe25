"""The moderators' actions (PROTOCOL §2h): warn, mute and unmute chat, suspend and lift a
suspension, rename, remove rating gains. Each is one database transaction that changes
the player and appends its line to the audit log (closing the report it answers, if
named); then its effect reaches every process at once: a suspended or renamed player's
sessions are revoked (his sockets close everywhere), a mute is marked in the live store
that every chat line reads, and the player is told on each of his sockets."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import moderation, players
from app.db.models import SKILL_START, utcnow
from app.db.moderation import EntryRow, NewEntry, SeatGain, Standing
from app.db.session import Database
from app.domain import names
from app.live.chat_log import ChatLog
from app.services.accounts.sessions import Sessions
from app.services.errors import ServiceError
from app.services.fanout.notices import PlayerNotices
from app.services.moderation.shapes import (
    TOLD,
    active,
    epoch_ms,
    log_entry,
    notice,
    standing_info,
)
from app.services.people import directory
from app.wire.moderation import Action, ActionDone, NoticePage

# The most notices one reading of his unread ones gives.
NOTICES_MAX = 20
# The most games one removal of rating gains touches (a wider window is done in steps).
GAINS_MAX = 500


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """One action as a moderator asked for it (the API has checked the bounds)."""

    action: Action
    reason: str
    minutes: int | None = None  # mute
    days: int | None = None  # suspend: None until lifted
    name: str | None = None  # rename
    game_ids: tuple[str, ...] = field(default_factory=tuple)  # remove_gains
    since: datetime | None = None  # remove_gains: games finished in [since, until)
    until: datetime | None = None
    report_id: int | None = None


@dataclass(frozen=True, slots=True)
class _Done:
    standing: Standing
    details: dict[str, Any]
    former_key: str | None = None


async def require_moderator(db: Database, player_id: int) -> None:
    """403 unless the player is a moderator now (read each time: a role taken back is
    taken back at once, on every process)."""
    async with db.session() as session:
        if not await moderation.is_moderator(session, player_id):
            raise ServiceError("unauthorized", "moderators_only", 403)


class Moderation:
    def __init__(self, db: Database, chat: ChatLog, sessions: Sessions,
                 notices: PlayerNotices) -> None:
        self.db = db
        self.chat = chat
        self.sessions = sessions
        self.notices = notices

    async def log(self, name: str | None, limit: int, offset: int) -> list[EntryRow]:
        """A page of the audit log (about one player, if named), the newest first."""
        async with self.db.session() as session:
            player_id = None if name is None else (await directory.find(session, name)).id
            return await moderation.entries(session, limit, offset, player_id)

    async def act(self, moderator_id: int, name: str, request: ActionRequest) -> ActionDone:
        now = utcnow()
        async with self.db.writing() as session:
            found = await directory.find(session, name)
            if found.id == moderator_id:
                raise ServiceError("bad_request", "mod_yourself", 409)
            standing = await moderation.standing(session, found.id, lock=True)
            if standing is None or standing.deleted:
                raise ServiceError("not_found", "no_player", 404)
            if standing.moderator:
                raise ServiceError("unauthorized", "mod_on_moderator", 403)
            if request.report_id is not None:
                await self._close_report(session, moderator_id, found.id, request.report_id,
                                         now)
            done = await self._change(session, standing, request, now)
            entry_id = await moderation.write(session, NewEntry(
                moderator_id, found.id, request.action, request.reason, done.details,
                report_id=request.report_id, former_key=done.former_key))
            entry = next(e for e in await moderation.entries(session, 1, 0, found.id)
                         if e.id == entry_id)
        await self._take_effect(found.id, request, done, entry)
        return {"entry": log_entry(entry), "player": standing_info(done.standing, now)}

    async def _close_report(self, session: AsyncSession, moderator_id: int, player_id: int,
                            report_id: int, now: datetime) -> None:
        report = await moderation.report(session, report_id)
        if report is None or report.reported_id != player_id:
            raise ServiceError("not_found", "no_report", 404)
        if not await moderation.close_report(session, report_id, moderator_id, now):
            raise ServiceError("bad_request", "report_closed", 409)

    async def _change(self, session: AsyncSession, standing: Standing,
                      request: ActionRequest, now: datetime) -> _Done:
        pid = standing.id
        if request.action == "warn":
            return _Done(standing, {})
        if request.action == "unmute" and not (
                standing.muted_until is not None and active(standing.muted_until, now)):
            raise ServiceError("bad_request", "mod_nothing_to_lift", 409)
        if request.action == "unsuspend" and not (
                standing.suspension is not None and active(standing.suspended_until, now)):
            raise ServiceError("bad_request", "mod_nothing_to_lift", 409)
        if request.action in ("mute", "unmute"):
            until = now + timedelta(minutes=request.minutes or 0) \
                if request.action == "mute" else None
            await moderation.set_mute(session, pid, until)
            return _Done(_with(standing, muted_until=until),
                         {"until": None if until is None else epoch_ms(until),
                          "minutes": request.minutes} if until else {})
        if request.action in ("suspend", "unsuspend"):
            if request.action == "unsuspend":
                await moderation.set_suspension(session, pid, None, None)
                return _Done(_with(standing, suspension=None, suspended_until=None), {})
            until = None if request.days is None else now + timedelta(days=request.days)
            await moderation.set_suspension(session, pid, request.reason, until)
            return _Done(_with(standing, suspension=request.reason, suspended_until=until),
                         {"until": None if until is None else epoch_ms(until),
                          "days": request.days})
        if request.action == "rename":
            return await self._rename(session, standing, request.name or "")
        return await self._remove_gains(session, standing, request)

    async def _rename(self, session: AsyncSession, standing: Standing, name: str) -> _Done:
        new = names.normal(name)
        problem = names.problem(new)
        if problem is not None:
            raise ServiceError("bad_request", "mod_bad_name", 422)
        key, skeleton = names.key(new), names.skeleton(new)
        former = names.key(standing.name)
        if key != former and await players.taken(session, key, skeleton):
            raise ServiceError("bad_request", "name_taken", 409)
        await moderation.rename(session, standing.id, new, key, skeleton)
        return _Done(_with(standing, name=new), {"from": standing.name, "to": new},
                     former_key=former if former != key else None)

    async def _remove_gains(self, session: AsyncSession, standing: Standing,
                            request: ActionRequest) -> _Done:
        chosen = await moderation.gains(session, standing.id, game_ids=request.game_ids,
                                        since=request.since, until=request.until,
                                        limit=GAINS_MAX)
        if not chosen:
            raise ServiceError("bad_request", "mod_no_gains", 409)
        by_variant: dict[str, list[SeatGain]] = {}
        for gain in chosen:
            by_variant.setdefault(gain.variant, []).append(gain)
        points: dict[str, int] = {}
        skill: dict[str, float] = {}
        for variant in sorted(by_variant):
            games = by_variant[variant]
            await moderation.lock_rating(session, standing.id, variant)
            points[variant] = sum(g.points for g in games)
            skill[variant] = sum(_skill_delta(g) for g in games)
            await moderation.remove_gains(session, standing.id, variant,
                                          [g.game_id for g in games], points[variant],
                                          skill[variant])
        return _Done(standing, {
            "games": [{"game_id": g.game_id, "variant": g.variant, "points": g.points,
                       "skill": round(_skill_delta(g), 3)} for g in chosen],
            "points": points, "skill": {v: round(s, 3) for v, s in skill.items()},
        })

    async def _take_effect(self, player_id: int, request: ActionRequest, done: _Done,
                           entry: EntryRow) -> None:
        action = request.action
        if action in ("mute", "unmute"):
            until = done.standing.muted_until
            await self.chat.mute(player_id, 0 if until is None else epoch_ms(until))
        if action in TOLD:
            await self.notices.tell([player_id], notice(entry))
        if action in ("suspend", "rename"):
            # Every session, on every process: a suspended player is out; a renamed one
            # signs in again under his new name (no process keeps the old one).
            await self.sessions.revoke_all(player_id)

    async def unseen(self, player_id: int) -> NoticePage:
        """His notices he has not read yet (the newest `NOTICES_MAX`)."""
        async with self.db.session() as session:
            rows = await moderation.unseen(session, player_id, TOLD, NOTICES_MAX)
        return {"notices": [notice(row) for row in rows]}

    async def seen(self, player_id: int, entry_id: int) -> None:
        async with self.db.writing() as session:
            await moderation.mark_seen(session, player_id, entry_id)


def _skill_delta(gain: SeatGain) -> float:
    """What the game changed of his skill (RULES §1.9: the deltas are taken off)."""
    if gain.skill_after is None:
        return 0.0
    before = SKILL_START if gain.skill_before is None else gain.skill_before
    return gain.skill_after - before


def _with(standing: Standing, **changes: Any) -> Standing:
    return replace(standing, **changes)
