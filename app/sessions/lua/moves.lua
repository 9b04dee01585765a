-- Some of a game's move records, a flag fall that is due applied first.
-- KEYS: meta, moves. ARGV: first index, last index, the game's channel.
-- -> kind, version, records
settle(KEYS[1], ARGV[3], now_ms())
local meta = redis.call('HMGET', KEYS[1], 'kind', 'version')
if not meta[1] then return false end
return {meta[1], meta[2], redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
