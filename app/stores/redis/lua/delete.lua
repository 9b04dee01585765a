-- Delete a game with either player's token. KEYS: all of its keys, meta first, then its slot's
-- deadlines and outbox (keys.py's slot_keys), which it leaves too (a player's delete removes a
-- game that waits to be archived as well: nothing of it is archived).
local outbox, deadlines = table.remove(KEYS), table.remove(KEYS)
local hashes = redis.call('HMGET', KEYS[1], 'h1', 'h2')
if not hashes[1] then return 'game_not_found' end
if ARG.token_hash ~= hashes[1] and ARG.token_hash ~= hashes[2] then return 'unauthorized' end
redis.call('DEL', unpack(KEYS))
local game_id = string.match(KEYS[1], '^{game:(.*)}:meta$')
redis.call('ZREM', deadlines, game_id)
redis.call('ZREM', outbox, game_id)
redis.call(PUBLISH, ARG.channel, 'deleted')
return 'ok'
