"""What the whole deployment holds right now, read from the shared store (for /metrics)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.live.store import LiveStore
from app.services.table import Table


@dataclass(frozen=True)
class Census:
    # (status, variant) -> how many tables of the lobby index are in that state.
    tables: dict[tuple[str, str], int]
    # Finished games not yet written to the database (the results writer's backlog).
    unwritten: int


async def take(store: LiveStore) -> Census:
    listed = [Table.from_dict(t.state) for t in await store.listed()]
    tables: Counter[tuple[str, str]] = Counter((t.status, t.variant) for t in listed)
    return Census(dict(tables), len(await store.unwritten()))
