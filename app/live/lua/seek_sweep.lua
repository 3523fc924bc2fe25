-- One sweep of the open seeks: takes out those whose time is up, and looks at the owners'
-- sockets of those that are due (a bounded number each sweep): a seek whose owner has had
-- no socket anywhere for longer than the grace is taken out too.
--#include seek_drop.lua
-- ARGV: now ms, the pools' key prefix, the prefix of a player's socket leases (the player
-- id follows), the grace ms, how often (ms) an owner's sockets are looked at, at most how
-- many seeks of each kind one sweep takes.
-- Returns {reason, JSON, reason, JSON, ...} for the seeks taken out ("expired",
-- "no_socket").
local now = tonumber(ARGV[1])
local pool_prefix, sockets = ARGV[2], ARGV[3]
local grace, every, limit = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', EXPIRY, '-inf', now, 'LIMIT', 0, limit)) do
  local text = redis.call('HGET', SEEKS, id)
  if text then
    drop(pool_prefix, id, cjson.decode(text))
    table.insert(out, 'expired')
    table.insert(out, text)
  else
    redis.call('ZREM', EXPIRY, id)
  end
end
-- An owner whose socket is there costs one look at his leases, not his seek.
for _, due in ipairs(redis.call('ZRANGEBYSCORE', DUE, '-inf', now, 'LIMIT', 0, limit)) do
  local id, owner = string.match(due, '^(.*)|(.*)$')
  local next_at = now + every
  if redis.call('ZCOUNT', sockets .. owner, now, '+inf') > 0 then
    redis.call('HDEL', ABSENT, id)
  else
    local since = tonumber(redis.call('HGET', ABSENT, id))
    if not since then
      redis.call('HSET', ABSENT, id, now)
      since = now
    end
    if now - since > grace then
      local text = redis.call('HGET', SEEKS, id)
      redis.call('ZREM', DUE, due)
      redis.call('HDEL', ABSENT, id)
      if text then
        drop(pool_prefix, id, cjson.decode(text))
        table.insert(out, 'no_socket')
        table.insert(out, text)
      end
      next_at = nil
    else
      next_at = math.min(next_at, since + grace + 1)
    end
  end
  if next_at then redis.call('ZADD', DUE, next_at, due) end
end
return out
