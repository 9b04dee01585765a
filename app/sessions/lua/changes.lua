-- What a push stream reads after a change: the game's state and its moves after a point.
-- KEYS: meta, moves. ARGV: first index, last index (0-based, inclusive) of the moves wanted.
-- -> kind, facts, status, winner, reason, next, version, the last move's record (or false),
--    then the records of the moves wanted
local meta = redis.call('HMGET', KEYS[1], 'kind', 'facts', 'status', 'winner', 'reason',
                        'next', 'version')
if not meta[1] then return false end
meta[8] = redis.call('LINDEX', KEYS[2], -1)
local records = redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])
for i = 1, #records do meta[8 + i] = records[i] end
return meta
