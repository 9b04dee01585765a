-- A game nobody has moved in gives its place to another client's new game (reserve.lua named
-- it): its keys go and its streams are told, as for a deleted game — unless somebody has moved
-- in it since the accounting last heard ('pm': game.lua's), or it ended and waits in the
-- archive's outbox ('ob' 1: game.lua's lived), which keeps it: a started game never gives its
-- place, nor does one waiting to be archived. KEYS: all of its keys, meta first. Answers
-- 'evicted', 'gone' (no such game: expired, deleted, or another process's creation took its
-- place first) or 'started'. (A first move's deadline it had stays in its slot's deadlines
-- until a sweep finds the game gone.)
local meta = redis.call('HMGET', KEYS[1], 'status', 'pm', 'ob')
if not meta[1] then return 'gone' end
if tonumber(meta[2] or 0) ~= 0 or meta[3] == '1' then return 'started' end
redis.call('DEL', unpack(KEYS))
redis.call(PUBLISH, ARG.channel, 'deleted')
return 'evicted'
