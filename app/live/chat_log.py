"""What the moderators read of chat, and a muted player's mark (PROTOCOL §2h).

Chat is not a table change and is not written to the database; the last lines of each
table are kept here, bounded, for the moderators: `CHAT_LINES` per table, in a list that
lives `CHAT_DAYS` after its last line, and per player the `CHAT_TABLES` tables he spoke
at last. Chat lines are said to everyone at the table, so nothing here is hidden
information. A muted player's mark is a key that expires when his mute ends: a chat line
costs one read of it, on whichever process the line arrives.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import orjson

from app.live.store import LiveStore

CHAT_LINES = 100
CHAT_TABLES = 20
CHAT_DAYS = 14


@dataclass(frozen=True, slots=True)
class SaidLine:
    table_id: str
    player_id: int
    name: str
    text: str
    at: int


class ChatLog:
    def __init__(self, store: LiveStore) -> None:
        self.store = store
        self.redis = store.redis
        self.prefix = store.keys.prefix

    def _lines(self, table_id: str) -> str:
        return f"{self.prefix}:chat:{table_id}"

    def _tables(self, player_id: int) -> str:
        return f"{self.prefix}:chatted:{player_id}"

    def _muted(self, player_id: int) -> str:
        return f"{self.prefix}:muted:{player_id}"

    async def keep(self, line: SaidLine) -> None:
        """Keep a line said at a table (the newest first, bounded)."""
        text = orjson.dumps({"player_id": line.player_id, "from": line.name,
                             "text": line.text, "at": line.at})
        seconds = CHAT_DAYS * 86400
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.lpush(self._lines(line.table_id), text)
            pipe.ltrim(self._lines(line.table_id), 0, CHAT_LINES - 1)
            pipe.expire(self._lines(line.table_id), seconds)
            pipe.zadd(self._tables(line.player_id), {line.table_id: line.at})
            pipe.zremrangebyrank(self._tables(line.player_id), 0, -CHAT_TABLES - 1)
            pipe.expire(self._tables(line.player_id), seconds)
            await pipe.execute()

    async def tables_of(self, player_id: int) -> list[str]:
        """The tables the player spoke at last, the newest first."""
        found = await self.redis.zrevrange(self._tables(player_id), 0, CHAT_TABLES - 1)
        return [t.decode() if isinstance(t, bytes) else str(t) for t in found]

    async def lines(self, table_ids: list[str]) -> dict[str, list[SaidLine]]:
        """The kept lines of each table, the oldest first."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.lrange(self._lines(table_id), 0, CHAT_LINES - 1)
            kept = await pipe.execute()
        out: dict[str, list[SaidLine]] = {}
        for table_id, texts in zip(table_ids, kept, strict=True):
            said = [orjson.loads(text) for text in reversed(texts)]
            if said:
                out[table_id] = [SaidLine(table_id, int(s["player_id"]), str(s["from"]),
                                          str(s["text"]), int(s["at"])) for s in said]
        return out

    async def mute(self, player_id: int, until_ms: int) -> None:
        """Mark the player muted until `until_ms` (epoch ms); 0 lifts it."""
        left = until_ms - int(time.time() * 1000)
        if left <= 0:
            await self.redis.delete(self._muted(player_id))
        else:
            await self.redis.set(self._muted(player_id), until_ms, px=left)

    async def muted_until(self, player_id: int) -> int | None:
        """When the player's mute ends (epoch ms), or None when he is not muted."""
        value = await self.store.command("GET", self._muted(player_id))
        if value is None:
            return None
        until = int(value)
        return until if until > int(time.time() * 1000) else None
