"""The rows of reports, the audit log and a player's standing as the routes answer them
(app.wire.moderation), with moments in epoch ms."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

from app.db.moderation import EntryRow, ReportRow, Standing
from app.wire.moderation import (
    Action,
    LogEntry,
    Logged,
    ModerationNotice,
    PlayerStanding,
    ReportInfo,
    ReportReason,
)

# The actions a player is told of (on his sockets, and at his next visit until he has
# read them); a suspension or its end is told at signing in, a mute's end needs no word.
TOLD: tuple[Action, ...] = ("warn", "mute", "rename", "remove_gains")


def epoch_ms(moment: datetime) -> int:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return int(aware.timestamp() * 1000)


def maybe_ms(moment: datetime | None) -> int | None:
    return None if moment is None else epoch_ms(moment)


def active(until: datetime | None, now: datetime) -> bool:
    aware = None if until is None else until if until.tzinfo else until.replace(tzinfo=UTC)
    return aware is None or aware > now


def report_info(row: ReportRow) -> ReportInfo:
    return {"id": row.id, "reporter": row.reporter, "name": row.reported,
            "reason": cast(ReportReason, row.reason), "game_id": row.game_id,
            "text": row.text, "status": "open" if row.status == "open" else "closed",
            "created_at": epoch_ms(row.created_at), "closed_at": maybe_ms(row.closed_at)}


def log_entry(row: EntryRow) -> LogEntry:
    return {"id": row.id, "moderator": row.moderator, "player": row.player,
            "action": cast(Logged, row.action), "reason": row.reason,
            "details": row.details, "report_id": row.report_id,
            "at": epoch_ms(row.created_at)}


def standing_info(standing: Standing, now: datetime) -> PlayerStanding:
    suspended = standing.suspension is not None and active(standing.suspended_until, now)
    muted = standing.muted_until is not None and active(standing.muted_until, now)
    return {
        "id": standing.id, "name": standing.name,
        "created_at": epoch_ms(standing.created_at), "moderator": standing.moderator,
        "suspended": {"reason": standing.suspension or "",
                      "until": maybe_ms(standing.suspended_until)} if suspended else None,
        "muted_until": maybe_ms(standing.muted_until) if muted else None,
    }


def notice(row: EntryRow) -> ModerationNotice:
    """What the player is told of a line of the audit log about him (one of `TOLD`)."""
    told: ModerationNotice = {"type": "moderation.notice", "action": cast(Action, row.action),
                              "reason": row.reason, "entry": row.id,
                              "at": epoch_ms(row.created_at)}
    if row.action == "mute":
        told["until"] = row.details.get("until")
    if row.action == "rename":
        told["name"] = str(row.details.get("to", ""))
    return told
