-- Included by the scripts that take tokens from rate-limit buckets (see app/live/ratelimit.py).
-- take(keys, args): takes a token from every bucket of `keys` (rate and burst of each in
-- `args`, in keys' order) and returns 0, or takes none and returns the ms until the emptiest
-- would have one. The clock is Redis's own.
local function take(keys, args)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local levels, wait = {}, 0
  for i, key in ipairs(keys) do
    local rate, burst = tonumber(args[2 * i - 1]), tonumber(args[2 * i])
    local b = redis.call('HMGET', key, 'tokens', 'at')
    local tokens, at = tonumber(b[1]) or burst, tonumber(b[2]) or now
    tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
    levels[i] = tokens
    if tokens < 1 then
      wait = math.max(wait, math.ceil((1 - tokens) * 1000 / rate))
    end
  end
  if wait > 0 then return wait end
  for i, key in ipairs(keys) do
    local rate, burst = tonumber(args[2 * i - 1]), tonumber(args[2 * i])
    redis.call('HSET', key, 'tokens', tostring(levels[i] - 1), 'at', now)
    -- forgotten once it would be full again anyway (at most a day)
    redis.call('PEXPIRE', key, math.min(86400000, math.ceil(burst * 1000 / rate) + 1000))
  end
  return 0
end
