"""The tournaments' rows: the tournament, its players (points, games, byes) and its tables
(their seats and points). Each function works in the session it is given (reading, or
writing inside `Database.writing`); the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import Player, Tournament, TournamentClub, TournamentPlayer, TournamentTable

# A table a pairing made: its id and its seats' player ids.
Paired = tuple[str, list[int]]


async def get(session: AsyncSession, tournament_id: str, *, lock: bool = False
              ) -> Tournament | None:
    """The tournament (`lock`: its row locked until the transaction ends)."""
    return await session.get(Tournament, tournament_id, with_for_update=lock)


def add(session: AsyncSession, row: Tournament) -> None:
    session.add(row)


async def listed(session: AsyncSession, status: str | None, offset: int, limit: int,
                 club: int | None = None
                 ) -> list[tuple[Tournament, str | None, str | None, int]]:
    """Public tournaments (of one status; of one club: its own or a battle it is in), the
    newest first, from `offset`: each with its creator's and its winner's names and how
    many players are in it (not withdrawn), in one query."""
    playing = (select(func.count()).where(
        TournamentPlayer.tournament_id == Tournament.id,
        TournamentPlayer.withdrawn.is_(False)).correlate(Tournament).scalar_subquery())
    creator, winner = aliased(Player), aliased(Player)
    query = (select(Tournament, creator.name, winner.name, playing)
             .outerjoin(creator, creator.id == Tournament.creator_id)
             .outerjoin(winner, winner.id == Tournament.winner_id)
             .where(Tournament.private.is_(False)))
    if status is not None:
        query = query.where(Tournament.status == status)
    if club is not None:  # from the club's own rows (its index), not every tournament's
        query = query.join(TournamentClub, (TournamentClub.tournament_id == Tournament.id)
                           & (TournamentClub.club_id == club))
    rows = await session.execute(
        query.order_by(Tournament.created_at.desc(), Tournament.id).offset(offset).limit(limit))
    return [(row, made_by, won_by, count) for row, made_by, won_by, count in rows.all()]


async def open_of_creator(session: AsyncSession, creator_id: int) -> int:
    """How many of the player's tournaments are waiting or running."""
    count = await session.scalar(select(func.count()).where(
        Tournament.creator_id == creator_id, Tournament.status.in_(("waiting", "running"))))
    return count or 0


async def ids_of_store(session: AsyncSession, store: str, status: str,
                       starts_by: datetime | None = None) -> list[str]:
    """The tournaments of status `status` run by the live store `store` (and those made
    before tournaments named one: a database may be shared by deployments with live stores
    of their own); `starts_by`: only those due to start by then."""
    query = select(Tournament.id).where(
        Tournament.status == status,
        or_(Tournament.store == store, Tournament.store.is_(None)))
    if starts_by is not None:
        query = query.where(Tournament.starts_at <= starts_by)
    return list(await session.scalars(query))


async def start(session: AsyncSession, tournament_id: str, at: datetime,
                ends_at: datetime | None) -> None:
    await session.execute(update(Tournament).where(Tournament.id == tournament_id).values(
        status="running", started_at=at, ends_at=ends_at))


async def next_round(session: AsyncSession, row: Tournament) -> bool:
    """Move the tournament on from the round `row` was read at; False when another
    pairing did first, or it was cancelled meanwhile."""
    same_round = Tournament.round.is_(None) if row.round is None \
        else Tournament.round == row.round
    moved = await session.execute(
        update(Tournament).where(Tournament.id == row.id, same_round,
                                 Tournament.status == "running")
        .values(round=(row.round or 0) + 1))
    return bool(moved.rowcount == 1)  # type: ignore[attr-defined]


async def cancel(session: AsyncSession, tournament_id: str, reason: str, at: datetime) -> bool:
    """A waiting or running tournament cancelled; False when it was neither."""
    done = await session.execute(
        update(Tournament)
        .where(Tournament.id == tournament_id, Tournament.status.in_(("waiting", "running")))
        .values(status="cancelled", cancel_reason=reason, finished_at=at))
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]


