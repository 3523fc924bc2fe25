"""Snapshots of running games, one per table, to recover a lost live store from.

Revision ID: 0002_live_snapshots
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0002_live_snapshots"
down_revision = "0001"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "live_snapshots",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("store", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", JSONType, nullable=False),
        sa.Column("rounds", JSONType, nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_live_snapshots"),
    )


def downgrade() -> None:
    op.drop_table("live_snapshots")
