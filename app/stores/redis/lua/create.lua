-- A new game's meta hash, and the move records it starts with (an opening), if any (the caller
-- reserved its place first: reserve.lua), with the game's first first-move deadline if it has
-- one. KEYS: meta, moves. Answers its instant (ms): the game's first change; or 0, changing
-- nothing, when the game is there already (a creation made again: made once by its id).
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local now = now_ms()
local fields, flat = cjson.decode(ARG.fields), {'at', int(now), 'made', int(now)}
for name, value in pairs(fields) do
  flat[#flat + 1] = name
  flat[#flat + 1] = value
end
redis.call('HSET', KEYS[1], unpack(flat))
redis.call('PEXPIRE', KEYS[1], ARG.ttl_ms)
-- A first move may be due from now (game.lua's first_turn), unless the game waits for a join.
first_turn(KEYS[1], tonumber(fields.next or 0), now)
local records = cjson.decode(ARG.records)
if #records > 0 then
  redis.call('RPUSH', KEYS[2], unpack(records))
  redis.call('PEXPIRE', KEYS[2], ARG.ttl_ms)
end
return int(now)
