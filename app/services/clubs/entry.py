"""What clubs add to tournaments (PROTOCOL §2e): who may make a club tournament or a team
battle, who may join one and for which club he plays, and a battle's club standings."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import clubs
from app.db.models import Tournament, TournamentPlayer
from app.domain.battle import Entry, club_standings
from app.services.errors import ServiceError
from app.wire.clubs import BattleInfo

ADMINS = ("owner", "admin")


def _no_club(club_id: int) -> ServiceError:
    return ServiceError("not_found", "no_club", 404, club=club_id)


async def check_new(session: AsyncSession, creator_id: int, club: int | None,
                    battle: Sequence[int] | None, format: str) -> list[int]:
    """The clubs a new tournament is for (none, its club, or the battle's clubs), after
    checking them: 404 for a club that does not exist, 403 for a club tournament made by
    one who is not its admin, 422 for a battle that is no arena or lists a club twice."""
    if club is not None and battle is not None:
        raise ServiceError("bad_request", "club_or_battle", 422)
    if club is not None:
        if await clubs.get(session, club) is None:
            raise _no_club(club)
        if await clubs.role_of(session, club, creator_id) not in ADMINS:
            raise ServiceError("bad_request", "club_admins_only", 403)
        return [club]
    if battle is None:
        return []
    if format != "arena":
        raise ServiceError("bad_request", "battle_arena_only", 422)
    if len(set(battle)) != len(battle):
        raise ServiceError("bad_request", "battle_clubs_twice", 422)
    known = await clubs.names(session, battle)
    for club_id in battle:
        if club_id not in known:
            raise _no_club(club_id)
    return list(battle)


async def club_to_play_for(session: AsyncSession, row: Tournament, player_id: int,
                           wanted: int | None) -> int | None:
    """The club the player joins the tournament for: None for a tournament of no club;
    403 when he is not a member of its club (or of any club of its battle, or of the one
    he asked to play for). In a battle he plays for the club he names, else for the first
    of its clubs he is a member of."""
    listed = [club_id for club_id, _ in await clubs.of_tournament(session, row.id)]
    if not listed:
        return None
    mine = await clubs.roles_of(session, player_id, listed)
    if row.battle_leaders is None:  # a club tournament: its members only
        if row.club_id not in mine:
            raise ServiceError("bad_request", "club_members_only", 403)
        return None
    if wanted is not None:
        if wanted not in mine:
            raise ServiceError("bad_request", "club_members_only", 403)
        return wanted
    for club_id in listed:
        if club_id in mine:
            return club_id
    raise ServiceError("bad_request", "club_members_only", 403)


async def battle_of(session: AsyncSession, row: Tournament,
                    players: Sequence[TournamentPlayer]) -> BattleInfo | None:
    """A team battle's clubs with their points and places (None for any other
    tournament); every player counts, those who left with the points they made."""
    if row.battle_leaders is None:
        return None
    listed = await clubs.of_tournament(session, row.id)
    names = dict(listed)
    standings = club_standings(
        [club_id for club_id, _ in listed],
        [Entry(p.club_id, p.points, p.games) for p in players if p.club_id is not None],
        row.battle_leaders)
    return {"clubs": [{"id": s.club, "name": names[s.club], "points": s.points,
                       "games": s.games, "place": s.place} for s in standings],
            "leaders": row.battle_leaders}
