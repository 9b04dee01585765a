-- A game leaves the lobby (its seat taken, the game over or gone), once: it leaves its owner's
-- and its owner's network's open games too. KEYS: the lobby's owner-of-game hash, its
-- games-of-owner hash, its network-of-game hash, then every index a game may be listed in.
local owner = redis.call('HGET', KEYS[1], ARG.game_id)
if not owner then return 0 end
redis.call('HDEL', KEYS[1], ARG.game_id)
local function drop(name)
  local kept = {}
  for id in string.gmatch(redis.call('HGET', KEYS[2], name) or '', '%S+') do
    if id ~= ARG.game_id then kept[#kept + 1] = id end
  end
  if #kept == 0 then redis.call('HDEL', KEYS[2], name)
  else redis.call('HSET', KEYS[2], name, table.concat(kept, ' ')) end
end
drop(owner)
local network = redis.call('HGET', KEYS[3], ARG.game_id)
if network then
  redis.call('HDEL', KEYS[3], ARG.game_id)
  drop(network)
end
for i = 4, #KEYS do redis.call('ZREM', KEYS[i], ARG.game_id) end
return 1
