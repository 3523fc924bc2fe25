"""Running games kept in the database too, so a lost live store costs a round, not a game.

When a game starts and whenever one of its rounds begins, its table's write in the live store
marks it "due a snapshot" (atomically with the change). Every process copies the due tables
to the `live_snapshots` table soon after: the state as it is then (the current round, usually
just dealt), and to `live_snapshot_rounds` each round that has ended since the last copy, once,
so a copy costs as little at the twelfth round as at the first. Writing the game's result
deletes its snapshot and rounds in the same transaction.

When the live store no longer holds a table that has a snapshot (a Redis that lost its data:
no persistence, a failed disk, a flush), the table is put back from the snapshot: the game
goes on from the position saved, usually the deal of the round that was being played, with a
fresh turn clock. Its version jumps `VERSION_GAP` past the snapshot's, beyond any version the
lost store can have reached since, so every socket takes the restored state as news. A
process looks for lost tables at start, whenever one of its sockets' tables is found missing,
and every `recover_seconds`.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from app import metrics
from app.db import games, snapshots
from app.db.models import utcnow
from app.db.session import Database
from app.db.snapshots import SnapshotRow
from app.live.store import LiveStore
from app.services.tables.bot_seats import wake_at
from app.services.tables.table import Table
from app.services.tables.transact import ARCHIVED, game_of, load, now_ms, public_table
from app.services.tables.turn_clock import turn_deadline

log = logging.getLogger(__name__)

# How far a restored table's version jumps past its snapshot's: more changes than a round
# of any variant has, so the restored state is newer than anything a socket has seen.
VERSION_GAP = 10_000


async def forget_snapshot(session: AsyncSession, table_id: str, game_id: str) -> None:
    """Drop the snapshot of this game and its rounds (its result is being written in
    `session`)."""
    await snapshots.forget(session, table_id, game_id)


def rounds_over(table: Table) -> int:
    """How many of the table's rounds are over and archived (they come first)."""
    return 0 if table.game is None else sum(1 for rd in table.game["rounds"] if rd.get(ARCHIVED))


class Recovery:
    def __init__(self, store: LiveStore, db: Database) -> None:
        self.store = store
        self.db = db

    async def save_due(self) -> int:
        """Copy every table due a snapshot to the database; returns how many were saved.
        Tables that could not be saved are handed back, to be tried again."""
        saved = 0
        while table_ids := await self.store.due_snapshots():
            try:
                for table_id in list(table_ids):
                    if await self._save(table_id):
                        saved += 1
                    table_ids.remove(table_id)
            except Exception:
                await self.store.snapshots_due(table_ids)
                raise
        return saved

    async def _save(self, table_id: str) -> bool:
        table = await load(self.store, table_id)
        if table is None or table.status != "playing":
            return False  # gone, or over: the result writer has it now
        game_id, over = table.game_id, rounds_over(table)
        assert game_id is not None  # a playing table has its game
        row = SnapshotRow(table_id, self.store.keys.prefix, game_id, table.version,
                          table.to_dict(), utcnow())
        async with self.db.writing() as session:
            if over == 0:
                await snapshots.forget_other_rounds(session, table_id, game_id)
            saved = await snapshots.rounds_saved(session, table_id, game_id)
            new = await self.store.archived_rounds(table_id, saved, over - 1) \
                if over > saved else []
            await snapshots.add_rounds(session, table_id, game_id, saved, new)
            await snapshots.save(session, row)
        return True

    async def restore_missing(self) -> list[str]:
        """Put back every table with a snapshot that the live store lost."""
        async with self.db.session() as session:
            table_ids = await snapshots.table_ids_of_store(session, self.store.keys.prefix)
        if not table_ids:
            return []
        return [t for t in await self.store.missing(table_ids) if await self.restore(t)]

    async def restore(self, table_id: str) -> bool:
        """Put the table back from its snapshot if the store lost it; False if there is no
        snapshot, its game is already written, or the table is there after all."""
        async with self.db.writing() as session:
            snapshot = await snapshots.get(session, table_id)
            if snapshot is None or snapshot.store != self.store.keys.prefix:
                return False  # none, or another live store's table (a shared database)
            written = await games.is_written(session, snapshot.game_id)
            saved = Table.from_dict(snapshot.state)
            if not written:
                # The rounds the saved state counts as over (a later copy may have added more).
                rounds = await snapshots.rounds(session, table_id, snapshot.game_id,
                                                rounds_over(saved))
                # The copy's version moves past the one restored now, so a table lost again
                # before its next copy comes back newer than anything shown since.
                version = await snapshots.pass_version(session, table_id, snapshot.game_id,
                                                       VERSION_GAP)
        if written:  # the result is in; only the snapshot's deletion was lost
            async with self.db.writing() as session:
                await forget_snapshot(session, table_id, snapshot.game_id)
            return False
        table = _resumed(saved)
        restored = await self.store.restore(
            table_id,
            version,
            table.to_json(),
            rounds,
            created_ms=table.created_at,
            deadline_ms=wake_at(table, game_of(table), now_ms()),
            # a private table was never in the lobby: it is not put there now
            lobby_entry=None if table.private else public_table(table),
        )
        if restored:
            metrics.tables_restored.inc()
            log.warning("table %s restored from its snapshot of version %d (game %s)",
                        table_id, snapshot.version, snapshot.game_id)
        return restored


    async def sweep(self, look_for_lost: bool) -> None:
        """Save the due snapshots and (`look_for_lost`) restore lost tables. A failure is
        logged and left for the next sweep (what was due stays due)."""
        try:
            await self.save_due()
            if look_for_lost:
                await self.restore_missing()
        except Exception as error:
            metrics.count_error(error)
            log.warning("saving or restoring snapshots failed (%r); will retry", error)


def _resumed(table: Table) -> Table:
    """The snapshot's table as a table that goes on now: a fresh clock for the player on
    turn (his turn time and the reserve he had left), no pause, and no events to replay."""
    game = table.game or {}
    return replace(table, deadline=turn_deadline(table, game.get("turn"), now_ms()),
                   next_round_at=None, log=())
