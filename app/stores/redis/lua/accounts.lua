-- The store's accounting (redis_keys.py's ACCOUNTS), shared by reserve.lua, touch.lua and
-- forget.lua. KEYS: live games (sorted set: game -> the instant it expires, ms), moves per game
-- (hash), total moves, owner per game (hash: game -> the client that created it), live games per
-- owner (hash), moves per owner (sorted set: owner -> moves of its live games), the owner's
-- network per game (hash; none for an owner without one), live games per network (hash), moves
-- per network (sorted set), then the games nobody has moved in: each one's entry (hash: game ->
-- 'holder\nnumber\ngame', the holder its owner's network, or the owner without one, the number
-- its place in the order of creation), the entries (sorted set, every score 0, read by lex: by
-- holder, then oldest first), each holder's rank (hash: holder -> 'most − count\nnumber\nholder',
-- the number when it came to that count), the ranks (sorted set, every score 0: the holder of
-- the most first, of those the one that has held that many the longest), and the last number.

-- Count `games` and `moves` off `name`'s counts in the hash `games_key` and the sorted set
-- `moves_key`, none kept at zero.
local function count_off(games_key, moves_key, name, games, moves)
  if redis.call('HINCRBY', games_key, name, -games) <= 0 then redis.call('HDEL', games_key, name) end
  if moves > 0 and tonumber(redis.call('ZINCRBY', moves_key, -moves, name)) <= 0 then
    redis.call('ZREM', moves_key, name)
  end
end

-- A holder's rank writes MOST minus its count (so that the most comes first), in 12 digits.
local MOST = 999999999999
local function held(holder)
  local rank = redis.call('HGET', KEYS[12], holder)
  if not rank then return 0, nil end
  return MOST - tonumber(string.sub(rank, 1, 12)), rank
end

local function numbered(text)
  return string.format('%015d', redis.call('INCR', KEYS[14])) .. '\n' .. text
end

-- `holder` holds `change` (1 or -1) more games nobody has moved in: its rank anew.
local function hold(holder, change)
  local count, rank = held(holder)
  if rank then redis.call('ZREM', KEYS[13], rank) end
  count = count + change
  if count <= 0 then
    redis.call('HDEL', KEYS[12], holder)
    return
  end
  rank = string.format('%012d', MOST - count) .. '\n' .. numbered(holder)
  redis.call('HSET', KEYS[12], holder, rank)
  redis.call('ZADD', KEYS[13], 0, rank)
end

-- A new game nobody has moved in yet, held by `holder`.
local function add_unstarted(game_id, holder)
  local entry = holder .. '\n' .. numbered(game_id)
  redis.call('HSET', KEYS[10], game_id, entry)
  redis.call('ZADD', KEYS[11], 0, entry)
  hold(holder, 1)
end

-- The game is no longer one nobody has moved in (moved in, or gone), if it was.
local function unstart(game_id)
  local entry = redis.call('HGET', KEYS[10], game_id)
  if not entry then return end
  redis.call('HDEL', KEYS[10], game_id)
  redis.call('ZREM', KEYS[11], entry)
  hold(string.match(entry, '^(.-)\n'), -1)
end

-- The game that gives its place to a new game of `holder`: the oldest of the holder of the most
-- (of those, the one that has held that many the longest), if that holds more than `holder`
-- does; else nil.
local function victim_for(holder)
  local first = redis.call('ZRANGE', KEYS[13], 0, 0)[1]
  if not first or MOST - tonumber(string.sub(first, 1, 12)) <= held(holder) then return nil end
  local most = string.match(first, '^[^\n]*\n[^\n]*\n(.*)$')
  local oldest = redis.call('ZRANGEBYLEX', KEYS[11], '[' .. most .. '\n', '(' .. most .. '\v',
                            'LIMIT', 0, 1)[1]
  if not oldest then return nil end
  return string.match(oldest, '\n([^\n]*)$')
end

-- A game is no longer live: its moves, and its owner's and its network's counts, are given
-- back. Answers the moves it held, its owner and its network (or nil).
local function forget_game(game_id)
  local count = tonumber(redis.call('HGET', KEYS[2], game_id) or 0)
  redis.call('HDEL', KEYS[2], game_id)
  unstart(game_id)
  local owner = redis.call('HGET', KEYS[4], game_id)
  if owner then
    redis.call('HDEL', KEYS[4], game_id)
    count_off(KEYS[5], KEYS[6], owner, 1, count)
  end
  local network = redis.call('HGET', KEYS[7], game_id)
  if network then
    redis.call('HDEL', KEYS[7], game_id)
    count_off(KEYS[8], KEYS[9], network, 1, count)
  end
  return count, owner, network
