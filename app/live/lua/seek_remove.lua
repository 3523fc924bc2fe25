-- Removes one seek if it is still there (and, when ARGV[2] is not empty, only if that player
-- owns it). KEYS: seeks, owners, expiry; ARGV: the seek's id, the owner or '', the prefix of
-- the pools' sets (the pool is named in the seek). Returns its JSON.
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text then return false end
local seek = cjson.decode(text)
if ARGV[2] ~= '' and tostring(seek.player.id) ~= ARGV[2] then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], tostring(seek.player.id)) == ARGV[1] then
  redis.call('HDEL', KEYS[2], tostring(seek.player.id))
end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SREM', ARGV[3] .. seek.pool, ARGV[1])
return text
