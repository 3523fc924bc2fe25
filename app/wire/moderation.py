"""The shapes of reports and moderation (PROTOCOL §2h): the notice a player gets of a
moderator's action, and the HTTP answers of the report and moderators' routes."""

# No `from __future__ import annotations`: optional keys are read at run time.
from typing import Any, Literal, NotRequired, TypedDict

from pydantic import JsonValue

ReportReason = Literal["cheating", "abuse", "name", "other"]
Action = Literal["warn", "mute", "unmute", "suspend", "unsuspend", "rename", "remove_gains"]
# Every kind of line of the audit log: the actions, a report closed, the role given or
# taken back by an operator.
Logged = Literal[Action, "close_report", "grant", "revoke"]


class ModerationNotice(TypedDict):
    """To every socket of a player a moderator acted on (a warning, a mute, a rename, his
    rating gains removed): what was done and why, its line of the audit log (`entry`)
    and when (`at`); `until` (ms) ends a mute, `name` is a rename's new name."""

    id: NotRequired[JsonValue]
    type: Literal["moderation.notice"]
    action: Action
    reason: str
    entry: int
    at: int
    until: NotRequired[int | None]
    name: NotRequired[str]


class NoticePage(TypedDict):
    """GET /api/me/notices: the notices he has not read yet, the newest first."""

    notices: list[ModerationNotice]


class ReportInfo(TypedDict):
    """A report as its reporter and the moderators read it."""

    id: int
    reporter: str
    name: str
    reason: ReportReason
    game_id: str | None
    text: str | None
    status: Literal["open", "closed"]
    created_at: int
    closed_at: int | None


class ReportPage(TypedDict):
    total: int
    reports: list[ReportInfo]


class LogEntry(TypedDict):
    """One line of the audit log: who (None: an operator), to whom, what, when and why."""

    id: int
    moderator: str | None
    player: str
    action: Logged
    reason: str
    details: dict[str, Any]
    report_id: int | None
    at: int


class LogPage(TypedDict):
    entries: list[LogEntry]


class Suspension(TypedDict):
    reason: str
    until: int | None


class PlayerStanding(TypedDict):
    id: int
    name: str
    created_at: int
    moderator: bool
    suspended: Suspension | None
    muted_until: int | None


class ModeratedGame(TypedDict):
    game_id: str
    variant: str
    finished_at: int
    rated: bool
    outcome: str
    points: int
    gains_removed: bool


class ChatSaid(TypedDict):
    name: str
    text: str
    at: int


class TableChat(TypedDict):
    table_id: str
    lines: list[ChatSaid]


class PlayerFile(TypedDict):
    """What the moderators' page shows of one player."""

    player: PlayerStanding
    recent_games: list[ModeratedGame]
    chat: list[TableChat]
    open_reports: int
    log: list[LogEntry]


class ActionDone(TypedDict):
    entry: LogEntry
    player: PlayerStanding
