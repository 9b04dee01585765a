-- The store's accounting, on creation: the moves accepted since the last report counted (as
-- touch.lua does), the game named by the last answer settled (`evicted`: it gave its place, or
-- was found moved in, or waiting in the outbox), the games that expired forgotten (their moves, and their owners' and
-- networks' counts, with them), then a place reserved for a new game, with its opening's moves
-- — or, without a game id, only a recount.
-- When the store holds its most games, or games nobody has moved in hold their most places, the
-- place may be made (with `may_evict`): the answer then names the game that must give it (the
-- oldest one nobody moved in of the holder — a network, or an owner without one — that holds
-- the most of them, if that holds more than the new game's holder: accounts.lua's victim_for),
-- and places nothing: the store deletes that game unless somebody moved in it meanwhile, and
-- asks again.
-- KEYS: accounts.lua's. The tail: the report's game id / accepted moves / expires triples.
-- A game placed already (its id live) is placed again as it is, counted once.
-- Answers whether it placed the game, the ms until the next game expires (when not placed), the
-- total of moves held, why not, the shares (of the owner and network asked, and of those the
-- report and the expiry changed), and the game that must give its place ('' if none).
local now = tonumber(ARG.now)
local _, asked = report(ARG_TAIL, now + tonumber(ARG.idle_ms))
if ARG.evicted ~= '' then
  if ARG.evicted_started == '1' then  -- moved in before the report said so: it keeps its place
    if lives_until(ARG.evicted, now + tonumber(ARG.idle_ms), false) then unstart(ARG.evicted) end
  elseif redis.call('ZREM', KEYS[1], ARG.evicted) == 1 then  -- deleted: its place is free
    local count, owner, network = forget_game(ARG.evicted)
    if count > 0 then redis.call('DECRBY', KEYS[3], count) end
    ask(asked, owner, network)
  end
end
local total = expire(now, asked)
local owner, network = ARG.owner, ARG.network
if network == '' then network = false end
ask(asked, owner, network)
local function answer(placed, wait, why, victim)
  return REPLY.reserve{placed = placed, wait_ms = wait, total = total, why = why,
                       shares = shares(ARG.client_moves, ARG.network_moves, asked),
                       victim = victim or ''}
end
local function full(why)
  local next_one = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = 1000
  if next_one[2] then wait = tonumber(next_one[2]) - now end
  return answer(0, wait, why)
end
if ARG.game_id ~= '' and redis.call('ZSCORE', KEYS[1], ARG.game_id) then
  return answer(1, 0, '')  -- placed already: a creation of the game made again (create.lua)
end
if total >= tonumber(ARG.max_total_moves) then return full('moves') end
if ARG.game_id == '' then return answer(0, 0, '') end
if tonumber(redis.call('HGET', KEYS[5], owner) or 0) >= tonumber(ARG.client_games) then
  return full('client_games')
end
if network and tonumber(redis.call('HGET', KEYS[8], network) or 0)
               >= tonumber(ARG.network_games) then
  return full('network_games')
end
if tonumber(redis.call('ZSCORE', KEYS[6], owner) or 0) >= tonumber(ARG.client_moves) then
  return full('client_moves')
end
if network and tonumber(redis.call('ZSCORE', KEYS[9], network) or 0)
               >= tonumber(ARG.network_moves) then
  return full('network_moves')
end
local holder = network or owner
local over = nil
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARG.max_games) then over = 'games'
elseif redis.call('HLEN', KEYS[10]) >= tonumber(ARG.max_unstarted) then over = 'unstarted' end
if over then
  local victim = ARG.may_evict == '1' and victim_for(holder)
  if victim then return answer(0, 0, 'evict', victim) end
  return full(over)
end
local game_id = ARG.game_id
redis.call('ZADD', KEYS[1], now + tonumber(ARG.unstarted_ms), game_id)
redis.call('HSET', KEYS[4], game_id, owner)
redis.call('HINCRBY', KEYS[5], owner, 1)
if network then
  redis.call('HSET', KEYS[7], game_id, network)
  redis.call('HINCRBY', KEYS[8], network, 1)
end
local moves = tonumber(ARG.moves)  -- its opening's
if moves > 0 then
  redis.call('HSET', KEYS[2], game_id, moves)
  total = redis.call('INCRBY', KEYS[3], moves)
  redis.call('ZINCRBY', KEYS[6], moves, owner)
  if network then redis.call('ZINCRBY', KEYS[9], moves, network) end
end
add_unstarted(game_id, holder)
return answer(1, 0, '')
