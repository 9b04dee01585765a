-- The store's accounting, on creation: forget the games that expired (their moves with them),
-- then reserve a place for a new game — or, without a game id, only recount.
-- KEYS: live games (sorted set), moves per game (hash), total moves.
-- ARGV: now ms, idle ms, max games, game id (or ''), max total moves.
-- -> {placed 0/1, ms until the oldest game expires (when not placed), total moves, why not}
local cutoff = tonumber(ARGV[1]) - tonumber(ARGV[2])
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)
local freed = 0
for first = 1, #gone, 1000 do  -- in slices: unpack has a bounded stack
  local slice = {unpack(gone, first, math.min(first + 999, #gone))}
  for _, count in ipairs(redis.call('HMGET', KEYS[2], unpack(slice))) do
    freed = freed + (tonumber(count) or 0)
  end
  redis.call('HDEL', KEYS[2], unpack(slice))
end
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff) end
local total = tonumber(redis.call('GET', KEYS[3]) or 0)
if freed > 0 then total = redis.call('DECRBY', KEYS[3], freed) end
local function full(why)
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = 1000
  if oldest[2] then wait = tonumber(oldest[2]) - cutoff end
  return {0, wait, total, why}
end
if total >= tonumber(ARGV[5]) then return full('moves') end
if ARGV[4] == '' then return {0, 0, total, ''} end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return full('games') end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
return {1, 0, total, ''}
