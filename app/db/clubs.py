"""The clubs' rows (PROTOCOL §2e): clubs, their members and roles, requests to join and
invitations, the clubs a tournament is for, and the members' leaderboard. Each function
works in the session it is given; the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Club, ClubAsk, ClubMember, Player, Rating, TournamentClub

ROLES = ("owner", "admin", "member")
LEADERS = 20  # a club page's leaderboard: this many members per variant


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    role: str


@dataclass(frozen=True, slots=True)
class Leader:
    variant: str
    name: str
    points: int
    skill: float


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def get(session: AsyncSession, club_id: int, *, lock: bool = False) -> Club | None:
    """The club (`lock`: its row locked until the transaction ends)."""
    return await session.get(Club, club_id, with_for_update=lock)


async def named(session: AsyncSession, name_key: str) -> Club | None:
    return await session.scalar(select(Club).where(Club.name_key == name_key))


def add(session: AsyncSession, club: Club) -> None:
    session.add(club)


async def owned_by(session: AsyncSession, player_id: int) -> int:
    count = await session.scalar(select(func.count()).where(Club.owner_id == player_id))
    return count or 0


async def search(session: AsyncSession, key: str, offset: int, limit: int
                 ) -> tuple[int, list[Club]]:
    """Clubs whose case-folded name holds `key` (all for ""), the largest first: how many
    there are and one page of them."""
    counted = select(func.count()).select_from(Club)
    query = select(Club)
    if key:
        found = Club.name_key.like(f"%{_escaped(key)}%", escape="\\")
        counted, query = counted.where(found), query.where(found)
    total = await session.scalar(counted)
    rows = await session.scalars(query.order_by(
        Club.members.desc(), Club.id).offset(offset).limit(limit))
    return total or 0, list(rows)


async def of_player(session: AsyncSession, player_id: int, offset: int, limit: int
                    ) -> tuple[int, list[tuple[Club, str]]]:
    """The clubs the player is in, with his role in each, the oldest membership first."""
    total = await session.scalar(select(func.count()).where(
        ClubMember.player_id == player_id))
    rows = await session.execute(
        select(Club, ClubMember.role).join(ClubMember, ClubMember.club_id == Club.id)
        .where(ClubMember.player_id == player_id)
        .order_by(ClubMember.joined_at, Club.id).offset(offset).limit(limit))
    return total or 0, [(club, role) for club, role in rows.all()]


async def names(session: AsyncSession, club_ids: Iterable[int]) -> dict[int, str]:
    rows = await session.execute(select(Club.id, Club.name).where(Club.id.in_(set(club_ids))))
    return {club_id: name for club_id, name in rows.all()}


# -- members -------------------------------------------------------------------------------


async def role_of(session: AsyncSession, club_id: int, player_id: int) -> str | None:
    return await session.scalar(select(ClubMember.role).where(
        ClubMember.club_id == club_id, ClubMember.player_id == player_id))


async def roles_of(session: AsyncSession, player_id: int, club_ids: Iterable[int]
                   ) -> dict[int, str]:
    """The player's role in each of `club_ids` he is a member of."""
    rows = await session.execute(select(ClubMember.club_id, ClubMember.role).where(
        ClubMember.player_id == player_id, ClubMember.club_id.in_(set(club_ids))))
    return {club_id: role for club_id, role in rows.all()}


async def add_member(session: AsyncSession, club_id: int, player_id: int, role: str) -> None:
    """A member more (the club's row is locked by the caller): his asks there are gone."""
    await drop_asks(session, club_id, player_id)
    session.add(ClubMember(club_id=club_id, player_id=player_id, role=role))
    await session.execute(update(Club).where(Club.id == club_id)
                          .values(members=Club.members + 1))


async def remove_member(session: AsyncSession, club_id: int, player_id: int) -> bool:
    done = await session.execute(delete(ClubMember).where(
        ClubMember.club_id == club_id, ClubMember.player_id == player_id))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        return False
    await session.execute(update(Club).where(Club.id == club_id)
                          .values(members=Club.members - 1))
    return True


async def set_role(session: AsyncSession, club_id: int, player_id: int, role: str) -> None:
    await session.execute(update(ClubMember).where(
        ClubMember.club_id == club_id, ClubMember.player_id == player_id).values(role=role))


