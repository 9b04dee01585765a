-- The store's accounting, on a deleted game: its place and its moves are free again.
-- KEYS: live games (sorted set), moves per game (hash), total moves. ARGV: game id.
-- -> the total of moves held
redis.call('ZREM', KEYS[1], ARGV[1])
local count = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or 0)
redis.call('HDEL', KEYS[2], ARGV[1])
if count ~= 0 then return redis.call('DECRBY', KEYS[3], count) end
return tonumber(redis.call('GET', KEYS[3]) or 0)
