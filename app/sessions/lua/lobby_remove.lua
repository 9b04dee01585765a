-- A game leaves the lobby (its seat taken, the game over or gone), once: its owner's count of
-- open games goes down. KEYS: the lobby's owner-of-game hash, its games-of-owner hash, then
-- every index a game may be listed in.
local owner = redis.call('HGET', KEYS[1], ARG.game_id)
if not owner then return 0 end
redis.call('HDEL', KEYS[1], ARG.game_id)
if redis.call('HINCRBY', KEYS[2], owner, -1) <= 0 then redis.call('HDEL', KEYS[2], owner) end
for i = 3, #KEYS do redis.call('ZREM', KEYS[i], ARG.game_id) end
return 1
