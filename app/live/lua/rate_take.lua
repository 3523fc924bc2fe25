-- A request's charge on its rate-limit buckets.
-- KEYS: the buckets. ARGV: rate and burst of each, in KEYS' order.
-- Returns {1, 0} when every bucket had a token (one taken from each), else {0, ms until
-- the emptiest would have one} and nothing taken.
--#include take.lua
local wait = take(KEYS, ARGV)
if wait > 0 then return {0, wait} end
return {1, 0}
