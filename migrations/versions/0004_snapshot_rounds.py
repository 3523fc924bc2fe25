"""A running game's rounds that are over, one row each, written once: a snapshot no longer
rewrites every earlier round at every round's start.

Revision ID: 0004_snapshot_rounds
Revises: 0003_sessions
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004_snapshot_rounds"
down_revision = "0003_sessions"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")

_snapshots = sa.table(
    "live_snapshots",
    sa.column("table_id", sa.String()),
    sa.column("game_id", sa.String()),
    sa.column("rounds", JSONType),
)
_rounds = sa.table(
    "live_snapshot_rounds",
    sa.column("table_id", sa.String()),
    sa.column("game_id", sa.String()),
    sa.column("number", sa.Integer()),
    sa.column("data", JSONType),
)


def upgrade() -> None:
    op.create_table(
        "live_snapshot_rounds",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("data", JSONType, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "game_id", "number", name="pk_live_snapshot_rounds"),
    )
    bind = op.get_bind()
    for table_id, game_id, rounds in bind.execute(
        sa.select(_snapshots.c.table_id, _snapshots.c.game_id, _snapshots.c.rounds)
    ):
        if rounds:
            bind.execute(_rounds.insert(), [
                {"table_id": table_id, "game_id": game_id, "number": n, "data": data}
                for n, data in enumerate(rounds)
            ])
    with op.batch_alter_table("live_snapshots") as batch:
        batch.drop_column("rounds")


def downgrade() -> None:
    with op.batch_alter_table("live_snapshots") as batch:
        batch.add_column(sa.Column("rounds", JSONType, nullable=True))
    bind = op.get_bind()
    kept: dict[tuple[str, str], list[object]] = {}
    for table_id, game_id, _number, data in bind.execute(
        sa.select(_rounds.c.table_id, _rounds.c.game_id, _rounds.c.number, _rounds.c.data)
        .order_by(_rounds.c.table_id, _rounds.c.game_id, _rounds.c.number)
    ):
        kept.setdefault((table_id, game_id), []).append(data)
    for table_id, game_id in bind.execute(sa.select(_snapshots.c.table_id, _snapshots.c.game_id)):
        bind.execute(
            _snapshots.update()
            .where(_snapshots.c.table_id == table_id)
            .values(rounds=kept.get((table_id, game_id), []))
        )
    with op.batch_alter_table("live_snapshots") as batch:
        batch.alter_column("rounds", existing_type=JSONType, nullable=False)
    op.drop_table("live_snapshot_rounds")
