"""Reports (PROTOCOL §2h): a player tells the moderators about another. One open report
per reporter, reported player and reason: the same report sent again is answered with
the one open already; nobody reports himself."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from app.db import moderation
from app.db.models import utcnow
from app.db.moderation import NewEntry
from app.db.session import Database
from app.domain.text import readable
from app.services.errors import ServiceError
from app.services.moderation.shapes import report_info
from app.services.people import directory
from app.wire.moderation import ReportInfo, ReportPage, ReportReason


async def file(db: Database, reporter_id: int, name: str, reason: ReportReason,
               game_id: str | None, text: str | None) -> tuple[ReportInfo, bool]:
    """The report, and whether it is new (False: the same one was open already)."""
    text = readable(text).strip() if text is not None else None
    async with db.writing() as session:
        reported = await directory.find(session, name)
        if reported.id == reporter_id:
            raise ServiceError("bad_request", "report_yourself", 409)
        if game_id is not None:
            played = await moderation.played_in(session, game_id, reported.id)
            if played is None:
                raise ServiceError("not_found", "no_game", 404)
            if not played:
                raise ServiceError("bad_request", "report_not_in_game", 422, name=reported.name)
        held = await moderation.open_report(session, reporter_id, reported.id, reason)
        new = held is None
        if held is None:
            try:
                async with session.begin_nested():
                    held = await moderation.add_report(session, reporter_id, reported.id,
                                                       reason, game_id, text or None)
            except IntegrityError:  # the same report, sent twice at once
                new = False
                held = await moderation.open_report(session, reporter_id, reported.id,
                                                    reason)
        row = await moderation.report(session, held) if held is not None else None
    if row is None:
        raise ServiceError("not_found", "no_report", 404)
    return report_info(row), new


async def listing(db: Database, status: str, limit: int, offset: int,
                  name: str | None = None) -> ReportPage:
    async with db.session() as session:
        reported = None if name is None else (await directory.find(session, name)).id
        total, rows = await moderation.reports(session, status, limit, offset, reported)
    return {"total": total, "reports": [report_info(row) for row in rows]}


async def close(db: Database, moderator_id: int, report_id: int, reason: str) -> ReportInfo:
    """Close an open report with the moderator's reason, in the audit log."""
    async with db.writing() as session:
        row = await moderation.report(session, report_id)
        if row is None:
            raise ServiceError("not_found", "no_report", 404)
        if not await moderation.close_report(session, report_id, moderator_id, utcnow()):
            raise ServiceError("bad_request", "report_closed", 409)
        await moderation.write(session, NewEntry(
            moderator_id, row.reported_id, "close_report", reason,
            {"reason": row.reason}, report_id=report_id))
        closed = await moderation.report(session, report_id)
    assert closed is not None
    return report_info(closed)
