-- One compare-and-set write of a table (app.live.writes), with everything that changes
-- with it, and its announcement.
-- KEYS: the table, the table's round archive, the table's listeners; then, where they
-- share the table's node (one Redis; in a cluster the caller keeps them after, app.live.writes,
-- and takes the charge before), the lobby index, the deadlines, the unwritten set, the
-- retire set and the snapshot-due set (header: globals), and the buckets of the request's
-- charge (header: buckets; none: no charge); last, when the write carries out a relayed
-- request (header: answers), the table's record of those (request id -> version): named only
-- then, since on a cluster whose slot is half moved a command naming a key that does not
-- exist is refused (TRYAGAIN) and that record seldom does.
-- ARGV (app.wire.bytes.write_argv): [1] the header, a JSON object of named values:
--   expected (the version the writer read), table (its id), writer (the write's id),
--   process (the writing process), created (ms: its place in the lobby index), listed,
--   deadline (ms; absent: none), finished, retire_at (ms; absent: none), snapshot,
--   channel (the table's shard channel), lobby_channel, globals (the sets are among KEYS),
--   buckets (rate and burst of each bucket, in KEYS' order), answers (the relayed request
--   this write carries out: kept a minute, so the relaying process can learn its move was
--   made though it missed the announcement; absent: none),
--   fresh_archive (a new game: the archive of the last one's rounds is emptied first);
-- [2] the state's JSON; [3] the change announcement's header line; [4] the writer's parts;
-- [5] the lobby's message ('' for none); [6...] the rounds to archive.
-- The change is published unless the listeners are known and no other process is among
-- them: the writing process shows its own change itself.
-- Returns {the new version, 1 if the change was published}; -1 when the version was not the
-- expected one; -2 - ms to wait when the charge was refused (then nothing is written and no
-- token taken).
--#include take.lua
local h = cjson.decode(ARGV[1])
local cur = redis.call('HGET', KEYS[1], 'version')
if cur == false then cur = 0 else cur = tonumber(cur) end
if cur ~= h.expected then
  -- this very write, retried after its reply was lost
  if cur == h.expected + 1 and redis.call('HGET', KEYS[1], 'writer') == h.writer then
    return {cur, 1}
  end
  return -1
end
local first_bucket = h.globals and 9 or 4
local last_bucket = h.answers and #KEYS - 1 or #KEYS
if last_bucket >= first_bucket then
  local buckets = {}
  for i = first_bucket, last_bucket do buckets[#buckets + 1] = KEYS[i] end
  local wait = take(buckets, h.buckets)
  if wait > 0 then return -2 - wait end
end
local v = cur + 1
redis.call('HSET', KEYS[1], 'version', v, 'data', ARGV[2], 'writer', h.writer)
if h.globals then
  if h.listed then redis.call('ZADD', KEYS[4], 'NX', h.created, h.table) end
  if h.deadline then
    redis.call('ZADD', KEYS[5], h.deadline, h.table)
  else
    redis.call('ZREM', KEYS[5], h.table)
  end
  if h.finished then redis.call('SADD', KEYS[6], h.table) end
  if h.retire_at then redis.call('ZADD', KEYS[7], h.retire_at, h.table) end
  if h.snapshot then redis.call('SADD', KEYS[8], h.table) end
end
if h.answers then
  redis.call('HSET', KEYS[#KEYS], h.answers, v)
  redis.call('PEXPIRE', KEYS[#KEYS], 60000)
end
if h.fresh_archive then redis.call('DEL', KEYS[2]) end
for i = 6, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if cur == 0 then redis.call('SADD', KEYS[3], '*') end
local known = redis.call('SCARD', KEYS[3])
local published = 0
if known == 0 or known - 1 - redis.call('SISMEMBER', KEYS[3], h.process) > 0 then
  redis.call('SPUBLISH', h.channel, ARGV[3] .. ARGV[2] .. ARGV[4])
  published = 1
end
if ARGV[5] ~= '' then redis.call('PUBLISH', h.lobby_channel, ARGV[5]) end
return {v, published}
