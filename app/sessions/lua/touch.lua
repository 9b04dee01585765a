-- The store's accounting, after accepted moves: each game that had some (and is still among
-- the live ones) lives on from now, and its moves are added to the counts, its owner's too.
-- Only accepted moves touch a game: a refused or unauthorised attempt keeps nothing alive.
-- KEYS: accounts.lua's.
-- ARGV: now ms, a game's lifetime ms after a move, the most moves of one owner, then game id /
--       accepted moves pairs.
-- -> {the total of moves held, the owners' shares (accounts.lua's, the reported games' owners)}
local expires = tonumber(ARGV[1]) + tonumber(ARGV[2])
local added, owners = 0, {}
for i = 4, #ARGV, 2 do
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
local total
if added ~= 0 then total = redis.call('INCRBY', KEYS[3], added)
else total = tonumber(redis.call('GET', KEYS[3]) or 0) end
return {total, shares(ARGV[3], owners)}
