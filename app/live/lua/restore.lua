-- Puts back a table the store lost (it must not exist), at a version past any it had, with
-- its archived rounds, its turn deadline and its lobby entry, and announces it like a write.
-- Who listens to it is unknown from then on (every change is published).
-- KEYS: the table, the lobby index, the deadlines, the snapshot-due set, the table's round
-- archive, the table's listeners.
-- ARGV: [1] the header, a JSON object: version, table (its id), created, listed, deadline
-- (absent: none), channel, lobby_channel; [2] the state's JSON; [3] the change
-- announcement's header line; [4] the lobby's message ('' for none); [5...] the archived
-- rounds. Returns 1, or 0 when the table exists (then nothing changes).
local h = cjson.decode(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', h.version, 'data', ARGV[2], 'writer', 'restore')
redis.call('DEL', KEYS[5], KEYS[6])
for i = 5, #ARGV do redis.call('RPUSH', KEYS[5], ARGV[i]) end
if h.deadline then redis.call('ZADD', KEYS[3], h.deadline, h.table) end
if h.listed then redis.call('ZADD', KEYS[2], 'NX', h.created, h.table) end
redis.call('SREM', KEYS[4], h.table)
redis.call('PUBLISH', h.channel, ARGV[3] .. ARGV[2])
if ARGV[4] ~= '' then redis.call('PUBLISH', h.lobby_channel, ARGV[4]) end
return 1