end

-- Mark an owner and a network (either may be nil) in the table `asked` (name -> the sorted set
-- of its moves): their counts changed.
local function ask(asked, owner, network)
  if owner then asked[owner] = KEYS[6] end
  if network then asked[network] = KEYS[9] end
end

-- Forget every game whose instant has come (`now`, ms), marking their owners and networks in
-- the table `asked` (their counts changed); answers the total of moves left.
local function expire(now, asked)
  local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
  local freed = 0
  for _, game_id in ipairs(gone) do
    local count, owner, network = forget_game(game_id)
    freed = freed + count
    ask(asked, owner, network)
  end
  if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) end
  if freed > 0 then return redis.call('DECRBY', KEYS[3], freed) end
  return tonumber(redis.call('GET', KEYS[3]) or 0)
end

-- The owners' and networks' shares, as every accounting script answers them: the owners whose
-- live games hold `most` moves or more, and the networks whose hold `network_most` or more
-- (all of them: a share is at least a thousandth of the bound, rounded down but at least one
-- move, so at most 2,000 hold one), and the moves of each name in the table `asked` (name ->
-- the sorted set of its moves), as {name, moves, name, moves, ...} (wire.py's Shares;
-- an owner's and a network's names never meet).
local function shares(most, network_most, asked)
  local counts = {}
  for name, moves_key in pairs(asked) do
    counts[#counts + 1] = name
    counts[#counts + 1] = tonumber(redis.call('ZSCORE', moves_key, name) or 0)
  end
  local heavy = redis.call('ZRANGEBYSCORE', KEYS[6], most, '+inf', 'LIMIT', 0, 2000)
  for _, name in ipairs(redis.call('ZRANGEBYSCORE', KEYS[9], network_most, '+inf',
                                   'LIMIT', 0, 2000)) do
    heavy[#heavy + 1] = name
  end
  return REPLY.shares{heavy = heavy, owned = counts}
end

-- A game that waits in the archive's outbox lives until an instant this far (ms: the year
-- 2255): never before it is archived (keys.py's FAR_MS).
local FAR = 9000000000000000

-- The game (if it is among the live ones) lives until `expires` (ms) — unless it waits in the
-- outbox (its instant FAR), which only `exact` changes (it was archived). True if it is live.
local function lives_until(game_id, expires, exact)
  local now = redis.call('ZSCORE', KEYS[1], game_id)
  if not now then return false end
  if exact or tonumber(now) < FAR then redis.call('ZADD', KEYS[1], 'XX', expires, game_id) end
  return true
end

-- Moves accepted since the last report, as ARGV from `first` on (a script's tail: game id /
-- count / expires triples): each game that had some, or whose life changed (count 0), and is
-- still among the live ones lives until its `expires` (ms; '': `expires`, now plus the idle
-- time; negative: exactly minus it, an archived game; FAR or later: it waits in the outbox,
-- and so is no game nobody has moved in either: it never gives its place), is one somebody has
-- moved in if it had moves, and its moves are added to the counts, its owner's and its
-- network's too. Answers the total of moves held, and the table of the names whose counts
-- changed (``ask``'s).
local function report(first, expires)
  local added, asked = 0, {}
  for i = first, #ARGV, 3 do
    local count, until_ms = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]) or expires
    if lives_until(ARGV[i], math.abs(until_ms), until_ms < 0) and count > 0 then
      redis.call('HINCRBY', KEYS[2], ARGV[i], count)
      unstart(ARGV[i])
      local owner = redis.call('HGET', KEYS[4], ARGV[i])
      if owner then redis.call('ZINCRBY', KEYS[6], count, owner) end
      local network = redis.call('HGET', KEYS[7], ARGV[i])
      if network then redis.call('ZINCRBY', KEYS[9], count, network) end
      ask(asked, owner, network)
      added = added + count
    elseif until_ms >= FAR then
      unstart(ARGV[i])
    end
  end
  if added ~= 0 then return redis.call('INCRBY', KEYS[3], added), asked end
  return tonumber(redis.call('GET', KEYS[3]) or 0), asked
end
