-- The store's accounting, on a deleted game: its place and its moves are free again, its
-- owner's counts too. KEYS: accounts.lua's. ARGV: game id, the most moves of one owner.
-- -> {the total of moves held, the owners' shares (accounts.lua's, the game's owner)}
redis.call('ZREM', KEYS[1], ARGV[1])
local owner = redis.call('HGET', KEYS[4], ARGV[1])
local count = forget_game(ARGV[1])
local total
if count ~= 0 then total = redis.call('DECRBY', KEYS[3], count)
else total = tonumber(redis.call('GET', KEYS[3]) or 0) end
local asked = {}
if owner then asked[owner] = true end
return {total, shares(ARGV[2], asked)}
