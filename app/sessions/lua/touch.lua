-- The store's accounting, on a move: refresh the game's place among the live ones, and add
-- the moves this process has had accepted since it last said (games no longer live excepted).
-- KEYS: live games (sorted set), moves per game (hash), total moves.
-- ARGV: now ms, the moved game's id (or ''), then game id / accepted moves pairs.
-- -> the total of moves held
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2]) end
local added = 0
for i = 3, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
    added = added + tonumber(ARGV[i + 1])
  end
end
if added ~= 0 then return redis.call('INCRBY', KEYS[3], added) end
return tonumber(redis.call('GET', KEYS[3]) or 0)
