"""Clubs and team battles as PROTOCOL §2e shows them: a club, its page, its members, a
join's answer, and a team battle's club standings in the tournament object.

TypedDicts, as in app.wire.messages: built as dict literals, free at run time, held to
their shapes by mypy and described in docs/protocol.schema.json."""

# No `from __future__ import annotations`: optional keys are read at run time.
from typing import Literal, TypedDict

Role = Literal["owner", "admin", "member"]


class ClubInfo(TypedDict):
    id: int
    name: str
    description: str
    open: bool
    owner: str
    members: int  # how many
    admins: list[str]
    created_at: int


class ClubYou(TypedDict):
    """The reader's own standing with the club: his role (None: not a member), and
    whether he asked to join or was invited."""

    role: Role | None
    requested: bool
    invited: bool


class ClubLeader(TypedDict):
    name: str
    points: int
    skill: float


class ClubPage(ClubInfo):
    """GET /api/clubs/{id}: the club, the members' best per variant, and the reader's own
    standing (None when signed out)."""

    leaderboard: dict[str, list[ClubLeader]]
    you: ClubYou | None


class ClubList(TypedDict):
    total: int
    clubs: list[ClubInfo]


class MyClub(ClubInfo):
    role: Role


class MyClubs(TypedDict):
    total: int
    clubs: list[MyClub]


class ClubMemberInfo(TypedDict):
    name: str
    role: Role


class ClubMembers(TypedDict):
    total: int
    members: list[ClubMemberInfo]


class ClubRequests(TypedDict):
    """The names that asked to join (or that were invited), the oldest first."""

    total: int
    names: list[str]


class ClubJoined(TypedDict):
    status: Literal["member", "requested", "invited"]


class BattleClub(TypedDict):
    """A club's standing in a team battle: its `leaders` best players' points, the games
    those players played (the tie-break: fewer first) and its place."""

    id: int
    name: str
    points: float
    games: int
    place: int


class BattleInfo(TypedDict):
    clubs: list[BattleClub]
    leaders: int
