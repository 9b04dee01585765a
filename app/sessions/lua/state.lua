-- A game's state. KEYS: meta, moves.
-- -> kind, facts, status, winner, reason, next, version, the last move's record (or false)
local meta = redis.call('HMGET', KEYS[1], 'kind', 'facts', 'status', 'winner', 'reason',
                        'next', 'version')
if not meta[1] then return false end
meta[8] = redis.call('LINDEX', KEYS[2], -1)
return meta
