-- Delete a game with either player's token. KEYS: all of its keys, meta first.
local hashes = redis.call('HMGET', KEYS[1], 'h1', 'h2')
if not hashes[1] then return 'game_not_found' end
if ARG.token_hash ~= hashes[1] and ARG.token_hash ~= hashes[2] then return 'unauthorized' end
redis.call('DEL', unpack(KEYS))
redis.call(PUBLISH, ARG.channel, 'deleted')
return 'ok'
