"""Alembic environment, configured from code (no alembic.ini): see app/db/session.py.

`migrate()` opens the connection and passes it in `config.attributes["connection"]`, so the
same scripts run on PostgreSQL (asyncpg) and SQLite (aiosqlite) inside one transaction.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.db.models import Base

# An arbitrary constant: the advisory lock that serialises migrations of concurrent starts.
MIGRATION_LOCK = 7_236_110_101


def run_migrations(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Several server processes may start at once; only one migrates at a time.
        connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things in place; batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `domino migrate` (app.db.session.migrate)")
run_migrations(connection)
