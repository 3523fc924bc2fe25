"""Reviews of finished games and their queue: one row per game, asked for once and
computed once by a worker (PROTOCOL §2f). A worker takes a queued row, or one whose
lease ran out (its worker died), holds it under a lease it renews with its progress, and
stores the result only while it still holds the lease.

Revision ID: 0008_reviews
Revises: 0007_tournament_store
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0008_reviews"
down_revision = "0007_tournament_store"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("progress", sa.Float(), nullable=False),
        sa.Column("requested_ms", sa.BigInteger(), nullable=False),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("lease_ms", sa.BigInteger(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.Column("result", JSONType, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name="fk_reviews_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", name="pk_reviews"),
    )
    op.create_index("ix_reviews_status", "reviews", ["status", "requested_ms"])


def downgrade() -> None:
    op.drop_index("ix_reviews_status", table_name="reviews")
    op.drop_table("reviews")
