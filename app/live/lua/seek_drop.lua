-- (Included by the seek scripts.) Every seek script takes the same KEYS: the seeks hash
-- (id -> JSON), the owners hash (player id -> seek id), the expiry sorted set (id -> ms),
-- the due sorted set ("id|owner" -> when the owner's sockets are next looked at), the absent hash
-- (id -> since when its owner was found with no socket), the matches hash (table id -> the
-- match). A pool's index: sorted sets (id -> rating) named <pool prefix><pool>:<node>, the
-- nodes the seek's JSON lists under `cells` (app/live/seek_index.py).
local SEEKS, OWNERS, EXPIRY, DUE, ABSENT, MATCHES = KEYS[1], KEYS[2], KEYS[3], KEYS[4],
  KEYS[5], KEYS[6]

-- Takes the seek `id` (decoded: `seek`) out of the store and its pool's index.
local function drop(pool_prefix, id, seek)
  redis.call('HDEL', SEEKS, id)
  local owner = tostring(seek.player.id)
  if redis.call('HGET', OWNERS, owner) == id then redis.call('HDEL', OWNERS, owner) end
  redis.call('ZREM', EXPIRY, id)
  redis.call('ZREM', DUE, id .. '|' .. owner)
  redis.call('HDEL', ABSENT, id)
  local pool = pool_prefix .. seek.pool
  for _, node in ipairs(seek.cells or {}) do redis.call('ZREM', pool .. ':' .. node, id) end
  -- a seek filed before the index: its pool was one set
  redis.call('SREM', pool, id)
end
