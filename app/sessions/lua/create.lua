-- A new game's meta hash (the caller reserved its place first: reserve.lua). KEYS: meta.
local fields, flat = cjson.decode(ARG.fields), {}
for name, value in pairs(fields) do
  flat[#flat + 1] = name
  flat[#flat + 1] = value
end
redis.call('HSET', KEYS[1], unpack(flat))
redis.call('PEXPIRE', KEYS[1], ARG.ttl_ms)
return 1
