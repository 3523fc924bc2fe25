"""Finished games keep their results: the record of every game finished before RULES.md
pinned the points its first edition left open is marked `"rules": 1`, so that it replays by
that edition's readings (app/engine/goat_family.py, mexican_train.py, general.py).

Revision ID: 0005_rules_mark
Revises: 0004_snapshot_rounds
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0005_rules_mark"
down_revision = "0004_snapshot_rounds"
branch_labels = None
depends_on = None

# One statement per dialect: PostgreSQL keeps records as JSONB, SQLite as JSON text.
_MARK = {
    "postgresql": "UPDATE games SET record = record || jsonb_build_object('rules', 1)",
    "sqlite": "UPDATE games SET record = json_set(record, '$.rules', 1)",
}
_UNMARK = {
    "postgresql": "UPDATE games SET record = record - 'rules'",
    "sqlite": "UPDATE games SET record = json_remove(record, '$.rules')",
}


def upgrade() -> None:
    op.execute(_MARK[op.get_bind().dialect.name])


def downgrade() -> None:
    op.execute(_UNMARK[op.get_bind().dialect.name])
