-- The store's accounting, on creation: the moves accepted since the last report counted (as
-- touch.lua does), the games that expired forgotten (their moves, and their owners' counts, with
-- them), then a place reserved for a new game — or, without a game id, only a recount.
-- KEYS: accounts.lua's. The tail: the report's game id / accepted moves pairs.
-- Answers whether it placed the game, the ms until the next game expires (when not placed), the
-- total of moves held, why not, and the owners' shares (the owner asked, and those the report
-- and the expiry changed).
local now = tonumber(ARG.now)
local _, owners = report(ARG_TAIL, now + tonumber(ARG.idle_ms))
local total = expire(now, owners)
owners[ARG.owner] = true
local function answer(placed, wait, why)
  return REPLY.reserve{placed = placed, wait_ms = wait, total = total, why = why,
                       shares = shares(ARG.client_moves, owners)}
end
local function full(why)
  local next_one = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = 1000
  if next_one[2] then wait = tonumber(next_one[2]) - now end
  return answer(0, wait, why)
end
if total >= tonumber(ARG.max_total_moves) then return full('moves') end
if ARG.game_id == '' then return answer(0, 0, '') end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARG.max_games) then return full('games') end
local owner = ARG.owner
if tonumber(redis.call('HGET', KEYS[5], owner) or 0) >= tonumber(ARG.client_games) then
  return full('client_games')
end
if tonumber(redis.call('ZSCORE', KEYS[6], owner) or 0) >= tonumber(ARG.client_moves) then
  return full('client_moves')
end
redis.call('ZADD', KEYS[1], now + tonumber(ARG.unstarted_ms), ARG.game_id)
redis.call('HSET', KEYS[4], ARG.game_id, owner)
redis.call('HINCRBY', KEYS[5], owner, 1)
return answer(1, 0, '')
