"""Reports and moderation (PROTOCOL §2h): the moderator role, a player's suspension and
chat mute and the last of his notices he has read, reports, the append-only audit log, and the mark of a game whose gains a
moderator removed.

Revision ID: 0014_moderation
Revises: 0013_tournament_cancel
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_moderation"
down_revision = "0013_tournament_cancel"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("moderator", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("suspension", sa.String(500), nullable=True))
        batch.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("notices_seen", sa.Integer(), nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("gains_removed", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("reporter_id", sa.Integer(),
                  sa.ForeignKey("players.id", ondelete="CASCADE",
                                name="fk_reports_reporter_id_players"), nullable=False),
        sa.Column("reported_id", sa.Integer(),
                  sa.ForeignKey("players.id", ondelete="CASCADE",
                                name="fk_reports_reported_id_players"), nullable=False),
        sa.Column("reason", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("text", sa.String(500), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_status_id", "reports", ["status", "id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("uq_reports_open", "reports", ["reporter_id", "reported_id", "reason"],
                    unique=True, postgresql_where=sa.text("status = 'open'"),
                    sqlite_where=sa.text("status = 'open'"))
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("moderator_id", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(),
                  sa.ForeignKey("players.id", ondelete="CASCADE",
                                name="fk_moderation_log_player_id_players"), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("details", JSONType, nullable=False),
        sa.Column("former_key", sa.String(60), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_moderation_log"),
    )
    op.create_index("ix_moderation_log_former_key", "moderation_log", ["former_key"])
    op.create_index("ix_moderation_log_player_id_id", "moderation_log", ["player_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_moderation_log_player_id_id", table_name="moderation_log")
    op.drop_index("ix_moderation_log_former_key", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("uq_reports_open", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_index("ix_reports_status_id", table_name="reports")
    op.drop_table("reports")
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("gains_removed")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("notices_seen")
        batch.drop_column("muted_until")
        batch.drop_column("suspended_until")
        batch.drop_column("suspension")
        batch.drop_column("moderator")
