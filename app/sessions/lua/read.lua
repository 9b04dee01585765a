-- The generic path's read: what a move needs to be decided in Python, a flag fall that is due
-- applied first. KEYS: meta, receipts. ARGV: the game's channel, then the request's receipt
-- fields, if any.
-- -> kind, params, h1, h2, version, refusals, max_moves, position, status, winner, reason,
--    offer, and the receipts asked for
settle(KEYS[1], ARGV[1], now_ms())
local meta = redis.call('HMGET', KEYS[1], 'kind', 'params', 'h1', 'h2', 'version', 'refusals',
                        'max_moves', 'position', 'status', 'winner', 'reason', 'offer')
if not meta[1] then return false end
for i = 2, #ARGV do meta[11 + i] = redis.call('HGET', KEYS[2], ARGV[i]) end
return meta
