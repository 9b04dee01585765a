-- The store's accounting (redis_keys.py's ACCOUNTS), shared by reserve.lua, touch.lua and
-- forget.lua. KEYS: live games (sorted set: game -> the instant it expires, ms), moves per game
-- (hash), total moves, owner per game (hash: game -> the client that created it), live games per
-- owner (hash), moves per owner (sorted set: owner -> moves of its live games).

-- A game is no longer live: its moves, and its owner's counts, are given back. Answers the
-- moves it held, and its owner (or nil).
local function forget_game(game_id)
  local count = tonumber(redis.call('HGET', KEYS[2], game_id) or 0)
  redis.call('HDEL', KEYS[2], game_id)
  local owner = redis.call('HGET', KEYS[4], game_id)
  if owner then
    redis.call('HDEL', KEYS[4], game_id)
    if redis.call('HINCRBY', KEYS[5], owner, -1) <= 0 then redis.call('HDEL', KEYS[5], owner) end
    if count > 0 and tonumber(redis.call('ZINCRBY', KEYS[6], -count, owner)) <= 0 then
      redis.call('ZREM', KEYS[6], owner)
    end
  end
  return count, owner
end

-- Forget every game whose instant has come (`now`, ms), marking their owners in the table
-- `owners` (their counts changed); answers the total of moves left.
local function expire(now, owners)
  local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
  local freed = 0
  for _, game_id in ipairs(gone) do
    local count, owner = forget_game(game_id)
    freed = freed + count
    if owner then owners[owner] = true end
  end
  if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) end
  if freed > 0 then return redis.call('DECRBY', KEYS[3], freed) end
  return tonumber(redis.call('GET', KEYS[3]) or 0)
end

-- The owners' shares, as every accounting script answers them: the owners whose live games hold
-- `most` moves or more (all of them: a share is at least a thousandth of the bound, rounded down
-- but at least one move, so at most 2,000 owners hold one), and the moves of each owner in the
-- table `asked` (owner -> true), as {owner, moves, owner, moves, ...} (redis_wire.py's Shares).
local function shares(most, asked)
  local counts = {}
  for owner in pairs(asked) do
    counts[#counts + 1] = owner
    counts[#counts + 1] = tonumber(redis.call('ZSCORE', KEYS[6], owner) or 0)
  end
  return REPLY.shares{heavy = redis.call('ZRANGEBYSCORE', KEYS[6], most, '+inf', 'LIMIT', 0, 2000),
                      owned = counts}
end

-- Moves accepted since the last report, as ARGV from `first` on (a script's tail: game id /
-- count pairs): each
-- game that had some (and is still among the live ones) lives until `expires` (ms), and its
-- moves are added to the counts, its owner's too. Answers the total of moves held, and the
-- table of the owners whose counts changed (owner -> true).
local function report(first, expires)
  local added, owners = 0, {}
  for i = first, #ARGV, 2 do
    if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
      local count = tonumber(ARGV[i + 1])
      redis.call('ZADD', KEYS[1], 'XX', expires, ARGV[i])
      redis.call('HINCRBY', KEYS[2], ARGV[i], count)
      local owner = redis.call('HGET', KEYS[4], ARGV[i])
      if owner then
        redis.call('ZINCRBY', KEYS[6], count, owner)
        owners[owner] = true
      end
      added = added + count
    end
  end
  if added ~= 0 then return redis.call('INCRBY', KEYS[3], added), owners end
  return tonumber(redis.call('GET', KEYS[3]) or 0), owners
end

