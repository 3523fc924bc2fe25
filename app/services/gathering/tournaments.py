"""Tournaments (PROTOCOL §2b): made, joined, left, started and cancelled here; described
as the API shows them. Everything is in the database; the pairing itself runs in one process at a
time (app/services/tournament_director.py)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import settings
from app.db import clubs, games, ratings, tournaments
from app.db import players as player_rows
from app.db.models import Tournament, TournamentPlayer
from app.db.session import Database
from app.domain.points import Played, Standing, standings
from app.engine import OptionsError, validate_options
from app.services.clubs import entry
from app.services.tables.transact import ServiceError
from app.wire.answers import TournamentListed
from app.wire.messages import TournamentInfo, TournamentStanding
from app.words import ErrorKey, Param

FORMATS = ("swiss", "arena")
STATUSES = ("waiting", "running", "finished", "cancelled")
LISTED = 100  # at most this many tournaments a page
CANCEL_REASONS = ("creator", "operator", "too_few")


class Member(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class TournamentRequest:
    name: str
    variant: str
    options: dict[str, Any]
    seats: int
    format: str
    minutes: int | None
    rounds: int | None
    turn_seconds: int
    round_pause_seconds: int
    rated: bool
    starts_at: int | None
    max_players: int
    private: bool
    reserve_seconds: int = 60
    # PROTOCOL §2e: a club tournament's club, or a team battle's clubs and leaders
    club: int | None = None
    battle_clubs: tuple[int, ...] | None = None
    battle_leaders: int = 5


def epoch_ms(moment: datetime | None) -> int | None:
    if moment is None:
        return None
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return int(aware.timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def _missing(tournament_id: str) -> ServiceError:
    return ServiceError("not_found", "no_tournament", 404, tournament=tournament_id)


def _refused(key: ErrorKey, status: int = 409, **params: Param) -> ServiceError:
    return ServiceError("bad_request", key, status, **params)


async def create(db: Database, creator: Member, ask: TournamentRequest, store: str
                 ) -> TournamentInfo:
    """A waiting tournament, run by the directors of the live store `store` (its prefix)."""
    try:
        options = validate_options(ask.variant, ask.seats, ask.options)
    except OptionsError as error:
        raise ServiceError.of_engine("bad_request", error, 422) from error
    if ask.format == "swiss" and ask.rounds is None:
        raise _refused("swiss_needs_rounds", 422)
    if ask.format == "arena" and ask.minutes is None:
        raise _refused("arena_needs_minutes", 422)
    if ask.max_players < ask.seats:
        raise _refused("max_players_below_seats", 422)
    row = Tournament(
        id=secrets.token_hex(8), name=ask.name, variant=ask.variant, options=options,
        seats=ask.seats, format=ask.format, status="waiting", creator_id=creator.id,
        rounds=ask.rounds if ask.format == "swiss" else None,
        minutes=ask.minutes if ask.format == "arena" else None,
        turn_seconds=ask.turn_seconds, round_pause_seconds=ask.round_pause_seconds,
        reserve_seconds=ask.reserve_seconds, rated=ask.rated, private=ask.private,
        max_players=ask.max_players,
        starts_at=None if ask.starts_at is None else from_ms(ask.starts_at), store=store,
        club_id=ask.club, battle_leaders=None if ask.battle_clubs is None else ask.battle_leaders,
    )
    async with db.writing() as session:
        # The creator's row, locked, orders his creations on every process, so the count
        # of his open tournaments cannot be passed by two at once.
        await player_rows.get(session, creator.id, lock=True)
        if await tournaments.open_of_creator(session, creator.id) >= settings.tournaments_open_max:
            raise _refused("too_many_tournaments", n=settings.tournaments_open_max)
        listed = await entry.check_new(session, creator.id, ask.club, ask.battle_clubs,
                                       ask.format)
        tournaments.add(session, row)
        await session.flush()
        clubs.add_tournament_clubs(session, row.id, listed)
    return await describe(db, row.id)


async def describe(db: Database, tournament_id: str) -> TournamentInfo:
    async with db.session() as session:
        return await describe_in(session, tournament_id)


async def describe_in(session: AsyncSession, tournament_id: str) -> TournamentInfo:
    """The tournament as PROTOCOL §2b shows it, with live standings once it has begun."""
    row = await tournaments.get(session, tournament_id)
    if row is None:
        raise _missing(tournament_id)
    creator = await player_rows.name_of(session, row.creator_id)
    members = await tournaments.members_named(session, tournament_id)
    tables = await tournaments.tables(session, tournament_id)
    written = await games.ids_of_tables(
        session, (t.table_id for t in tables if t.status == "finished"))
    ranks: dict[int, Standing] = {}
    if row.status != "waiting":
        played = [Played(t.seats, t.points) for t in tables if t.points is not None]
        for standing in standings({m.player_id: m.points for m, _ in members}, played):
            ranks[standing.player] = standing

    def place(player_id: int) -> int | None:
        rank = ranks.get(player_id)
        return None if rank is None else rank.place

    ranked = sorted(members, key=lambda m: (place(m[0].player_id) or 0, -m[0].points, m[1]))
    players: list[TournamentStanding] = [
        {"id": m.player_id, "name": name, "points": m.points, "games": m.games,
         "byes": m.byes, "place": place(m.player_id), "withdrawn": m.withdrawn,
         "opponents_points": ranks[m.player_id].opponents if m.player_id in ranks else 0.0,
         "wins": ranks[m.player_id].won if m.player_id in ranks else 0, "club": m.club_id}
        for m, name in ranked
    ]
    battle = await entry.battle_of(session, row, [m for m, _ in members])
    winner = next((p["name"] for p in players if p["place"] == 1), None) \
        if row.status == "finished" else None
    return {
        "id": row.id,
        "name": row.name,
        "variant": row.variant,
        "options": row.options,
        "seats": row.seats,
        "format": row.format,
        "status": row.status,
        "cancel_reason": row.cancel_reason,
        "creator": creator,
        "starts_at": epoch_ms(row.starts_at),
        "started_at": epoch_ms(row.started_at),
        "ends_at": epoch_ms(row.ends_at),
        "finished_at": epoch_ms(row.finished_at),
        "round": row.round,
        "rounds": row.rounds,
        "minutes": row.minutes,
        "turn_seconds": row.turn_seconds,
        "round_pause_seconds": row.round_pause_seconds,
        "reserve_seconds": row.reserve_seconds,
        "rated": row.rated,
        "private": row.private,
        "max_players": row.max_players,
        "winner": winner,
        "players": players,
        "tables": [
            {"table_id": t.table_id, "round": t.round, "seats": t.seats, "status": t.status,
             "points": t.points, "created_at": epoch_ms(t.created_at),
             "finished_at": epoch_ms(t.finished_at), "game_id": written.get(t.table_id)}
            for t in tables
        ],
        "club": row.club_id,
        "battle": battle,
    }


async def listing(db: Database, status: str | None, offset: int = 0, limit: int = LISTED,
                  club: int | None = None) -> list[TournamentListed]:
    """A page of the public tournaments (of one status; `club`: of that club, its own or
    battles it is in), the newest first, without their players, tables and battle clubs
    (the tournament's own page has them): one query, whatever the page's size."""
    async with db.session() as session:
        rows = await tournaments.listed(session, status, offset, min(limit, LISTED), club)
    return [_listed(row, creator, winner, count) for row, creator, winner, count in rows]


def _listed(row: Tournament, creator: str | None, winner: str | None, count: int
            ) -> TournamentListed:
    return {
        "id": row.id, "name": row.name, "variant": row.variant, "options": row.options,
        "seats": row.seats, "format": row.format, "status": row.status,
        "cancel_reason": row.cancel_reason, "creator": creator,
        "starts_at": epoch_ms(row.starts_at), "started_at": epoch_ms(row.started_at),
        "ends_at": epoch_ms(row.ends_at), "finished_at": epoch_ms(row.finished_at),
        "round": row.round, "rounds": row.rounds, "minutes": row.minutes,
        "turn_seconds": row.turn_seconds, "round_pause_seconds": row.round_pause_seconds,
        "reserve_seconds": row.reserve_seconds, "rated": row.rated, "private": row.private,
        "max_players": row.max_players,
        "winner": winner if row.status == "finished" else None,
        "players": [], "tables": [], "player_count": count, "club": row.club_id,
        "battle": None if row.battle_leaders is None
        else {"clubs": [], "leaders": row.battle_leaders},
    }


async def join(db: Database, player: Member, tournament_id: str, club: int | None = None
               ) -> None:
    """Join (`club`: in a team battle, the club to play for; PROTOCOL §2e)."""
    async with db.writing() as session:
        row = await tournaments.get(session, tournament_id, lock=True)
        if row is None:
            raise _missing(tournament_id)
        if row.status in ("finished", "cancelled") \
                or (row.status == "running" and row.format == "swiss"):
            raise _refused("tournament_closed")
        member = await tournaments.member(session, tournament_id, player.id)
        if member is not None and not member.withdrawn:
            raise _refused("in_tournament_already")
        plays_for = await entry.club_to_play_for(session, row, player.id, club)
        if await tournaments.active_count(session, tournament_id) >= row.max_players:
            raise _refused("tournament_full")
        if member is not None:  # back after leaving: paired again, points kept
            member.withdrawn = False
            return
        tournaments.add_member(session, TournamentPlayer(
            tournament_id=tournament_id, player_id=player.id, points=0.0, games=0, byes=0,
            withdrawn=False, rating=await ratings.skill(session, player.id, row.variant),
            club_id=plays_for))
        try:
            await session.flush()
        except IntegrityError as error:
            raise _refused("in_tournament_already") from error


async def leave(db: Database, player: Member, tournament_id: str) -> None:
    """Before the start: out of the list. Running: withdrawn, his points kept, paired no
    more (a game he is playing is his to finish)."""
    async with db.writing() as session:
        row = await tournaments.get(session, tournament_id, lock=True)
        if row is None:
            raise _missing(tournament_id)
        member = await tournaments.member(session, tournament_id, player.id)
        if member is None or member.withdrawn:
            raise _refused("not_in_tournament")
        if row.status in ("finished", "cancelled"):
            raise _refused("tournament_over")
        if row.status == "waiting":
            await tournaments.remove_member(session, tournament_id, player.id)
        else:
            member.withdrawn = True


async def start(db: Database, player: Member | None, tournament_id: str) -> bool:
    """Start a waiting tournament (`player`: its creator; None: the clock, at starts_at).
    False when it has too few players for a table: the clock then cancels it."""
    now = datetime.now(UTC)
    async with db.writing() as session:
        row = await tournaments.get(session, tournament_id, lock=True)
        if row is None:
            raise _missing(tournament_id)
        if player is not None and player.id != row.creator_id:
            raise _refused("only_creator_starts", 403)
        if row.status != "waiting":
            raise _refused("tournament_started")
        if await tournaments.active_count(session, tournament_id) < row.seats:
            if player is None:
                # Its time came with too few players: cancelled, not tried again at every
                # tick for ever; its players are told why on its page.
                await tournaments.cancel(session, tournament_id, "too_few", now)
                return False
            raise _refused("tournament_too_few", n=row.seats)
        ends_at = None if row.minutes is None else from_ms(
            int(now.timestamp() * 1000)
            + int(row.minutes * settings.tournament_minute_seconds * 1000))
        await tournaments.start(session, tournament_id, now, ends_at)
    return True


async def cancel(db: Database, player: Member | None, tournament_id: str) -> None:
    """Cancel a tournament before its end (`player`: its creator; None: an operator). It
    pairs no more; games being played are played out as games of their own, and the
    points it gave stay as they were, with no winner."""
    async with db.writing() as session:
        row = await tournaments.get(session, tournament_id, lock=True)
        if row is None:
            raise _missing(tournament_id)
        if player is not None and player.id != row.creator_id:
            raise _refused("only_creator_cancels", 403)
        if not await tournaments.cancel(session, tournament_id,
                                        "operator" if player is None else "creator",
                                        datetime.now(UTC)):
            raise _refused("tournament_over")
