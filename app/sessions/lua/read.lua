-- The generic path's read: what a move needs to be decided in Python.
-- KEYS: meta, receipts. ARGV: the request's receipt field, or ''.
-- -> kind, params, h1, h2, version, refusals, max_moves, position, and the receipts asked for
local meta = redis.call('HMGET', KEYS[1], 'kind', 'params', 'h1', 'h2', 'version', 'refusals',
                        'max_moves', 'position')
if not meta[1] then return false end
for i = 1, #ARGV do meta[8 + i] = redis.call('HGET', KEYS[2], ARGV[i]) end
return meta
