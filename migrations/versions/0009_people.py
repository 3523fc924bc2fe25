"""People (PROTOCOL §2c): names unique among look-alikes (a TR39 skeleton per player, filled
in for the names there are), deleted accounts, friends, blocks and challenges.

Names registered before keep working: two old names whose skeletons agree (possible only
between names of `[A-Za-z0-9_]`, like "rn" and "m") keep both, the later one's skeleton
made unique by its id after a "#", which no skeleton of a name holds; new names are refused against both.

Revision ID: 0009_people
Revises: 0008_reviews
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.domain.names import skeleton

revision = "0009_people"
down_revision = "0008_reviews"
branch_labels = None
depends_on = None

_players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String),
                    sa.column("name_skeleton", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        # case folding may make a name longer ("ß" is "ss")
        batch.alter_column("name_key", existing_type=sa.String(20), type_=sa.String(60))
        batch.add_column(sa.Column("name_skeleton", sa.String(120), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    connection = op.get_bind()
    seen: set[str] = set()
    rows = connection.execute(sa.select(_players.c.id, _players.c.name).order_by(_players.c.id))
    for player_id, name in rows.all():
        shape = skeleton(name)
        if shape in seen:
            shape = f"{shape}#{player_id}"[:120]
        seen.add(shape)
        connection.execute(sa.update(_players).where(_players.c.id == player_id)
                           .values(name_skeleton=shape))
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name_skeleton", existing_type=sa.String(120), nullable=False)
        batch.create_unique_constraint("uq_players_name_skeleton", ["name_skeleton"])

    op.create_table(
        "friend_links",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_friend_links_player_id_players"),
            nullable=False),
        sa.Column("friend_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_friend_links_friend_id_players"),
            nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "friend_id", name="pk_friend_links"),
    )
    op.create_index("ix_friend_links_friend_id", "friend_links", ["friend_id"])
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_blocks_player_id_players"),
            nullable=False),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_blocks_blocked_id_players"),
            nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "blocked_id", name="pk_blocks"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("from_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_challenges_from_id_players"),
            nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey(
            "players.id", ondelete="CASCADE", name="fk_challenges_to_id_players"),
            nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("settings", sa.JSON().with_variant(
            sa.dialects.postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("ix_challenges_from_id_status", "challenges", ["from_id", "status"])
    op.create_index("ix_challenges_to_id_status", "challenges", ["to_id", "status"])


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("blocks")
    op.drop_table("friend_links")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_name_skeleton", type_="unique")
        batch.drop_column("deleted_at")
        batch.drop_column("name_skeleton")
        batch.alter_column("name_key", existing_type=sa.String(60), type_=sa.String(20))
