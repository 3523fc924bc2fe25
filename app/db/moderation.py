"""Reports, the moderator role, a player's standing (suspension, chat mute) and the
append-only audit log of the moderators' actions (PROTOCOL §2h); and the seats whose
rating gains a moderator removes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import Game, GamePlayer, ModerationEntry, Player, Rating, Report


@dataclass(frozen=True, slots=True)
class Standing:
    """A player as the moderators see him."""

    id: int
    name: str
    created_at: datetime
    moderator: bool
    suspension: str | None
    suspended_until: datetime | None
    muted_until: datetime | None
    deleted: bool


@dataclass(frozen=True, slots=True)
class ReportRow:
    id: int
    reporter: str
    reported: str
    reported_id: int
    reason: str
    game_id: str | None
    text: str | None
    status: str
    created_at: datetime
    closed_at: datetime | None


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One line of the audit log, with the names as they are now."""

    id: int
    moderator: str | None  # None: an operator
    player: str
    action: str
    reason: str
    details: dict[str, Any]
    report_id: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewEntry:
    moderator_id: int | None
    player_id: int
    action: str
    reason: str
    details: dict[str, Any]
    report_id: int | None = None
    former_key: str | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """One of a player's recent games as the moderators see it."""

    game_id: str
    variant: str
    finished_at: datetime
    rated: bool
    outcome: str
    points: int
    gains_removed: bool
    table_id: str


@dataclass(frozen=True, slots=True)
class SeatGain:
    """What one rated game paid a player: its points, and his skill before and after."""

    game_id: str
    variant: str
    finished_at: datetime
    points: int
    skill_before: float | None
    skill_after: float | None


# -- the role and the standing ----------------------------------------------------------


async def standing(session: AsyncSession, player_id: int, *, lock: bool = False
                   ) -> Standing | None:
    statement = select(Player).where(Player.id == player_id)
    if lock:
        statement = statement.with_for_update()
    player = await session.scalar(statement)
    if player is None:
        return None
    return Standing(player.id, player.name, player.created_at, player.moderator,
                    player.suspension, player.suspended_until, player.muted_until,
                    player.deleted_at is not None)


async def is_moderator(session: AsyncSession, player_id: int) -> bool:
    return bool(await session.scalar(select(Player.moderator).where(
        Player.id == player_id, Player.deleted_at.is_(None))))


async def set_moderator(session: AsyncSession, player_id: int, on: bool) -> None:
    await session.execute(update(Player).where(Player.id == player_id).values(moderator=on))


async def set_suspension(session: AsyncSession, player_id: int, reason: str | None,
                         until: datetime | None) -> None:
    await session.execute(update(Player).where(Player.id == player_id).values(
        suspension=reason, suspended_until=until))


async def set_mute(session: AsyncSession, player_id: int, until: datetime | None) -> None:
    await session.execute(update(Player).where(Player.id == player_id).values(
        muted_until=until))


async def rename(session: AsyncSession, player_id: int, name: str, key: str,
                 skeleton: str) -> None:
    await session.execute(update(Player).where(Player.id == player_id).values(
        name=name, name_key=key, name_skeleton=skeleton))


async def renamed_from(session: AsyncSession, key: str) -> tuple[int, str] | None:
    """The player whose former name (before a moderator's rename) had this key, and the
    moderator's reason."""
    row = (await session.execute(
        select(ModerationEntry.player_id, ModerationEntry.reason)
        .where(ModerationEntry.former_key == key)
        .order_by(ModerationEntry.id.desc()).limit(1))).one_or_none()
    return None if row is None else (row[0], row[1])


# -- reports ----------------------------------------------------------------------------

_reporter = aliased(Player)
_reported = aliased(Player)


def _reports() -> Any:
    return (select(Report, _reporter.name, _reported.name)
            .join(_reporter, _reporter.id == Report.reporter_id)
            .join(_reported, _reported.id == Report.reported_id))


