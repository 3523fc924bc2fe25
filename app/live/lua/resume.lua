-- After an outage of the store: the first process back that saw it begin after the last
-- resumption claims this one (ARGV: when its outage began, now); the others see it done.
-- The outage is kept as "began:ended" (KEYS[2]), widened by a process that saw it begin
-- earlier: a turn whose deadline fell within it does not time out (see app.live.outage).
-- KEYS[1]: when the clocks were last restarted. Returns 1 to the process that claims it.
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if last >= tonumber(ARGV[1]) then
  local began, ended = string.match(redis.call('GET', KEYS[2]) or '', '^(%d+):(%d+)$')
  if began and tonumber(ARGV[1]) < tonumber(began) then
    redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ended)
  end
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2])
return 1
