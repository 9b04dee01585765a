-- The store's accounting, after accepted moves: each game that had some (and is still among
-- the live ones) is touched now, and its moves are added to the counts. Only accepted moves
-- touch a game: a refused or unauthorised attempt keeps nothing alive.
-- KEYS: live games (sorted set), moves per game (hash), total moves.
-- ARGV: now ms, then game id / accepted moves pairs.
-- -> the total of moves held
local added = 0
for i = 2, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[i])
    redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
    added = added + tonumber(ARGV[i + 1])
  end
end
if added ~= 0 then return redis.call('INCRBY', KEYS[3], added) end
return tonumber(redis.call('GET', KEYS[3]) or 0)
