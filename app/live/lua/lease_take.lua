-- KEYS[1]: the lease. ARGV: the holder, ms to hold. 1: held by ARGV[1] now, 0: by another.
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
