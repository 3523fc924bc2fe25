"""The durable tables: players, their sign-in sessions, per-variant ratings, finished games,
their seats and their reviews, and the snapshots of running games (and of their rounds that
are over) that a lost live store is recovered from.

Schema changes go through Alembic (`migrations/`); these classes describe the head revision.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    false,
)
from sqlalchemy import text as sql
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.domain.names import skeleton

# Stable constraint names, so migrations can name what they create and drop on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# JSONB on PostgreSQL (indexable, compact), plain JSON text elsewhere.
JSONType = JSON().with_variant(JSONB(), "postgresql")

# Glicko-2 starting values from Glickman's paper.
SKILL_START = 1500.0
DEVIATION_START = 350.0
VOLATILITY_START = 0.06


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The name exactly as registered (NFC); `name_key` (case folded) makes it unique in any
    # case, `name_skeleton` (its TR39 confusable skeleton) unique among look-alikes.
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(60), unique=True)
    name_skeleton: Mapped[str] = mapped_column(
        String(120), unique=True,
        default=lambda context: skeleton(context.get_current_parameters()["name"]))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A deleted account: it cannot sign in, its name stays taken, its games show "deleted-<id>".
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # PROTOCOL §2h: a moderator (granted and taken back by an operator, `domino moderator`).
    moderator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Suspended while `suspension` (the moderator's reason) is set and `suspended_until` is
    # None (until lifted) or later than now; muted in chat until `muted_until`.
    suspension: Mapped[str | None] = mapped_column(String(500), nullable=True)
    suspended_until: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True)
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The last line of the audit log about him that he has read (his notices: PROTOCOL §2h).
    notices_seen: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class FriendLink(Base):
    """One player's wish to be another's friend (PROTOCOL §2c): a request while it goes one
    way, a friendship once both ways exist."""

    __tablename__ = "friend_links"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    friend_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_friend_links_friend_id", "friend_id"),)


class Block(Base):
    """`player_id` keeps `blocked_id` away (PROTOCOL §2c)."""

    __tablename__ = "blocks"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_blocks_blocked_id", "blocked_id"),)


class Challenge(Base):
    """A direct challenge from one player to another (PROTOCOL §2c)."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    # The table's settings as sent (options, turn_seconds, rated and any other), passed on
    # to the table made when it is accepted.
    settings: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # "open" | "accepted" | "declined" | "withdrawn"; an open one past `expires_at` is expired
    status: Mapped[str] = mapped_column(String(10))
    table_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_challenges_from_id_status", "from_id", "status"),
        Index("ix_challenges_to_id_status", "to_id", "status"),
    )


class LoginSession(Base):
    """One sign-in: every token names one. Signing out revokes it; a revoked session's
    token is refused everywhere although its signature and expiry are still good."""

    __tablename__ = "sessions"

    # Random and unguessable; the token's `sid` claim.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_sessions_player_id", "player_id"),)


class Rating(Base):
    """A player's standing in one variant; only rated games change it."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    # Cumulative rating points of RULES.md 1.9 / 9: only ever grow.
    points: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    # Goat: the games this player ended as a goat.
    losses: Mapped[int] = mapped_column(Integer, default=0)
    # Glicko-2 skill: rating, deviation (RD) and volatility (sigma), in Glicko-1 scale.
    skill: Mapped[float] = mapped_column(Float, default=SKILL_START)
    deviation: Mapped[float] = mapped_column(Float, default=DEVIATION_START)
    volatility: Mapped[float] = mapped_column(Float, default=VOLATILITY_START)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        Index("ix_ratings_variant_points", "variant", "points"),
        Index("ix_ratings_variant_skill", "variant", "skill"),
    )


class Game(Base):
    """A finished game with its complete domino-record/1."""

    __tablename__ = "games"

    # The primary key is what makes writing a result idempotent.
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
    players: Mapped[list[str]] = mapped_column(JSONType)
    record: Mapped[dict[str, Any]] = mapped_column(JSONType)
    seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    end_reason: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    rated: Mapped[bool] = mapped_column(Boolean)


class GamePlayer(Base):
    """One seat of a finished game: who sat there, how it ended, what was paid."""

    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    final: Mapped[int] = mapped_column(Integer)
    # Rating points actually paid (0 in an unrated game).
    points: Mapped[int] = mapped_column(Integer)
    outcome: Mapped[str] = mapped_column(String(4))  # "won" | "lost" | "draw"
    # The Glicko-2 rating after this game (rated games only), for the player's history.
    skill_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    # A moderator removed what this game paid (PROTOCOL §2h, RULES §1.9): `points` is then 0
    # and the audit log keeps what it was.
    gains_removed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (Index("ix_game_players_player_id", "player_id"),)


class LiveSnapshot(Base):
    """A running game's table as the live store held it when its latest round began.

    Written once per round (and when the game starts), deleted with the writing of the
    game's result; a table the live store lost is restored from here.
    """

    __tablename__ = "live_snapshots"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    # The live store the table lives in (its Redis key prefix): only that store's processes
    # restore it, though other deployments may share the database.
    store: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    # The table's state as stored live: the current round, and a stub of each round over
    # (whose full text is in `live_snapshot_rounds`).
    state: Mapped[dict[str, Any]] = mapped_column(JSONType)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LiveSnapshotRound(Base):
    """A round of a running game that is over, as the live store archived it.

    Each is written once, by the first snapshot taken after it ended, so a snapshot costs the
    same at the last round as at the first; deleted with its game's snapshot.
    """

    __tablename__ = "live_snapshot_rounds"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0 for the first round
    data: Mapped[dict[str, Any]] = mapped_column(JSONType)


class Tournament(Base):
    """A Swiss or arena tournament (PROTOCOL §2b): its settings and where it stands."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_creator_status", "creator_id", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
    seats: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(8))  # "swiss" | "arena"
    # waiting | running | finished | cancelled
    status: Mapped[str] = mapped_column(String(10), index=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)  # swiss
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)  # arena
    turn_seconds: Mapped[int] = mapped_column(Integer)
    round_pause_seconds: Mapped[int] = mapped_column(Integer)
    # each player's reserve at its tables (PROTOCOL §2g); 0 for those made before it
    reserve_seconds: Mapped[int] = mapped_column(Integer, server_default="0")
    rated: Mapped[bool] = mapped_column(Boolean)
    private: Mapped[bool] = mapped_column(Boolean)
    max_players: Mapped[int] = mapped_column(Integer)
    # the Swiss round being played (1-based), None before the first
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The live store its tables are played in (its Redis key prefix): only that store's
    # directors run it, though other deployments may share the database. None: made
    # before tournaments named one; any director runs it.
    store: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Why it was cancelled ("creator" | "operator" | "too_few"); None unless cancelled.
    cancel_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # The player placed first, kept when it finished (None before, or made before it was).
    winner_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # PROTOCOL §2e: the club whose members alone may join (a club tournament), and a team
    # battle's count of each club's best players that score for it (its clubs are its
    # `TournamentClub` rows); None for a tournament of neither kind.
    club_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    battle_leaders: Mapped[int | None] = mapped_column(Integer, nullable=True)


