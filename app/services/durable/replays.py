"""A finished game's replay positions (`GET /api/games/{id}/positions`), computed once.

The positions hold every hand after every move: megabytes of JSON for a long game (2.4
MB, 42 ms of replay, for eight seats of Mexican Train), 50 KB gzip-compressed. A finished
game never changes, so its answer is computed once and kept compressed in the live store
for every process, as long as it is asked for (a bounded cache: the games least recently
asked for are forgotten first, and computed again if asked for again).
"""

from __future__ import annotations

import gzip

import orjson

from app.db.session import Database
from app.engine import replay_positions
from app.live.blobs import BlobCache
from app.live.store import LiveStore
from app.services.durable import standings
from app.services.tables.transact import now_ms
from app.wire.answers import ReplayPositions

# At most 256 games' answers, each at most 1 MB compressed (256 MB in all at the very
# most; 13 MB for 256 games of eight seats of Mexican Train), each kept an hour after it
# was last asked for.
KEPT_GAMES = 256
KEPT_MS = 3_600_000
KEPT_BYTES = 1 << 20
GZIP_LEVEL = 6
# A finished game has one version.
FINISHED = b"finished"


class Replays:
    def __init__(self, store: LiveStore, db: Database) -> None:
        self.db = db
        self.cache = BlobCache(store.redis, store.keys.prefix, "positions", count=KEPT_GAMES,
                               ttl_ms=KEPT_MS, max_bytes=KEPT_BYTES)

    async def positions_gzipped(self, game_id: str) -> bytes | None:
        """The game's `ReplayPositions` as gzip-compressed JSON (None: no such game)."""
        return await self.cache.computed(game_id, FINISHED, now_ms(),
                                         lambda: self._replay(game_id))

    async def _replay(self, game_id: str) -> bytes | None:
        async with self.db.session() as session:
            record = await standings.game_record(session, game_id)
            if record is None:
                return None
            bots = await standings.game_bots(session, game_id, list(record.get("players") or []))
        answer: ReplayPositions = {"game_id": game_id, "positions": replay_positions(record),
                                   "bots": bots}
        return gzip.compress(orjson.dumps(answer), GZIP_LEVEL, mtime=0)
