-- A new game's meta hash (the caller reserved its place first: reserve.lua).
-- KEYS: meta. ARGV: ttl ms, the fields as one JSON object of texts (one argument to send, not
-- one a field and one a value).
local fields, flat = cjson.decode(ARGV[2]), {}
for name, value in pairs(fields) do
  flat[#flat + 1] = name
  flat[#flat + 1] = value
end
redis.call('HSET', KEYS[1], unpack(flat))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
