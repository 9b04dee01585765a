-- A new game's meta hash (the caller reserved its place first: reserve.lua).
-- KEYS: meta. ARGV: ttl ms, then field, value pairs.
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
