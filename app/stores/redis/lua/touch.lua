-- The store's accounting, after accepted moves and changed lives (accounts.lua's report): only
-- accepted moves touch a game, a refused or unauthorised attempt keeps nothing alive; a game's
-- deadline, an ending that waits in the outbox or its archiving set its instant. KEYS:
-- accounts.lua's. The tail: game id / accepted moves / expires triples. Answers the total of
-- moves held and the reported games' owners' and networks' shares.
local total, asked = report(ARG_TAIL, tonumber(ARG.now) + tonumber(ARG.idle_ms))
return REPLY.accounts{total = total, shares = shares(ARG.client_moves, ARG.network_moves, asked)}
