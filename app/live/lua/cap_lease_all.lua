-- Holds (or renews) one member among each of several owners' leases, all or none: unless
-- one of them is at the cap.
-- KEYS: the owners' leases. ARGV: cap, member, now ms, expires ms, then for each owner in
-- KEYS' order the number of its members known to be over and those members (removed
-- first). 0: held by every owner; i: the i-th owner (from 1) is at the cap, nothing held.
local cap, member, now, expires = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local at = 5
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  local n = tonumber(ARGV[at])
  for j = at + 1, at + n do redis.call('ZREM', KEYS[i], ARGV[j]) end
  at = at + n + 1
end
for i = 1, #KEYS do
  if redis.call('ZSCORE', KEYS[i], member) == false
      and redis.call('ZCARD', KEYS[i]) >= cap then
    return i
  end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], expires, member)
  redis.call('PEXPIREAT', KEYS[i], expires)
end
return 0
