"""Players, per-variant ratings, finished games and their seats.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("skill", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_ratings_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "variant", name="pk_ratings"),
    )
    op.create_index("ix_ratings_variant_points", "ratings", ["variant", "points"])
    op.create_index("ix_ratings_variant_skill", "ratings", ["variant", "skill"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", JSONType, nullable=False),
        sa.Column("players", JSONType, nullable=False),
        sa.Column("record", JSONType, nullable=False),
        sa.Column("seed", sa.String(64), nullable=True),
        sa.Column("end_reason", sa.String(16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("final", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(4), nullable=False),
        sa.Column("skill_after", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_players_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_game_players_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_players"),
    )
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_game_players_player_id", table_name="game_players")
    op.drop_table("game_players")
    op.drop_index("ix_games_finished_at", table_name="games")
    op.drop_index("ix_games_table_id", table_name="games")
    op.drop_table("games")
    op.drop_index("ix_ratings_variant_skill", table_name="ratings")
    op.drop_index("ix_ratings_variant_points", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("players")
