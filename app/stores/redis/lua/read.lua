-- The generic path's read: what a move needs to be decided in Python, a flag fall that is due
-- applied first, the request's receipts (the fields in the tail) and, for a takeback, the last
-- moves' records. KEYS: meta, receipts, moves.
settle(KEYS[1], ARG.channel, now_ms())
local m = redis.call('HMGET', KEYS[1], 'kind', 'params', 'h1', 'h2', 'version', 'refusals',
                     'max_moves', 'position', 'status', 'winner', 'reason', 'offer', 'lobby',
                     'open', 'joined', 'tbo', 'opened', 'off')
if not m[1] then return false end
local receipts = {}
for i = ARG_TAIL, #ARGV do receipts[#receipts + 1] = redis.call('HGET', KEYS[2], ARGV[i]) end
local records = {}
local wanted = tonumber(ARG.records)
if wanted ~= 0 then
  records = redis.call('LRANGE', KEYS[3], wanted < 0 and 0 or -wanted, -1)
end
return REPLY.read{kind = m[1], params = m[2], h1 = m[3], h2 = m[4], version = m[5],
                  refusals = m[6], max_moves = m[7], position = m[8], status = m[9],
                  winner = m[10], reason = m[11], offer = m[12], lobby = m[13] or '0',
                  open = m[14] or '0', joined = m[15] or '0', tbo = m[16] or '0',
                  opened = m[17] or '0', off = m[18] or '', records = records,
                  receipts = receipts}
