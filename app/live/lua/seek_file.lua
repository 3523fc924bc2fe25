-- Files in its pool's index a seek opened before the index existed (its JSON has no
-- `cells`), once, at a process's start.
--#include seek_drop.lua
-- ARGV: the seek's id, its JSON with `cells`, when its owner's sockets are first looked
-- at, the pools' key prefix. 1: filed; 0: gone or filed already.
local text = redis.call('HGET', SEEKS, ARGV[1])
if not text or cjson.decode(text).cells then return 0 end
local seek = cjson.decode(ARGV[2])
redis.call('HSET', SEEKS, ARGV[1], ARGV[2])
redis.call('ZADD', DUE, ARGV[3], ARGV[1] .. '|' .. tostring(seek.player.id))
redis.call('SREM', ARGV[4] .. seek.pool, ARGV[1])
for _, node in ipairs(seek.cells) do
  redis.call('ZADD', ARGV[4] .. seek.pool .. ':' .. node, seek.rating, ARGV[1])
end
return 1