async def finish(session: AsyncSession, tournament_id: str, at: datetime,
                 winner_id: int | None = None) -> bool:
    """A running tournament finished (won by `winner_id`); False when it was not running."""
    done = await session.execute(
        update(Tournament)
        .where(Tournament.id == tournament_id, Tournament.status == "running")
        .values(status="finished", finished_at=at, winner_id=winner_id))
    return bool(done.rowcount == 1)  # type: ignore[attr-defined]


# -- its players ---------------------------------------------------------------------------


async def member(session: AsyncSession, tournament_id: str, player_id: int
                 ) -> TournamentPlayer | None:
    return await session.get(TournamentPlayer, (tournament_id, player_id))


def add_member(session: AsyncSession, member: TournamentPlayer) -> None:
    session.add(member)


async def members(session: AsyncSession, tournament_id: str) -> list[TournamentPlayer]:
    return list(await session.scalars(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id)))


async def members_named(session: AsyncSession, tournament_id: str
                        ) -> list[tuple[TournamentPlayer, str]]:
    """The players with their names, in the order they joined."""
    rows = (await session.execute(
        select(TournamentPlayer, Player.name)
        .join(Player, Player.id == TournamentPlayer.player_id)
        .where(TournamentPlayer.tournament_id == tournament_id)
        .order_by(TournamentPlayer.joined_at, TournamentPlayer.player_id)
    )).all()
    return [(who, name) for who, name in rows]


async def active_count(session: AsyncSession, tournament_id: str) -> int:
    """How many players are in (not withdrawn)."""
    count = await session.scalar(select(func.count()).where(
        TournamentPlayer.tournament_id == tournament_id,
        TournamentPlayer.withdrawn.is_(False)))
    return count or 0


async def withdrawn(session: AsyncSession, tournament_id: str) -> set[int]:
    return set(await session.scalars(select(TournamentPlayer.player_id).where(
        TournamentPlayer.tournament_id == tournament_id, TournamentPlayer.withdrawn)))


async def remove_member(session: AsyncSession, tournament_id: str, player_id: int) -> None:
    await session.execute(delete(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id,
        TournamentPlayer.player_id == player_id))


async def add_points(session: AsyncSession, tournament_id: str, player_id: int,
                     points: float, *, games: int = 0, byes: int = 0) -> None:
    """Add to a player's points, and count his games or byes."""
    await session.execute(
        update(TournamentPlayer)
        .where(TournamentPlayer.tournament_id == tournament_id,
               TournamentPlayer.player_id == player_id)
        .values(points=TournamentPlayer.points + points,
                games=TournamentPlayer.games + games,
                byes=TournamentPlayer.byes + byes))


# -- its tables ----------------------------------------------------------------------------


async def tables(session: AsyncSession, tournament_id: str, *, playing: bool = False
                 ) -> list[TournamentTable]:
    """The tournament's tables in the order they were made (`playing`: only those whose
    game is not credited yet)."""
    query = select(TournamentTable).where(TournamentTable.tournament_id == tournament_id)
    if playing:
        query = query.where(TournamentTable.status == "playing")
    return list(await session.scalars(
        query.order_by(TournamentTable.created_at, TournamentTable.table_id)))


async def seated(session: AsyncSession, tournament_id: str) -> set[int]:
    """The players at a table of the tournament whose game is not credited yet."""
    seats = await session.scalars(select(TournamentTable.seats).where(
        TournamentTable.tournament_id == tournament_id, TournamentTable.status == "playing"))
    return {p for seated in seats for p in seated}


def add_tables(session: AsyncSession, tournament_id: str, made: Iterable[Paired],
               round: int | None) -> None:
    for table_id, seats in made:
        session.add(TournamentTable(table_id=table_id, tournament_id=tournament_id,
                                    round=round, seats=seats, status="playing"))


async def table_finished(session: AsyncSession, table_id: str, points: list[float],
                         at: datetime) -> list[int] | None:
    """A playing table's game credited with `points`: its seats, or None when it was
    credited already (or is no table of a tournament)."""
    done = await session.execute(
        update(TournamentTable)
        .where(TournamentTable.table_id == table_id, TournamentTable.status == "playing")
        .values(status="finished", points=points, finished_at=at))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        return None
    seats = await session.scalar(select(TournamentTable.seats).where(
        TournamentTable.table_id == table_id))
    return list(seats or [])