async def admins(session: AsyncSession, club_ids: Iterable[int]) -> dict[int, list[str]]:
    """Each club's admins' names (the owner is not among them), in the order they joined."""
    rows = await session.execute(
        select(ClubMember.club_id, Player.name)
        .join(Player, Player.id == ClubMember.player_id)
        .where(ClubMember.club_id.in_(set(club_ids)), ClubMember.role == "admin")
        .order_by(ClubMember.joined_at, Player.id))
    found: dict[int, list[str]] = {}
    for club_id, name in rows.all():
        found.setdefault(club_id, []).append(name)
    return found


async def members(session: AsyncSession, club_id: int, offset: int, limit: int
                  ) -> tuple[int, list[Member]]:
    """One page of the members: the owner, the admins, then the others, each group in the
    order they joined."""
    rank = (ClubMember.role != "owner", ClubMember.role != "admin")  # False sorts first
    total = await session.scalar(select(func.count()).where(ClubMember.club_id == club_id))
    rows = await session.execute(
        select(Player.name, ClubMember.role)
        .join(Player, Player.id == ClubMember.player_id)
        .where(ClubMember.club_id == club_id)
        .order_by(*rank, ClubMember.joined_at, Player.id).offset(offset).limit(limit))
    return total or 0, [Member(name, role) for name, role in rows.all()]


async def leaderboard(session: AsyncSession, club_id: int) -> list[Leader]:
    """The members' best (by rating points) `LEADERS` in each variant they have played
    rated games of: one query."""
    ranked = (
        select(Rating.variant, Player.name, Rating.points, Rating.skill,
               func.row_number().over(partition_by=Rating.variant,
                                      order_by=(Rating.points.desc(), Rating.skill.desc(),
                                                Player.id)).label("rank"))
        .join(ClubMember, and_(ClubMember.player_id == Rating.player_id,
                               ClubMember.club_id == club_id))
        .join(Player, Player.id == Rating.player_id)
        .where(Rating.games > 0, Player.deleted_at.is_(None))
        .subquery())
    rows = await session.execute(
        select(ranked.c.variant, ranked.c.name, ranked.c.points, ranked.c.skill)
        .where(ranked.c.rank <= LEADERS).order_by(ranked.c.variant, ranked.c.rank))
    return [Leader(variant, name, points, skill) for variant, name, points, skill in rows.all()]


# -- requests and invitations --------------------------------------------------------------


async def has_ask(session: AsyncSession, club_id: int, player_id: int, kind: str) -> bool:
    return await session.get(ClubAsk, (club_id, player_id, kind)) is not None


async def add_ask(session: AsyncSession, club_id: int, player_id: int, kind: str) -> None:
    if not await has_ask(session, club_id, player_id, kind):
        session.add(ClubAsk(club_id=club_id, player_id=player_id, kind=kind))


async def drop_ask(session: AsyncSession, club_id: int, player_id: int, kind: str) -> bool:
    done = await session.execute(delete(ClubAsk).where(
        ClubAsk.club_id == club_id, ClubAsk.player_id == player_id, ClubAsk.kind == kind))
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def drop_asks(session: AsyncSession, club_id: int, player_id: int) -> None:
    await session.execute(delete(ClubAsk).where(
        ClubAsk.club_id == club_id, ClubAsk.player_id == player_id))


async def asks(session: AsyncSession, club_id: int, kind: str, offset: int, limit: int
               ) -> tuple[int, list[str]]:
    """One page of the names that asked to join (or were invited), the oldest first."""
    total = await session.scalar(select(func.count()).where(
        ClubAsk.club_id == club_id, ClubAsk.kind == kind))
    rows = await session.scalars(
        select(Player.name).join(ClubAsk, ClubAsk.player_id == Player.id)
        .where(ClubAsk.club_id == club_id, ClubAsk.kind == kind)
        .order_by(ClubAsk.created_at, Player.id).offset(offset).limit(limit))
    return total or 0, list(rows)


# -- tournaments ---------------------------------------------------------------------------


def add_tournament_clubs(session: AsyncSession, tournament_id: str, club_ids: list[int]
                         ) -> None:
    for position, club_id in enumerate(club_ids):
        session.add(TournamentClub(tournament_id=tournament_id, club_id=club_id,
                                   position=position))


async def of_tournament(session: AsyncSession, tournament_id: str) -> list[tuple[int, str]]:
    """The clubs a tournament is for, in the order they were listed, with their names."""
    rows = await session.execute(
        select(Club.id, Club.name).join(TournamentClub, TournamentClub.club_id == Club.id)
        .where(TournamentClub.tournament_id == tournament_id)
        .order_by(TournamentClub.position))
    return [(club_id, name) for club_id, name in rows.all()]