def _report_row(report: Report, reporter: str, reported: str) -> ReportRow:
    return ReportRow(report.id, reporter, reported, report.reported_id, report.reason,
                     report.game_id, report.text, report.status, report.created_at,
                     report.closed_at)


async def add_report(session: AsyncSession, reporter_id: int, reported_id: int, reason: str,
                     game_id: str | None, text: str | None) -> int:
    """A new open report's id (an IntegrityError if the same one is open already)."""
    report = Report(reporter_id=reporter_id, reported_id=reported_id, reason=reason,
                    game_id=game_id, text=text, status="open")
    session.add(report)
    await session.flush()
    return report.id


async def open_report(session: AsyncSession, reporter_id: int, reported_id: int,
                      reason: str) -> int | None:
    return await session.scalar(select(Report.id).where(
        Report.reporter_id == reporter_id, Report.reported_id == reported_id,
        Report.reason == reason, Report.status == "open"))


async def report(session: AsyncSession, report_id: int) -> ReportRow | None:
    row = (await session.execute(_reports().where(Report.id == report_id))).one_or_none()
    return None if row is None else _report_row(*row)


async def reports(session: AsyncSession, status: str, limit: int, offset: int,
                  reported_id: int | None = None) -> tuple[int, list[ReportRow]]:
    """How many reports have `status` (of one player, if given), and a page of them: the
    open ones oldest first (a queue), the closed ones newest first."""
    where = [Report.status == status]
    if reported_id is not None:
        where.append(Report.reported_id == reported_id)
    total = await session.scalar(select(func.count()).select_from(Report).where(*where))
    order = Report.id.asc() if status == "open" else Report.id.desc()
    rows = await session.execute(_reports().where(*where).order_by(order)
                                 .limit(limit).offset(offset))
    return total or 0, [_report_row(*row) for row in rows.all()]


async def close_report(session: AsyncSession, report_id: int, moderator_id: int,
                       at: datetime) -> bool:
    """Close an open report; False if it was not open."""
    closed = await session.execute(
        update(Report).where(Report.id == report_id, Report.status == "open")
        .values(status="closed", closed_at=at, closed_by=moderator_id))
    return bool(closed.rowcount)  # type: ignore[attr-defined]


# -- the audit log ----------------------------------------------------------------------


async def write(session: AsyncSession, entry: NewEntry) -> int:
    """Append one line to the audit log; its id."""
    row = ModerationEntry(moderator_id=entry.moderator_id, player_id=entry.player_id,
                          action=entry.action, reason=entry.reason, details=entry.details,
                          report_id=entry.report_id, former_key=entry.former_key)
    session.add(row)
    await session.flush()
    return row.id


async def entries(session: AsyncSession, limit: int, offset: int,
                  player_id: int | None = None) -> list[EntryRow]:
    """A page of the audit log (of one player, if given), the newest first."""
    mod, target = aliased(Player), aliased(Player)
    statement = (select(ModerationEntry, mod.name, target.name)
                 .join(target, target.id == ModerationEntry.player_id)
                 .outerjoin(mod, mod.id == ModerationEntry.moderator_id))
    if player_id is not None:
        statement = statement.where(ModerationEntry.player_id == player_id)
    rows = await session.execute(statement.order_by(ModerationEntry.id.desc())
                                 .limit(limit).offset(offset))
    return [EntryRow(e.id, moderator, player, e.action, e.reason, e.details, e.report_id,
                     e.created_at)
            for e, moderator, player in rows.all()]


# -- rating gains -----------------------------------------------------------------------


