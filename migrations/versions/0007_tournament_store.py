"""A tournament names the live store it is played in (its Redis key prefix): only that
store's directors pair and finish it, though other deployments may share the database
(as a live snapshot's `store` does). Tournaments made before it name none, and any
director takes them.

Revision ID: 0007_tournament_store
Revises: 0006_tournaments
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_tournament_store"
down_revision = "0006_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("store", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("store")
