"""What a socket follows (tables and the lobby), and the table states it is answered with.

While a command of the socket changes a table (`Connection.busy`), that table's
announcements wait, so the reply, carrying the command's id, is the first message of its
version and none after it is skipped.
"""

from __future__ import annotations

from typing import Any

from app.api.connection import Connection
from app.services.fanout.feed import Snapshot
from app.services.tables.transact import ServiceError


async def subscribe_table(conn: Connection, table_id: str, msg_id: Any) -> None:
    conn.busy.add(table_id)
    try:
        snapshot = await conn.live.feed.subscribe_table(conn, table_id)
        if snapshot is None:
            raise ServiceError("not_found", "no_table", 404, table=table_id)
        # A (re-)subscription always gets the current state, gap or not.
        conn.last_sent[table_id] = 0
        conn.send_state(snapshot, msg_id)
    finally:
        conn.release(table_id)
    if conn.player is not None:  # at his table: its notice is done with
        await conn.live.notices.seen(conn.player.id, table_id)


async def unsubscribe_table(conn: Connection, table_id: str) -> None:
    await conn.live.feed.unsubscribe_table(conn, table_id)
    conn.last_sent.pop(table_id, None)


async def subscribe_lobby(conn: Connection, msg_id: Any) -> None:
    """The lobby's tables, then its updates: those that come while the list is read wait
    behind it."""
    conn.lobby_ready = False
    try:
        tables = await conn.live.feed.subscribe_lobby(conn)
        conn.reply({"type": "lobby", "tables": tables}, msg_id)
    finally:
        conn.lobby_ready = True
        held, conn.lobby_held = conn.lobby_held, []
        for note in held:
            conn.offer(note)


async def answer_written_elsewhere(conn: Connection, table_id: str, version: int,
                                   msg_id: Any) -> None:
    """Reply with the version another process wrote for this socket's move (the caller
    holds the table busy)."""
    # Its announcement came first (held for this socket while the move was out, with any
    # change made since, which goes after the reply); were it lost, the table is read again.
    snapshot = _held(conn, table_id, version)
    if snapshot is None:
        await conn.live.feed.resync(table_id)
        snapshot = _held(conn, table_id, version) or conn.live.feed.latest(table_id)
    if snapshot is not None:
        conn.send_state(snapshot, msg_id)


def _held(conn: Connection, table_id: str, version: int) -> Snapshot | None:
    """The table at `version` as this process received it, if it did: the reply to a
    relayed move is that version, not a later one (whose seq would skip it)."""
    for snapshot in conn.pending.get(table_id, ()):
        if snapshot.version == version:
            return snapshot
    latest = conn.live.feed.latest(table_id)
    return latest if latest is not None and latest.version == version else None
