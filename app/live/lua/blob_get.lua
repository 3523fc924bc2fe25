-- Reads one body of a bounded cache (lua/blob_put.lua) and keeps it as if kept now: the
-- bodies asked for stay, those nobody asks for are forgotten first.
-- KEYS[1]: the body's key, KEYS[2]: the cache's index. ARGV: now ms, how long a body is
-- kept (ms). Returns the body, or false.
local body = redis.call('GET', KEYS[1])
if not body then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[1], KEYS[1])
return body
