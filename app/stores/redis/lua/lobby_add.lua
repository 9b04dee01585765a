-- List an open game in the lobby (before the game is made: a refusal here makes none): the
-- lobby's next number, in each index the game is listed in, unless its owner holds its most
-- open games already, or its owner's network its own most; then the answer names those games
-- (the caller drops those no longer open, and asks again). KEYS: the lobby's owner-of-game hash,
-- its games-of-owner hash (owner or network -> its listed games' ids, space-separated: an
-- owner's and a network's names never meet), its counter, its network-of-game hash, then the
-- game's indexes (sorted sets: game id -> number).
local function listed(name)
  local ids = {}
  for id in string.gmatch(redis.call('HGET', KEYS[2], name) or '', '%S+') do ids[#ids + 1] = id end
  return ids
end
local ids = listed(ARG.owner)
if #ids >= tonumber(ARG.most) then return REPLY.lobby_added{placed = 0, held = ids} end
local network_ids = {}
if ARG.network ~= '' then
  network_ids = listed(ARG.network)
  if #network_ids >= tonumber(ARG.network_most) then
    return REPLY.lobby_added{placed = 0, held = network_ids, network = 1}
  end
end
local number = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARG.game_id, ARG.owner)
ids[#ids + 1] = ARG.game_id
redis.call('HSET', KEYS[2], ARG.owner, table.concat(ids, ' '))
if ARG.network ~= '' then
  redis.call('HSET', KEYS[4], ARG.game_id, ARG.network)
  network_ids[#network_ids + 1] = ARG.game_id
  redis.call('HSET', KEYS[2], ARG.network, table.concat(network_ids, ' '))
end
for i = 5, #KEYS do redis.call('ZADD', KEYS[i], number, ARG.game_id) end
return REPLY.lobby_added{placed = 1, held = ids}
