-- The store's accounting, after accepted moves (accounts.lua's report): only accepted moves touch
-- a game, a refused or unauthorised attempt keeps nothing alive. KEYS: accounts.lua's.
-- ARGV: now ms, a game's lifetime ms after a move, the most moves of one owner, then game id /
--       accepted moves pairs.
-- -> {the total of moves held, the owners' shares (accounts.lua's, the reported games' owners)}
local total, owners = report(4, tonumber(ARGV[1]) + tonumber(ARGV[2]))
return {total, shares(ARGV[3], owners)}
