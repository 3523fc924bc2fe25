"""The live store: every table's state in Redis, written only by compare-and-set.

One hash per table holds `version` and `data` (the JSON state). Every write goes through
one Lua script that checks the version the writer read, stores the new state, keeps the
lobby index, the turn deadlines and the "finished, not yet written" set in step, and
publishes the change; so two processes, two tabs or a double click can never both apply
a change, and no announcement is ever made for a write that did not happen.

The embedded default (no DOMINO_REDIS_URL) is fakeredis' asyncio client with Lua (lupa):
the very same code, in one process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

import redis.asyncio as aioredis

from app.live.keys import Keys

_WRITE = """
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false then cur = 0 else cur = tonumber(cur) end
if cur ~= tonumber(ARGV[1]) then return -1 end
local v = cur + 1
redis.call('HSET', KEYS[1], 'version', v, 'data', ARGV[2])
if ARGV[10] == '1' then redis.call('ZADD', KEYS[2], 'NX', ARGV[5], ARGV[3]) end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[3], ARGV[3])
else
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
end
if ARGV[6] == '1' then redis.call('SADD', KEYS[4], ARGV[3]) end
if ARGV[7] ~= '' then redis.call('ZADD', KEYS[5], ARGV[7], ARGV[3]) end
redis.call('PUBLISH', ARGV[8], ARGV[11])
if ARGV[10] == '1' then redis.call('PUBLISH', ARGV[9], ARGV[12]) end
return v
"""

_DELETE = """
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[5])
redis.call('PUBLISH', ARGV[4], ARGV[6])
return 1
"""

# Claims expired deadlines by pushing them a lease into the future: exactly one caller
# gets each one, and if that caller dies before applying the timeout the deadline
# comes back when the lease runs out, so a crash loses no deadline.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
"""

_RETIRE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, id in ipairs(due) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('PUBLISH', ARGV[2], '{"kind":"remove","table_id":"' .. id .. '"}')
end
return due
"""


@dataclass(frozen=True)
class Versioned:
    """A table's state as read, with the version a compare-and-set must name."""

    version: int
    state: dict[str, Any]


def _versioned(row: list[Any]) -> Versioned | None:
    """A table's [version, data] fields as read from its hash; None if it is gone."""
    version, data = row
    if version is None or data is None:
        return None
    return Versioned(int(version), json.loads(data))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def connect(redis_url: str) -> aioredis.Redis:
    """A Redis client for `redis_url`, or the in-process fakeredis when it is empty."""
    if redis_url:
        return aioredis.Redis.from_url(redis_url, decode_responses=True)
    import fakeredis

    return cast(aioredis.Redis, fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(),
                                                          decode_responses=True))


