-- Removes a table still at version ARGV[1] and announces it.
-- KEYS: the table, its round archive, its listeners; then, where they share the table's
-- node (one Redis; in a cluster the caller does this after: app.live.writes), the lobby
-- index, the deadlines and the retire set.
-- ARGV: expected version, table id, the table's (shard) channel, the lobby's channel, the
-- table's message, the lobby's message ('' for none).
-- Returns 1, or 0 when the table is not at that version.
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
for i = 4, #KEYS do redis.call('ZREM', KEYS[i], ARGV[2]) end
redis.call('SPUBLISH', ARGV[3], ARGV[5])
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[6]) end
return 1
