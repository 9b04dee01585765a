-- The store's accounting, on creation: the moves accepted since the last report counted (as
-- touch.lua does), the games that expired forgotten (their moves, and their owners' counts, with
-- them), then a place reserved for a new game — or, without a game id, only a recount.
-- KEYS: accounts.lua's.
-- ARGV: now ms, the new game's lifetime ms (until its first move), max games, game id (or ''),
--       max total moves, owner, the most live games of one owner, the most moves of one owner,
--       a game's lifetime ms after a move, then the report's game id / accepted moves pairs.
-- -> {placed 0/1, ms until the next game expires (when not placed), total moves, why not, the
--     owners' shares (accounts.lua's: the owner asked, and those the report and the expiry
--     changed)}
local now = tonumber(ARGV[1])
local _, owners = report(10, now + tonumber(ARGV[9]))
local total = expire(now, owners)
owners[ARGV[6]] = true
local function answer(placed, wait, why)
  return {placed, wait, total, why, shares(ARGV[8], owners)}
end
local function full(why)
  local next_one = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = 1000
  if next_one[2] then wait = tonumber(next_one[2]) - now end
  return answer(0, wait, why)
end
if total >= tonumber(ARGV[5]) then return full('moves') end
if ARGV[4] == '' then return answer(0, 0, '') end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return full('games') end
local owner = ARGV[6]
if tonumber(redis.call('HGET', KEYS[5], owner) or 0) >= tonumber(ARGV[7]) then
  return full('client_games')
end
if tonumber(redis.call('ZSCORE', KEYS[6], owner) or 0) >= tonumber(ARGV[8]) then
  return full('client_moves')
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[4])
redis.call('HSET', KEYS[4], ARGV[4], owner)
redis.call('HINCRBY', KEYS[5], owner, 1)
return answer(1, 0, '')
