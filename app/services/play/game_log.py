"""The whole log of a table's current game, for whoever arrives after it began.

The live state keeps only its last changes' events (`tables.LOG_LENGTH`), enough for a
socket that missed a few. A spectator who arrives mid-game, or a player who reloads in a
new tab, gets the game from its start instead: the engine replays the game's moves and
gives back the events each one caused. Those are the events every socket was sent as the
game went (nothing of the hands or the bazaar before a round's end shows them); the deals
and the seed used for the replay never leave this module.

A replay costs the whole game (tens of milliseconds for eight seats of Mexican Train), so
a table's log is replayed once for each version of the table and kept, gzip-compressed,
in the live store for every process (`GameLogs`): asking again costs a read, asking after
a move one replay, whoever asks and on whichever process.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass

import orjson

from app.engine import game_from_dict, replay_events
from app.engine.events import Event
from app.live.blobs import BlobCache
from app.live.store import LiveStore
from app.services.tables.table import Table
from app.services.tables.transact import full_game_dict, load, now_ms, public_table
from app.wire.answers import TableLog

# The logs kept: one a table (its latest version asked for), the least recently asked for
# forgotten first; a log is a few kilobytes compressed (8.4 KB for a whole game of eight
# seats of Mexican Train), a larger one is not kept: 128 MB at most in all.
KEPT_LOGS = 1_000
KEPT_MS = 15 * 60_000
KEPT_BYTES = 128 << 10
GZIP_LEVEL = 6


@dataclass(frozen=True)
class GameLog:
    """The events of the current game up to the table's version `version`."""

    table_id: str
    version: int
    game_id: str | None
    events: list[Event]

    def to_dict(self) -> TableLog:
        return {"table_id": self.table_id, "version": self.version, "game_id": self.game_id,
                "events": self.events}


async def game_log(store: LiveStore, table_id: str) -> GameLog | None:
    """The table's current game from its start, replayed (None: no such table)."""
    current = await load(store, table_id)
    return None if current is None else await _replayed(store, table_id, current)


async def _replayed(store: LiveStore, table_id: str, current: Table) -> GameLog:
    if current.game is None:
        return GameLog(table_id, current.version, current.game_id, [])
    game = game_from_dict(await full_game_dict(store, table_id, current.game))
    players = [seat["player"] or "" for seat in public_table(current)["seats"]]
    events = replay_events(game.record(players))
    return GameLog(table_id, current.version, current.game_id, events)


class GameLogs:
    """Each table's log as gzip-compressed JSON (`TableLog`), replayed once a version."""

    def __init__(self, store: LiveStore) -> None:
        self.store = store
        self.cache = BlobCache(store.redis, store.keys.prefix, "table-log", count=KEPT_LOGS,
                               ttl_ms=KEPT_MS, max_bytes=KEPT_BYTES)

    async def gzipped(self, table_id: str) -> bytes | None:
        """The table's log now, gzip-compressed (None: no such table)."""
        current = await load(self.store, table_id)
        if current is None:
            return None

        async def replay() -> bytes:
            found = await _replayed(self.store, table_id, current)
            return gzip.compress(orjson.dumps(found.to_dict()), GZIP_LEVEL, mtime=0)

        tag = f"{current.version}:{current.game_id}".encode()
        return await self.cache.computed(table_id, tag, now_ms(), replay)
