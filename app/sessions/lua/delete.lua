-- Delete a game with either player's token. KEYS: all of its keys, meta first.
-- ARGV: token hash, the game's channel.
local hashes = redis.call('HMGET', KEYS[1], 'h1', 'h2')
if not hashes[1] then return 'game_not_found' end
if ARGV[1] ~= hashes[1] and ARGV[1] ~= hashes[2] then return 'unauthorized' end
redis.call('DEL', unpack(KEYS))
redis.call(PUBLISH, ARGV[2], 'deleted')
return 'ok'
