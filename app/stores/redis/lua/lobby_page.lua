-- A page of one lobby index: the ids and numbers of the games listed after the number
-- ARG.after, at most ARG.most, in order. KEYS: the index.
local found = redis.call('ZRANGE', KEYS[1], '(' .. ARG.after, '+inf', 'BYSCORE', 'LIMIT', 0,
                         ARG.most, 'WITHSCORES')
local ids, numbers = {}, {}
for i = 1, #found, 2 do
  ids[#ids + 1] = found[i]
  numbers[#numbers + 1] = found[i + 1]
end
return REPLY.lobby_page{ids = ids, numbers = numbers}
