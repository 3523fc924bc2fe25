"""Sign-in sessions: every token names one, so signing out can revoke it.

Revision ID: 0003_sessions
Revises: 0002_live_snapshots
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_sessions"
down_revision = "0002_live_snapshots"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_sessions_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_sessions"),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_sessions_player_id", table_name="sessions")
    op.drop_table("sessions")
