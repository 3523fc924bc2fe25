"""Reading tables from the live store: a table's state with its version, several at once,
the lobby's, and a game's archived rounds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from app.live.base import StoreBase


@dataclass(frozen=True)
class Versioned:
    """A table's JSON state as read, with the version a compare-and-set must name."""

    version: int
    state: dict[str, Any]


def versioned(row: list[Any]) -> Versioned | None:
    """A table's [version, data] fields as read from its hash; None if it is gone."""
    version, data = row
    if version is None or data is None:
        return None
    return Versioned(int(version), orjson.loads(data))


class Reads(StoreBase):
    async def load(self, table_id: str) -> Versioned | None:
        return versioned(await self.command("HMGET", self.keys.table(table_id), "version",
                                            "data"))

    async def versions(self, table_ids: list[str]) -> dict[str, int | None]:
        """The current version of each table (None: gone), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hget(self.keys.table(table_id), "version")
            found = await pipe.execute()
        return {t: None if v is None else int(v) for t, v in zip(table_ids, found, strict=True)}

    async def listed(self) -> list[Versioned]:
        """Every table in the lobby index, oldest first."""
        ids = [str(x) for x in await self.redis.zrange(self.keys.index, 0, -1)]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in ids:
                pipe.hmget(self.keys.table(table_id), ["version", "data"])
            rows = await pipe.execute()
        return [current for row in rows if (current := versioned(row)) is not None]

    async def archived_rounds(
        self, table_id: str, start: int = 0, stop: int = -1
    ) -> list[dict[str, Any]]:
        """The rounds of the table's game that are over, as `write(archive=...)` stored them
        (those numbered `start` to `stop`, both included; -1 is the last)."""
        rounds = await self.redis.lrange(self.keys.rounds(table_id), start, stop)
        return [orjson.loads(x) for x in rounds]

    async def missing(self, table_ids: list[str]) -> list[str]:
        """Which of these tables the store does not hold, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.exists(self.keys.table(table_id))
            found = await pipe.execute()
        return [t for t, there in zip(table_ids, found, strict=True) if not there]