class TournamentPlayer(Base):
    """A player of a tournament: his points so far and whether he is still paired."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    points: Mapped[float] = mapped_column(Float, default=0.0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    byes: Mapped[int] = mapped_column(Integer, default=0)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    # the variant's skill rating when he joined (Swiss groups equal points by it)
    rating: Mapped[float] = mapped_column(Float, default=SKILL_START)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # the club he plays for in a team battle (PROTOCOL §2e); None in other tournaments
    club_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class TournamentTable(Base):
    """A table the tournament seated: who sat where and, once over, the points per seat."""

    __tablename__ = "tournament_tables"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seats: Mapped[list[int]] = mapped_column(JSONType)  # player ids by seat
    status: Mapped[str] = mapped_column(String(10))  # "playing" | "finished"
    points: Mapped[list[float] | None] = mapped_column(JSONType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Report(Base):
    """A player's report of another to the moderators (PROTOCOL §2h). One open report per
    reporter, reported player and reason (a partial unique index holds it under races)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    reported_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(8))  # cheating | abuse | name | other
    game_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str | None] = mapped_column(String(500), nullable=True)
    status: Mapped[str] = mapped_column(String(8))  # "open" | "closed"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    closed_by: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (
        Index("ix_reports_status_id", "status", "id"),
        Index("ix_reports_reported_id", "reported_id"),
        Index("uq_reports_open", "reporter_id", "reported_id", "reason", unique=True,
              postgresql_where=sql("status = 'open'"), sqlite_where=sql("status = 'open'")),
    )


class ModerationEntry(Base):
    """One line of the audit log (PROTOCOL §2h): who did what to whom, when and why.
    Written once, never changed or deleted (append-only)."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # None: an operator at the command line (`domino moderator`).
    moderator_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(500))
    # What the action did: its duration, the names of a rename, each game's removed gains.
    details: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # A rename's former name key: it stays reserved, and signing in with it is told why.
    former_key: Mapped[str | None] = mapped_column(String(60), nullable=True, index=True)
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_moderation_log_player_id_id", "player_id", "id"),)


class Review(Base):
    """A finished game's review and its place in the queue (PROTOCOL §2f): asked for once,
    taken by one worker at a time under a lease (epoch ms), stored once."""

    __tablename__ = "reviews"
    __table_args__ = (Index("ix_reviews_status", "status", "requested_ms"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(8))  # "queued" | "running" | "done"
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    requested_ms: Mapped[int] = mapped_column(BigInteger)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # held until
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)


class Club(Base):
    """A club (PROTOCOL §2e): its name (unique in any case), whether anyone may join at
    once, its owner and how many members it has (kept with every change of them)."""

    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160), unique=True)  # case folded
    description: Mapped[str] = mapped_column(String(1000), default="")
    open: Mapped[bool] = mapped_column(Boolean)
    owner_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True)
    members: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubMember(Base):
    """A player in a club, with his role there: "owner", "admin" or "member"."""

    __tablename__ = "club_members"

    club_id: Mapped[int] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    role: Mapped[str] = mapped_column(String(8))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_club_members_player_id", "player_id"),)


class ClubAsk(Base):
    """A player's request to join a closed club ("request"), or an admin's invitation of
    a player ("invite"); gone once he is a member or it is refused."""

    __tablename__ = "club_asks"

    club_id: Mapped[int] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)  # "request" | "invite"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_club_asks_player_id", "player_id"),)


class TournamentClub(Base):
    """A club a tournament is for: the one club of a club tournament, or each club of a
    team battle in the order they were listed (`position`)."""

    __tablename__ = "tournament_clubs"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    club_id: Mapped[int] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (Index("ix_tournament_clubs_club_id", "club_id"),)