class LiveStore:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.keys = Keys(prefix)
        self._write = client.register_script(_WRITE)
        self._delete = client.register_script(_DELETE)
        self._claim = client.register_script(_CLAIM)
        self._retire = client.register_script(_RETIRE)

    async def ping(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        await self.redis.aclose()

    # -- tables -------------------------------------------------------------------------

    async def load(self, table_id: str) -> Versioned | None:
        return _versioned(
            await self.redis.hmget(self.keys.table(table_id), ["version", "data"])
        )

    async def load_with_presence(
        self, table_id: str, now_ms: int
    ) -> tuple[Versioned | None, set[int]]:
        """The state and the seats with a live socket on any process, in one round trip."""
        current, seats, _watchers = await self.load_with_watchers(table_id, now_ms)
        return current, seats

    async def load_with_watchers(
        self, table_id: str, now_ms: int
    ) -> tuple[Versioned | None, set[int], int]:
        """The state, the seats with a live socket and how many spectators watch (summed
        over every process), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(self.keys.table(table_id), ["version", "data"])
            pipe.hgetall(self.keys.presence(table_id))
            pipe.hgetall(self._watchers_key(table_id))
            row, presence, watchers = await pipe.execute()
        current = _versioned(row)
        if current is None:
            return None, set(), 0
        return current, _live_seats(presence, now_ms), _live_watchers(watchers, now_ms)

    async def listed(self) -> list[Versioned]:
        """Every table in the lobby index, oldest first."""
        ids = [str(x) for x in await self.redis.zrange(self.keys.index, 0, -1)]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in ids:
                pipe.hmget(self.keys.table(table_id), ["version", "data"])
            rows = await pipe.execute()
        return [current for row in rows if (current := _versioned(row)) is not None]

    async def write(
        self,
        table_id: str,
        expected: int,
        state: dict[str, Any],
        *,
        deadline_ms: int | None,
        created_ms: int,
        finished: bool = False,
        retire_at_ms: int | None = None,
        listed: bool = True,
    ) -> int | None:
        """Store `state` if the table is still at version `expected` (0: does not exist).

        Returns the new version, or None when someone else changed the table first.
        Publishes the change on the table's channel (and the lobby's when `listed`).
        """
        new_version = expected + 1
        k = self.keys
        result = await self._write(
            keys=[k.table(table_id), k.index, k.deadlines, k.unwritten, k.retire],
            args=[
                expected,
                _dumps(state),
                table_id,
                "" if deadline_ms is None else deadline_ms,
                created_ms,
                "1" if finished else "0",
                "" if retire_at_ms is None else retire_at_ms,
                k.table_channel(table_id),
                k.lobby_channel,
                "1" if listed else "0",
                _dumps({"kind": "change", "table_id": table_id, "v": new_version}),
                _dumps({"kind": "update", "table_id": table_id, "v": new_version}),
            ],
        )
        return None if int(result) < 0 else int(result)

    async def delete(self, table_id: str, expected: int) -> bool:
        """Remove a table still at version `expected` (an empty table nobody waits at)."""
        k = self.keys
        done = await self._delete(
            keys=[k.table(table_id), k.index, k.deadlines, k.retire],
            args=[
                expected,
                table_id,
                k.table_channel(table_id),
                k.lobby_channel,
                _dumps({"kind": "removed", "table_id": table_id, "v": expected + 1}),
                _dumps({"kind": "remove", "table_id": table_id, "v": expected + 1}),
            ],
        )
        return bool(done)

    # -- clocks and housekeeping ---------------------------------------------------------

    async def claim_deadlines(self, now_ms: int, lease_ms: int, limit: int = 50) -> list[str]:
        """Expired turn deadlines, each handed to exactly one caller (see _CLAIM)."""
        due = await self._claim(keys=[self.keys.deadlines], args=[now_ms, now_ms + lease_ms, limit])
        return [str(x) for x in due]

    async def deadline_of(self, table_id: str) -> float | None:
        score = await self.redis.zscore(self.keys.deadlines, table_id)
        return None if score is None else float(score)

    async def drop_deadline(self, table_id: str) -> None:
        await self.redis.zrem(self.keys.deadlines, table_id)

    async def retire_due(self, now_ms: int) -> list[str]:
        """Finished tables whose time in the lobby is over: removed and announced."""
        k = self.keys
        gone = await self._retire(keys=[k.retire, k.index], args=[now_ms, k.lobby_channel])
        return [str(x) for x in gone]

    async def unwritten(self) -> list[str]:
        return sorted(str(x) for x in await self.redis.smembers(self.keys.unwritten))

    async def mark_written(self, table_id: str, keep_seconds: int) -> None:
        """The game is in the database: forget it here, keep the table readable a while."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.srem(self.keys.unwritten, table_id)
            pipe.expire(self.keys.table(table_id), keep_seconds)
            await pipe.execute()

    # -- presence and messages ---------------------------------------------------------

    async def set_presence(
        self,
        table_id: str,
        process_id: str,
        present: set[int],
        absent: set[int],
        expires_ms: int,
        keep_seconds: int,
    ) -> None:
        key = self.keys.presence(table_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            if present:
                pipe.hset(key, mapping={f"{process_id}:{s}": expires_ms for s in present})
                pipe.expire(key, keep_seconds)
            if absent:
                pipe.hdel(key, *[f"{process_id}:{s}" for s in absent])
            await pipe.execute()

    def _watchers_key(self, table_id: str) -> str:
        return f"{self.keys.presence(table_id)}:watchers"

    async def set_watchers(
        self, table_id: str, process_id: str, count: int, expires_ms: int, keep_seconds: int
    ) -> None:
        """How many spectators' sockets this process has on the table (0: none)."""
        key = self._watchers_key(table_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            if count:
                pipe.hset(key, process_id, f"{expires_ms}:{count}")
                pipe.expire(key, keep_seconds)
            else:
                pipe.hdel(key, process_id)
            await pipe.execute()

    async def presence_and_watchers(self, table_id: str, now_ms: int) -> tuple[set[int], int]:
        """The seats with a live socket and how many spectators watch, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self.keys.presence(table_id))
            pipe.hgetall(self._watchers_key(table_id))
            presence, watchers = await pipe.execute()
        return _live_seats(presence, now_ms), _live_watchers(watchers, now_ms)

    async def presence(self, table_id: str, now_ms: int) -> set[int]:
        return _live_seats(await self.redis.hgetall(self.keys.presence(table_id)), now_ms)

    async def publish_table(self, table_id: str, message: dict[str, Any]) -> None:
        await self.redis.publish(self.keys.table_channel(table_id), _dumps(message))


def _live_watchers(watchers: dict[Any, Any], now_ms: int) -> int:
    total = 0
    for value in watchers.values():
        expires, count = str(value.decode() if isinstance(value, bytes) else value).split(":")
        if float(expires) > now_ms:
            total += int(count)
    return total


def _live_seats(presence: dict[Any, Any], now_ms: int) -> set[int]:
    seats = set()
    for field, expires in presence.items():
        if float(expires) > now_ms:
            seats.add(int(str(field).rsplit(":", 1)[1]))
    return seats
