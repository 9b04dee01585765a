-- Some of a game's move records. KEYS: meta, moves. ARGV: first index, last index.
-- -> kind, version, records
local meta = redis.call('HMGET', KEYS[1], 'kind', 'version')
if not meta[1] then return false end
return {meta[1], meta[2], redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
