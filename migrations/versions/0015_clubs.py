"""Clubs and team battles (PROTOCOL §2e): clubs, their members with their roles, requests
to join and invitations; the clubs a tournament is for (a club tournament's one, a team
battle's each), a battle's count of scoring players, and the club each of its players
plays for.

Revision ID: 0015_clubs
Revises: 0014_moderation
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_clubs"
down_revision = "0014_moderation"
branch_labels = None
depends_on = None


def _player(table: str) -> sa.Column:
    return sa.Column("player_id", sa.Integer, sa.ForeignKey(
        "players.id", ondelete="CASCADE", name=f"fk_{table}_player_id_players"),
        nullable=False)


def _club(table: str) -> sa.Column:
    return sa.Column("club_id", sa.Integer, sa.ForeignKey(
        "clubs.id", ondelete="CASCADE", name=f"fk_{table}_club_id_clubs"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("description", sa.String(1000), nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_clubs_owner_id_players"),
            nullable=False),
        sa.Column("members", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_clubs"),
        sa.UniqueConstraint("name_key", name="uq_clubs_name_key"),
    )
    op.create_index("ix_clubs_owner_id", "clubs", ["owner_id"])
    op.create_table(
        "club_members",
        _club("club_members"), _player("club_members"),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "player_id", name="pk_club_members"),
    )
    op.create_index("ix_club_members_player_id", "club_members", ["player_id"])
    op.create_table(
        "club_asks",
        _club("club_asks"), _player("club_asks"),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "player_id", "kind", name="pk_club_asks"),
    )
    op.create_index("ix_club_asks_player_id", "club_asks", ["player_id"])
    op.create_table(
        "tournament_clubs",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey(
            "tournaments.id", ondelete="CASCADE",
            name="fk_tournament_clubs_tournament_id_tournaments"), nullable=False),
        _club("tournament_clubs"),
        sa.Column("position", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "club_id", name="pk_tournament_clubs"),
    )
    op.create_index("ix_tournament_clubs_club_id", "tournament_clubs", ["club_id"])
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("battle_leaders", sa.Integer(), nullable=True))
    with op.batch_alter_table("tournament_players") as batch:
        batch.add_column(sa.Column("club_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_players") as batch:
        batch.drop_column("club_id")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("battle_leaders")
        batch.drop_column("club_id")
    op.drop_table("tournament_clubs")
    op.drop_table("club_asks")
    op.drop_table("club_members")
    op.drop_table("clubs")
