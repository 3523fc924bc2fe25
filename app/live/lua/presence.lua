-- Updates one process's presence entries and, when that changes who is connected, announces
-- the seats now connected anywhere, so no process has to read the presence back.
-- KEYS[1]: the table's presence hash ("{process}:{seat}" -> expires ms).
-- ARGV: now, expires, keep seconds, the table's (shard) channel, table id, then "+field" (present) or "-field"
-- (gone) entries. Returns the seats connected, "0,2".
local function live()
  local seats, seen = {}, {}
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) > tonumber(ARGV[1]) then
      local seat = string.match(all[i], ':(%d+)$')
      if seat and not seen[seat] then seen[seat] = true; table.insert(seats, tonumber(seat)) end
    end
  end
  table.sort(seats)
  return table.concat(seats, ',')
end
local before = live()
for i = 6, #ARGV do
  local op, field = string.sub(ARGV[i], 1, 1), string.sub(ARGV[i], 2)
  if op == '+' then redis.call('HSET', KEYS[1], field, ARGV[2])
  else redis.call('HDEL', KEYS[1], field) end
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
local after = live()
if after ~= before then
  redis.call('SPUBLISH', ARGV[4], '{"kind":"presence","table_id":"' .. ARGV[5]
    .. '","seats":[' .. after .. ']}')
end
return after
