-- Finished tables whose time in the lobby is over (KEYS[1], the retire set, scored by when;
-- ARGV[1]: now) leave the lobby's index (KEYS[2]), announced on its channel (ARGV[2]).
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, id in ipairs(due) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('PUBLISH', ARGV[2], '{"kind":"remove","table_id":"' .. id .. '"}')
end
return due
