-- Removes a table still at version ARGV[1] and announces it.
-- KEYS: the table, the lobby index, the deadlines, the retire set, the table's round
-- archive, the table's listeners. ARGV: expected version, table id, the table's channel,
-- the lobby's channel, the table's message, the lobby's message ('' for none).
-- Returns 1, or 0 when the table is not at that version.
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[5], KEYS[6])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[5])
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[6]) end
return 1
