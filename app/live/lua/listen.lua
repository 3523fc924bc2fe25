-- KEYS[1]: a table's listeners, ARGV[1]: a process now subscribed to the table. Added only
-- while the set is known to be whole (it exists).
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SADD', KEYS[1], ARGV[1]) end
