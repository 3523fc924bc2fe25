-- Puts back a table the store lost (it must not exist), at a version past any it had, with
-- its archived rounds, its turn deadline and its lobby entry, and announces it like a write.
-- Who listens to it is unknown from then on (every change is published).
-- KEYS: the table, its round archive, its listeners; then, where they share the table's
-- node (one Redis; in a cluster the caller does this after: app.live.writes), the lobby
-- index, the deadlines and the snapshot-due set.
-- ARGV: [1] the header, a JSON object: version, table (its id), created, listed, deadline
-- (absent: none), channel (the table's shard channel), lobby_channel; [2] the state's JSON;
-- [3] the change announcement's header line; [4] the lobby's message ('' for none); [5...]
-- the archived rounds. Returns 1, or 0 when the table exists (then nothing changes).
local h = cjson.decode(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', h.version, 'data', ARGV[2], 'writer', 'restore')
redis.call('DEL', KEYS[2], KEYS[3])
for i = 5, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if #KEYS > 3 then
  if h.listed then redis.call('ZADD', KEYS[4], 'NX', h.created, h.table) end
  if h.deadline then redis.call('ZADD', KEYS[5], h.deadline, h.table) end
  redis.call('SREM', KEYS[6], h.table)
end
redis.call('SPUBLISH', h.channel, ARGV[3] .. ARGV[2])
if ARGV[4] ~= '' then redis.call('PUBLISH', h.lobby_channel, ARGV[4]) end
return 1
