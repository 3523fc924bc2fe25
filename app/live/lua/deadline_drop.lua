-- Drops a table's turn deadline (sorted set KEYS[1], member ARGV[1]) unless a write has set
-- a new one since the caller looked: with ARGV[3] = '1' only the entry the caller's claim
-- leased (its score exactly ARGV[2]), else only a due one (score at most ARGV[2]). Returns 1
-- when dropped.
local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if score == nil then return 0 end
local bound = tonumber(ARGV[2])
if (ARGV[3] == '1' and score == bound) or (ARGV[3] ~= '1' and score <= bound) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
