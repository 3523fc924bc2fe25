"""Tournaments (Swiss and arena), their players with their points, and the tables they
seated: kept here so a restart of every process loses none of it.

Revision ID: 0006_tournaments
Revises: 0005_rules_mark
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0006_tournaments"
down_revision = "0005_rules_mark"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def _when(name: str, nullable: bool = True) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", JSONType, nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("round_pause_seconds", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        _when("starts_at"),
        _when("started_at"),
        _when("ends_at"),
        _when("finished_at"),
        _when("created_at", nullable=False),
        sa.ForeignKeyConstraint(["creator_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_tournaments_creator_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("byes", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        _when("joined_at", nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE",
                                name="fk_tournament_players_tournament_id_tournaments"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name="fk_tournament_players_player_id_players"),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name="pk_tournament_players"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("seats", JSONType, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("points", JSONType, nullable=True),
        _when("created_at", nullable=False),
        _when("finished_at"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE",
                                name="fk_tournament_tables_tournament_id_tournaments"),
        sa.PrimaryKeyConstraint("table_id", name="pk_tournament_tables"),
    )
    op.create_index("ix_tournament_tables_tournament_id", "tournament_tables",
                    ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_tournament_id", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
