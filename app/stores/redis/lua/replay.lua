-- A game's kind, parameters and every move record (to rebuild its board).
-- KEYS: meta, moves.
local meta = redis.call('HMGET', KEYS[1], 'kind', 'params')
if not meta[1] then return false end
return REPLY.history{kind = meta[1], params = meta[2], records = redis.call('LRANGE', KEYS[2], 0, -1)}
