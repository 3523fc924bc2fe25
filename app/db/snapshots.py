"""The copies of running tables (app.services.durable.recovery): the table's state as of
its last copy, and the full text of each round of its game that is over. A table's copy
is dropped in the transaction that writes its game's result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import LiveSnapshot, LiveSnapshotRound
from app.db.session import by_dialect


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """A table's copy as it is written over its last one."""

    table_id: str
    store: str
    game_id: str
    version: int
    state: dict[str, Any]
    saved_at: datetime


# Built once, run with parameters (see app.db.games).
_snapshots = cast(Table, LiveSnapshot.__table__)
_rounds = cast(Table, LiveSnapshotRound.__table__)
_FORGET = delete(_snapshots).where(_snapshots.c.table_id == bindparam("b_table"),
                                   _snapshots.c.game_id == bindparam("b_game"))
_FORGET_ROUNDS = delete(_rounds).where(_rounds.c.table_id == bindparam("b_table"),
                                       _rounds.c.game_id == bindparam("b_game"))
_FORGET_OTHER_ROUNDS = delete(_rounds).where(_rounds.c.table_id == bindparam("b_table"),
                                             _rounds.c.game_id != bindparam("b_game"))
_ROUNDS_SAVED = select(func.count()).select_from(_rounds).where(
    _rounds.c.table_id == bindparam("b_table"), _rounds.c.game_id == bindparam("b_game"))
_PASS_VERSION = update(_snapshots).where(
    _snapshots.c.table_id == bindparam("b_table"), _snapshots.c.game_id == bindparam("b_game")
).values(version=_snapshots.c.version + bindparam("b_gap"))
_VERSION = select(_snapshots.c.version).where(_snapshots.c.table_id == bindparam("b_table"))
_SNAPSHOT_FIELDS = ("store", "game_id", "version", "state", "saved_at")


def _upsert(insert: Any) -> Any:
    statement = insert(_snapshots)
    return statement.on_conflict_do_update(
        index_elements=[_snapshots.c.table_id],
        set_={k: statement.excluded[k] for k in _SNAPSHOT_FIELDS},
    )


# A table's snapshot, written over its last one.
_SAVE = by_dialect(_upsert)
# Rounds that are over; one another process has just written is left as it is (the same).
_ADD_ROUNDS = by_dialect(lambda insert: insert(_rounds).on_conflict_do_nothing())


def _names(table_id: str, game_id: str) -> dict[str, Any]:
    return {"b_table": table_id, "b_game": game_id}


async def forget(session: AsyncSession, table_id: str, game_id: str) -> None:
    """Drop the copy of this game and its rounds."""
    await session.execute(_FORGET, _names(table_id, game_id))
    await session.execute(_FORGET_ROUNDS, _names(table_id, game_id))


async def forget_other_rounds(session: AsyncSession, table_id: str, game_id: str) -> None:
    """Drop the table's rounds of any game but `game_id` (a new game's first copy replaces
    the table's last one)."""
    await session.execute(_FORGET_OTHER_ROUNDS, _names(table_id, game_id))


async def rounds_saved(session: AsyncSession, table_id: str, game_id: str) -> int:
    return int(await session.scalar(_ROUNDS_SAVED, _names(table_id, game_id)) or 0)


async def add_rounds(session: AsyncSession, table_id: str, game_id: str, first: int,
                     rounds: Sequence[dict[str, Any]]) -> None:
    """Store rounds that are over, numbered from `first`."""
    if not rounds:
        return
    await session.execute(_ADD_ROUNDS[session.get_bind().dialect.name], [
        {"table_id": table_id, "game_id": game_id, "number": n, "data": data}
        for n, data in enumerate(rounds, start=first)
    ])


async def save(session: AsyncSession, row: SnapshotRow) -> None:
    """Write the table's copy over its last one."""
    await session.execute(_SAVE[session.get_bind().dialect.name], {
        "table_id": row.table_id, "store": row.store, "game_id": row.game_id,
        "version": row.version, "state": row.state, "saved_at": row.saved_at,
    })


async def table_ids_of_store(session: AsyncSession, store: str) -> list[str]:
    """The tables copied from the live store `store` (its prefix)."""
    return list(await session.scalars(
        select(LiveSnapshot.table_id).where(LiveSnapshot.store == store)))


async def get(session: AsyncSession, table_id: str) -> LiveSnapshot | None:
    return await session.get(LiveSnapshot, table_id)


async def rounds(session: AsyncSession, table_id: str, game_id: str, below: int
                 ) -> list[dict[str, Any]]:
    """The game's stored rounds numbered below `below`, in order."""
    return list(await session.scalars(
        select(_rounds.c.data)
        .where(_rounds.c.table_id == table_id,
               _rounds.c.game_id == game_id,
               _rounds.c.number < below)
        .order_by(_rounds.c.number)
    ))


async def pass_version(session: AsyncSession, table_id: str, game_id: str, gap: int) -> int:
    """Move the copy's version `gap` on; the version it has now."""
    await session.execute(_PASS_VERSION, {**_names(table_id, game_id), "b_gap": gap})
    return int(await session.scalar(_VERSION, _names(table_id, game_id)) or 0)
