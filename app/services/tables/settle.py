"""What follows a committed change of a table, in one place so no path forgets a part.

A change is written and announced by its write (`transact.commit`: the store's write, then
the announcer shows it to this process's sockets and, through the store, to the others').
What is left is the results writer: a change that ended the game wakes it at once, rather
than at its next sweep. Every caller that makes a change awaits it through `settled`.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, TypeVar

from app.services.tables.transact import Change


class ResultsWriter(Protocol):
    """Writes finished games to the database (app.services.durable.finish.Finisher)."""

    def kick(self, table_id: str) -> None: ...


C = TypeVar("C", Change, Change | None)


async def settled(write: Awaitable[C], results: ResultsWriter) -> C:
    """The change `write` makes (written and announced by it), with the results writer
    woken when it ended the game; what it raises, raised as it is."""
    change = await write
    if change is not None and change.finished:
        results.kick(change.table.id)
    return change
