-- Holds (or renews) a member among an owner's leases, unless the cap is reached.
-- KEYS[1]: the owner's leases. ARGV: cap, member, now ms, expires ms, then members known
-- to be over (removed first). 1: held (a member already held is renewed), 0: at the cap.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
for i = 5, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
if redis.call('ZSCORE', KEYS[1], ARGV[2]) == false
    and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1