async def gains(session: AsyncSession, player_id: int, *, game_ids: Sequence[str] = (),
                since: datetime | None = None, until: datetime | None = None,
                limit: int) -> list[SeatGain]:
    """The player's rated games chosen by id, or finished in [since, until), whose gains
    are not removed yet (at most `limit`, the oldest first), each with his skill before
    it: his skill after his previous rated game in the variant (None: his first)."""
    previous = (
        func.lag(GamePlayer.skill_after)
        .over(partition_by=Game.variant, order_by=(Game.finished_at, Game.id))
    )
    his = (
        select(GamePlayer.game_id, Game.variant, Game.finished_at, GamePlayer.points,
               GamePlayer.gains_removed, GamePlayer.skill_after,
               previous.label("skill_before"))
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.player_id == player_id, Game.rated.is_(True))
    )
    if until is not None:
        his = his.where(Game.finished_at < until)
    steps = his.subquery()
    chosen = select(steps).where(steps.c.gains_removed.is_(False))
    if game_ids:
        chosen = chosen.where(steps.c.game_id.in_(list(game_ids)))
    if since is not None:
        chosen = chosen.where(steps.c.finished_at >= since)
    rows = await session.execute(
        chosen.order_by(steps.c.finished_at, steps.c.game_id).limit(limit))
    return [SeatGain(r.game_id, r.variant, r.finished_at, int(r.points), r.skill_before,
                     r.skill_after)
            for r in rows.all()]


async def remove_gains(session: AsyncSession, player_id: int, variant: str,
                       game_ids: Sequence[str], points: int, skill: float) -> None:
    """Mark the games' seats of the player as removed (their points 0) and take `points`
    and `skill` off his rating in `variant` (the caller holds the rating row)."""
    await session.execute(
        update(GamePlayer)
        .where(GamePlayer.player_id == player_id, GamePlayer.game_id.in_(list(game_ids)))
        .values(gains_removed=True, points=0))
    await session.execute(
        update(Rating).where(Rating.player_id == player_id, Rating.variant == variant)
        .values(points=Rating.points - points, skill=Rating.skill - skill))


async def lock_rating(session: AsyncSession, player_id: int, variant: str) -> None:
    """Hold the player's rating row in `variant` until the transaction ends (a game being
    paid meanwhile waits)."""
    await session.execute(select(Rating.player_id).where(
        Rating.player_id == player_id, Rating.variant == variant).with_for_update())


async def played_in(session: AsyncSession, game_id: str, player_id: int) -> bool | None:
    """Whether the player sat in the finished game (None: no such game is written)."""
    if await session.get(Game, game_id) is None:
        return None
    return await session.scalar(select(GamePlayer.seat).where(
        GamePlayer.game_id == game_id, GamePlayer.player_id == player_id)) is not None


async def recent_games(session: AsyncSession, player_id: int, limit: int) -> list[Played]:
    """The player's last `limit` games, the newest first."""
    rows = await session.execute(
        select(Game.id, Game.variant, Game.finished_at, Game.rated, GamePlayer.outcome,
               GamePlayer.points, GamePlayer.gains_removed, Game.table_id)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.player_id == player_id)
        .order_by(Game.finished_at.desc(), Game.id.desc()).limit(limit))
    return [Played(*row) for row in rows.all()]


async def unseen(session: AsyncSession, player_id: int, actions: Sequence[str], limit: int
                 ) -> list[EntryRow]:
    """The lines about the player (of these actions) newer than the last he has read,
    the newest first."""
    seen = select(Player.notices_seen).where(Player.id == player_id).scalar_subquery()
    rows = await session.execute(
        select(ModerationEntry).where(ModerationEntry.player_id == player_id,
                                      ModerationEntry.action.in_(list(actions)),
                                      ModerationEntry.id > seen)
        .order_by(ModerationEntry.id.desc()).limit(limit))
    return [EntryRow(e.id, None, "", e.action, e.reason, e.details, e.report_id,
                     e.created_at) for e in rows.scalars()]


async def mark_seen(session: AsyncSession, player_id: int, entry_id: int) -> None:
    """He has read his notices up to line `entry_id` (never going back)."""
    await session.execute(update(Player).where(
        Player.id == player_id, Player.notices_seen < entry_id).values(notices_seen=entry_id))
