"""A tournament can be cancelled before its end (PROTOCOL §2b): by its creator, by an
operator, or by the clock when its start came with too few players. The reason is kept,
so the page can say why. A finished tournament keeps its winner, so a list of them is
read without the standings of each.

Revision ID: 0013_tournament_cancel
Revises: 0011_clock
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_tournament_cancel"
down_revision = "0011_clock"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("cancel_reason", sa.String(16), nullable=True))
        batch.add_column(sa.Column("winner_id", sa.Integer(), nullable=True))
    op.create_index("ix_tournaments_creator_status", "tournaments", ["creator_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_creator_status", table_name="tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("winner_id")
        batch.drop_column("cancel_reason")
