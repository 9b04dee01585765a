-- A game's state (game.lua's state_of), a flag fall that is due applied first.
-- KEYS: meta, moves.
settle(KEYS[1], ARG.channel, now_ms())
return state_of(KEYS[1], KEYS[2])
