-- A new spectator token for a game, asked with a player's token (as session.py's
-- Session.spectate decides it): its hash is kept in the game's meta hash ('s:<hash>'), and
-- counted ('spectators'), up to ARG.most. A spectator token asking is told so. KEYS: meta.
local meta = redis.call('HMGET', KEYS[1], 'h1', 'h2', 'spectators')
if not meta[1] then return REPLY.game_not_found{} end
if ARG.token_hash ~= meta[1] and ARG.token_hash ~= meta[2] then
  if redis.call('HEXISTS', KEYS[1], 's:' .. ARG.token_hash) == 1 then
    return REPLY.spectator{}
  end
  return REPLY.unauthorized{}
end
if tonumber(meta[3] or 0) >= tonumber(ARG.most) then return REPLY.too_many_spectators{} end
redis.call('HSET', KEYS[1], 's:' .. ARG.new_hash, 1)
redis.call('HINCRBY', KEYS[1], 'spectators', 1)
return REPLY.ok{state = state_of(KEYS[1], KEYS[2])}
