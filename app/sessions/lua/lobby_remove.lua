-- A game leaves the lobby (its seat taken, the game over or gone), once: it leaves its owner's
-- open games too. KEYS: the lobby's owner-of-game hash, its games-of-owner hash, then every
-- index a game may be listed in.
local owner = redis.call('HGET', KEYS[1], ARG.game_id)
if not owner then return 0 end
redis.call('HDEL', KEYS[1], ARG.game_id)
local kept = {}
for id in string.gmatch(redis.call('HGET', KEYS[2], owner) or '', '%S+') do
  if id ~= ARG.game_id then kept[#kept + 1] = id end
end
if #kept == 0 then redis.call('HDEL', KEYS[2], owner)
else redis.call('HSET', KEYS[2], owner, table.concat(kept, ' ')) end
for i = 3, #KEYS do redis.call('ZREM', KEYS[i], ARG.game_id) end
return 1
