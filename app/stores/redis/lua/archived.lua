-- The game is in the archive now (an archiving store's `archived`): it leaves its slot's
-- outbox, and from now on expires as a finished game does, `idle_ms` from now ('ob' 2: game.lua's
-- lived never puts it in the outbox again). KEYS: all of its keys, meta first, then its slot's
-- outbox. Answers 1 if it was waiting, else 0 (not waiting, archived already, or gone).
local outbox = table.remove(KEYS)
local game_id = string.match(KEYS[1], '^{game:(.*)}:meta$')
redis.call('ZREM', outbox, game_id)
if redis.call('HGET', KEYS[1], 'ob') ~= '1' then return 0 end
redis.call('HSET', KEYS[1], 'ob', 2)
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARG.idle_ms) end
return 1
