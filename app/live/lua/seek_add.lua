-- Adds a seek and takes the seeks it completes a table with, if any.
-- KEYS: the seeks hash (id -> JSON), the owners hash (player id -> seek id), the pool's set,
-- the expiry sorted set (id -> ms), the matches hash (table id -> the match).
-- ARGV: the new seek's JSON, now ms, the id of the table a match makes.
-- Returns {"taken"} when the player has an open seek already, {"open"} when the seek now
-- waits, or {"matched", JSON...} with every seek of the new table (the new one first), all
-- of them gone from the store and kept as the match until its table is made and told.
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
-- a seek's `avoid`: the players its owner blocks or is blocked by (PROTOCOL §2c)
local function avoids(a, b)
  for _, id in ipairs(a.avoid or {}) do if id == b.player.id then return true end end
  return false
end
for _, pair in ipairs(found) do
  if #chosen >= seek.seats then break end
  local other = pair[1]
  local ok = other.player.id ~= seek.player.id
  for _, c in ipairs(chosen) do
    if ok and not fits(c, other) then ok = false end
    if ok and (avoids(c, other) or avoids(other, c)) then ok = false end
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
-- The match is kept until its table is made and its players told: whoever finds it left
-- over finishes it (app/services/gathering/seeks.py).
redis.call('HSET', KEYS[5], ARGV[3], cjson.encode({at = now, seeks = texts}))
local out = {'matched'}
for _, text in ipairs(texts) do table.insert(out, text) end
return out
