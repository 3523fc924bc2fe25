-- Gives back the token a charge took from a bucket (KEYS[1]; ARGV: its rate and burst) when
-- another bucket of the same charge refused it: on a cluster each bucket is taken by a call
-- of its own (app/live/ratelimit.py), so "all or none" is made good afterwards.
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
if tokens then
  redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[2]), tokens + 1)))
end
return 1
