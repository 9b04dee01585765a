-- List an open game in the lobby (before the game is made: a refusal here makes none): the
-- lobby's next number, in each index the game is listed in, unless its owner holds its most
-- open games already; then the answer names them (the caller drops those no longer open, and
-- asks again). KEYS: the lobby's owner-of-game hash, its games-of-owner hash (owner -> its
-- listed games' ids, space-separated), its counter, then the game's indexes (sorted sets: game
-- id -> number).
local held = redis.call('HGET', KEYS[2], ARG.owner) or ''
local ids = {}
for id in string.gmatch(held, '%S+') do ids[#ids + 1] = id end
if #ids >= tonumber(ARG.most) then return REPLY.lobby_added{placed = 0, held = ids} end
local number = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARG.game_id, ARG.owner)
ids[#ids + 1] = ARG.game_id
redis.call('HSET', KEYS[2], ARG.owner, table.concat(ids, ' '))
for i = 4, #KEYS do redis.call('ZADD', KEYS[i], number, ARG.game_id) end
return REPLY.lobby_added{placed = 1, held = ids}
