-- A process's count of spectators' sockets at a table, then the total over every process
-- announced. KEYS[1]: the table's spectators hash (process -> "expires ms:count").
-- ARGV: process, "expires ms:count" ("" to remove), seconds to keep, now ms, the table's
-- (shard) channel, table.
-- Returns the total.
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
local total = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 2, #all, 2 do
  local expires, count = string.match(all[i], '^([^:]+):(%d+)$')
  if expires and tonumber(expires) > tonumber(ARGV[4]) then total = total + tonumber(count) end
end
redis.call('SPUBLISH', ARGV[5], '{"kind":"spectators","table_id":"' .. ARGV[6]
  .. '","count":' .. total .. '}')
return total
