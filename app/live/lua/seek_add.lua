-- Adds a seek and takes the seeks it completes a table with, if any.
--#include seek_drop.lua
-- ARGV: the new seek's JSON (its `cells`: the nodes its range covers), now ms, the id of
-- the table a match makes, the pools' key prefix, how many seeks one node may show, when
-- its owner's sockets are first looked at (ms), then the nodes that hold its rating.
-- Returns {"taken", looked} when the player has an open seek already, {"open", looked}
-- when the seek now waits, or {"matched", looked, JSON...} with every seek of the new
-- table (the new one first), all of them gone from the store and kept as the match until
-- its table is made and told. `looked`: how many seeks the add read.
local seek = cjson.decode(ARGV[1])
local now = tonumber(ARGV[2])
local pool_prefix = ARGV[4]
local limit = tonumber(ARGV[5])
local owner = tostring(seek.player.id)
local held = redis.call('HGET', OWNERS, owner)
if held then
  local old = redis.call('HGET', SEEKS, held)
  if old then
    local was = cjson.decode(old)
    if was.expires_at > now then return {'taken', 0} end
    drop(pool_prefix, held, was)
  end
end
local function fits(a, b)
  return b.rating >= a.range[1] and b.rating <= a.range[2]
    and a.rating >= b.range[1] and a.rating <= b.range[2]
end
-- The seeks whose range covers this one's rating and whose rating is inside its range:
-- a few nodes of the pool's index, each read inside the range.
local pool = pool_prefix .. seek.pool .. ':'
local found, seen, looked = {}, {}, 0
for i = 7, #ARGV do
  local node = pool .. ARGV[i]
  local ids = redis.call('ZRANGEBYSCORE', node, seek.range[1], seek.range[2],
                         'LIMIT', 0, limit)
  for _, id in ipairs(ids) do
    if not seen[id] then
      seen[id] = true
      looked = looked + 1
      local text = redis.call('HGET', SEEKS, id)
      if not text then
        redis.call('ZREM', node, id)  -- left by a seek taken out by an older script
      else
        local other = cjson.decode(text)
        if other.expires_at > now and fits(seek, other) then
          table.insert(found, {other, text})
        end
      end
    end
  end
end
-- the oldest seeks first
table.sort(found, function(x, y) return x[1].created_at < y[1].created_at end)
-- a seek's `avoid`: the players its owner blocks or is blocked by (PROTOCOL §2c)
local function avoids(a, b)
  for _, id in ipairs(a.avoid or {}) do if id == b.player.id then return true end end
  return false
end
local chosen, texts = {seek}, {ARGV[1]}
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
  redis.call('HSET', SEEKS, seek.id, ARGV[1])
  redis.call('HSET', OWNERS, owner, seek.id)
  redis.call('ZADD', EXPIRY, seek.expires_at, seek.id)
  redis.call('ZADD', DUE, ARGV[6], seek.id .. '|' .. owner)
  for _, node in ipairs(seek.cells) do
    redis.call('ZADD', pool .. node, seek.rating, seek.id)
  end
  return {'open', looked}
end
for i = 2, #chosen do drop(pool_prefix, chosen[i].id, chosen[i]) end
-- The match is kept until its table is made and its players told: whoever finds it left
-- over finishes it (app/services/gathering/seeks.py).
redis.call('HSET', MATCHES, ARGV[3], cjson.encode({at = now, seeks = texts}))
local out = {'matched', looked}
for _, text in ipairs(texts) do table.insert(out, text) end
return out
