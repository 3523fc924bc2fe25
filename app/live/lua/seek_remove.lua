-- Removes one seek if it is still there (and, when ARGV[2] is not empty, only if that player
-- owns it).
--#include seek_drop.lua
-- ARGV: the seek's id, the owner or '', the pools' key prefix. Returns its JSON.
local text = redis.call('HGET', SEEKS, ARGV[1])
if not text then return false end
local seek = cjson.decode(text)
if ARGV[2] ~= '' and tostring(seek.player.id) ~= ARGV[2] then return false end
drop(ARGV[3], ARGV[1], seek)
return text
