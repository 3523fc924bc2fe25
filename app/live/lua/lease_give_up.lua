-- KEYS[1]: the lease. ARGV[1]: the holder giving it up (another's is left alone).
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
