-- Some of a game's move records, a flag fall that is due applied first.
-- KEYS: meta, moves.
settle(KEYS[1], ARG.channel, now_ms())
local meta = redis.call('HMGET', KEYS[1], 'kind', 'version')
if not meta[1] then return false end
return REPLY.moves{kind = meta[1], version = meta[2],
                   records = redis.call('LRANGE', KEYS[2], ARG.first, ARG.last)}
