-- A place for a new game among the live ones, or the milliseconds until the oldest expires.
-- KEYS: the live-games sorted set. ARGV: now ms, idle ms, max games, game id.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1])}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
return {1, 0}
