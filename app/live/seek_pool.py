"""Open seeks (quick pairing) in Redis, matched by one Lua script.

A seek is a JSON object `{"id", "player": {"id", "name"}, "pool", "rating", "range": [lo,
hi], "seats", "expires_at", ...}`. Seeks that could share a table (same variant, seats,
options, clock and rated) are in one pool, a set. Adding a seek and taking the seeks it
completes a table with is one script: two processes can never take one seek twice, and a
player never has two open seeks.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis.asyncio as aioredis

# KEYS: the seeks hash (id -> JSON), the owners hash (player id -> seek id), the pool's set,
# the expiry sorted set (id -> ms).
# ARGV: the new seek's JSON, now ms.
# Returns {"taken"} when the player has an open seek already, {"open"} when the seek now
# waits, or {"matched", JSON...} with every seek of the new table (the new one first), all
# of them gone from the store.
_ADD = """
local seek = cjson.decode(ARGV[1])
local now = tonumber(ARGV[2])
local owner = tostring(seek.player.id)
local held = redis.call('HGET', KEYS[2], owner)
if held then
  local old = redis.call('HGET', KEYS[1], held)
  if old and cjson.decode(old).expires_at > now then return {'taken'} end
  redis.call('HDEL', KEYS[1], held)
  redis.call('SREM', KEYS[3], held)
  redis.call('ZREM', KEYS[4], held)
end
local function fits(a, b)
  return b.rating >= a.range[1] and b.rating <= a.range[2]
    and a.rating >= b.range[1] and a.rating <= b.range[2]
end
local chosen, texts = {seek}, {ARGV[1]}
local ids = redis.call('SMEMBERS', KEYS[3])
local found = {}
for _, id in ipairs(ids) do
  local text = redis.call('HGET', KEYS[1], id)
  if not text then
    redis.call('SREM', KEYS[3], id)
  else
    local other = cjson.decode(text)
    if other.expires_at > now then table.insert(found, {other, text}) end
  end
end
-- the oldest seeks first
table.sort(found, function(x, y) return x[1].created_at < y[1].created_at end)
for _, pair in ipairs(found) do
  if #chosen >= seek.seats then break end
  local other = pair[1]
  local ok = other.player.id ~= seek.player.id
  for _, c in ipairs(chosen) do
    if ok and not fits(c, other) then ok = false end
  end
  if ok then
    table.insert(chosen, other)
    table.insert(texts, pair[2])
  end
end
if #chosen < seek.seats then
  redis.call('HSET', KEYS[1], seek.id, ARGV[1])
  redis.call('HSET', KEYS[2], owner, seek.id)
  redis.call('SADD', KEYS[3], seek.id)
  redis.call('ZADD', KEYS[4], seek.expires_at, seek.id)
  return {'open'}
end
for i = 2, #chosen do
  local c = chosen[i]
  redis.call('HDEL', KEYS[1], c.id)
  if redis.call('HGET', KEYS[2], tostring(c.player.id)) == c.id then
    redis.call('HDEL', KEYS[2], tostring(c.player.id))
  end
  redis.call('SREM', KEYS[3], c.id)
  redis.call('ZREM', KEYS[4], c.id)
end
local out = {'matched'}
for _, text in ipairs(texts) do table.insert(out, text) end
return out
"""

# Removes one seek if it is still there (and, when ARGV[2] is not empty, only if that player
# owns it). KEYS: seeks, owners, expiry; the pool's set is named in the seek. Returns its JSON.
_REMOVE = """
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text then return false end
local seek = cjson.decode(text)
if ARGV[2] ~= '' and tostring(seek.player.id) ~= ARGV[2] then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], tostring(seek.player.id)) == ARGV[1] then
  redis.call('HDEL', KEYS[2], tostring(seek.player.id))
end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SREM', ARGV[3] .. seek.pool, ARGV[1])
return text
"""


class SeekBook:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix
        self._add = client.register_script(_ADD)
        self._remove = client.register_script(_REMOVE)

    @property
    def _seeks(self) -> str:
        return f"{self.prefix}:seeks"

    @property
    def _owners(self) -> str:
        return f"{self.prefix}:seek-owners"

    @property
    def _expiry(self) -> str:
        return f"{self.prefix}:seek-expiry"

    @property
    def _pool_prefix(self) -> str:
        return f"{self.prefix}:seek-pool:"

    async def add(self, seek: dict[str, Any], now_ms: int) -> tuple[str, list[dict[str, Any]]]:
        """("taken", []), ("open", []) or ("matched", the seeks of the new table)."""
        reply = await self._add(
            keys=[self._seeks, self._owners, self._pool_prefix + seek["pool"], self._expiry],
            args=[orjson.dumps(seek), now_ms],
        )
        kind = str(reply[0])
        return kind, [orjson.loads(text) for text in reply[1:]]

    async def remove(self, seek_id: str, owner: int | None = None) -> dict[str, Any] | None:
        """Take the seek away (only `owner`'s, when given); its JSON, None if not there."""
        text = await self._remove(
            keys=[self._seeks, self._owners, self._expiry],
            args=[seek_id, "" if owner is None else str(owner), self._pool_prefix],
        )
        return None if text is None else dict(orjson.loads(text))

    async def of_player(self, player_id: int) -> str | None:
        seek_id = await self.redis.hget(self._owners, str(player_id))
        return None if seek_id is None else str(seek_id)

    async def all(self) -> list[dict[str, Any]]:
        return [orjson.loads(text) for text in (await self.redis.hgetall(self._seeks)).values()]

    async def expired(self, now_ms: int) -> list[str]:
        return [str(x) for x in await self.redis.zrangebyscore(self._expiry, "-inf", now_ms)]
