-- Keeps one body of a bounded cache, and forgets the oldest bodies beyond its count.
-- KEYS[1]: the body's key, KEYS[2]: the cache's index (sorted set key -> when kept).
-- ARGV: the body, now ms, how long a body is kept (ms), how many bodies are kept at most.
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  redis.call('DEL', unpack(oldest))
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
