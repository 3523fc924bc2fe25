"""A tournament says each player's reserve at its tables (PROTOCOL §2g, RULES 1.10).
Tournaments made before it had none: 0.

Revision ID: 0011_clock
Revises: 0009_people
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_clock"
down_revision = "0009_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("reserve_seconds", sa.Integer(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("reserve_seconds")
