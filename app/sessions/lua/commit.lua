-- The generic path's write: apply what Python decided, only if the game is still at the version
-- it read (compare-and-set); the caller reads again and retries on 'conflict' (a flag fall that
-- is due is applied first, and is such a change).
-- KEYS: meta, moves, receipts.
-- ARGV: version read, receipt field or '', receipt value, refusals to remember, ttl ms, channel,
--       'refused' | 'accepted', then for an accepted move: status, winner, next, position,
--       facts, the move's record, reason (or ''), the mover.
-- -> {'accepted', state}, {'refused'}, {'conflict'}, {'receipt', text}, {'game_not_found'}
local now = now_ms()
settle(KEYS[1], ARGV[6], now)
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'game_not_found'} end
if tonumber(version) ~= tonumber(ARGV[1]) then return {'conflict'} end
if ARGV[2] ~= '' then
  local seen = redis.call('HGET', KEYS[3], ARGV[2])
  if seen then return {'receipt', seen} end  -- the same request, answered in between
end
if ARGV[7] == 'refused' then
  remember(KEYS[1], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
  return {'refused'}
end
version = tonumber(version) + 1
local seq = redis.call('LLEN', KEYS[2]) + 1
local stamp = moved(KEYS[1], tonumber(ARGV[15]), tonumber(ARGV[10]), version, seq, now)
redis.call('HSET', KEYS[1], 'version', version, 'status', ARGV[8], 'winner', ARGV[9],
           'next', ARGV[10], 'position', ARGV[11], 'facts', ARGV[12], 'reason', ARGV[14],
           'offer', 0)
redis.call('RPUSH', KEYS[2], ARGV[13] .. stamp)
if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
redis.call(PUBLISH, ARGV[6], version)
return {'accepted', state_of(KEYS[1], KEYS[2])}
