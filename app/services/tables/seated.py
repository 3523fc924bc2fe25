"""The tables each player sits at (PROTOCOL §2c "My tables", a friend's table): noted when a
table is made with him in a seat or he takes one; a table he left, or that ended, is
dropped when the list is read."""

from __future__ import annotations

from collections.abc import Iterable

from app.live.store import LiveStore
from app.services.tables.table import Person, Table
from app.services.tables.transact import load

# The most tables one player's list keeps (the oldest go first).
KEPT = 50


async def note(store: LiveStore, people: Iterable[Person | None], table_id: str,
               at: int) -> None:
    """`table_id` among the tables of each person of `people` (bots and empty seats aside)."""
    for person in people:
        if person is None or person.is_bot:
            continue
        key = store.keys.seated(person.id)
        await store.command("ZADD", key, at, table_id)
        await store.command("ZREMRANGEBYRANK", key, 0, -KEPT - 1)


async def tables_of(store: LiveStore, player_id: int) -> list[Table]:
    """The waiting and playing tables `player_id` sits at (or, at a courtyard, waits at or
    comes in at: PROTOCOL §2d), the newest first."""
    key = store.keys.seated(player_id)
    found: list[Table] = []
    for raw in await store.command("ZREVRANGE", key, 0, KEPT - 1):
        table_id = raw.decode() if isinstance(raw, bytes) else str(raw)
        table = await load(store, table_id)
        if table is None or not table.holds(player_id):
            await store.command("ZREM", key, table_id)
            continue
        found.append(table)
    return found
