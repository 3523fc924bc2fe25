-- Claims the members of a sorted set that are due (score at most ARGV[1]) by pushing them
-- a lease into the future (ARGV[2]), at most ARGV[3] of them: exactly one caller gets each
-- one, and if that caller dies before acting on it the member comes back when the lease
-- runs out, so a crash loses none. KEYS[1]: the set (turn deadlines, waiting tables).
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
