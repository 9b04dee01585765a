-- The store's accounting, on a deleted game: its place and its moves are free again, its
-- owner's and its network's counts too. KEYS: accounts.lua's. Answers the total of moves held
-- and the game's owner's and network's shares.
redis.call('ZREM', KEYS[1], ARG.game_id)
local count, owner, network = forget_game(ARG.game_id)
local total
if count ~= 0 then total = redis.call('DECRBY', KEYS[3], count)
else total = tonumber(redis.call('GET', KEYS[3]) or 0) end
local asked = {}
ask(asked, owner, network)
return REPLY.accounts{total = total, shares = shares(ARG.client_moves, ARG.network_moves, asked)}
