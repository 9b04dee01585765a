-- List an open game in the lobby (before the game is made: a refusal here makes none): the
-- lobby's next number, in each index the game is listed in, unless its owner holds its most
-- open games already. KEYS: the lobby's owner-of-game hash, its games-of-owner hash, its
-- counter, then the game's indexes (sorted sets: game id -> number).
if tonumber(redis.call('HGET', KEYS[2], ARG.owner) or 0) >= tonumber(ARG.most) then
  return REPLY.lobby_added{placed = 0}
end
local number = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARG.game_id, ARG.owner)
redis.call('HINCRBY', KEYS[2], ARG.owner, 1)
for i = 4, #KEYS do redis.call('ZADD', KEYS[i], number, ARG.game_id) end
return REPLY.lobby_added{placed = 1}
