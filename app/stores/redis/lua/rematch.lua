-- A rematch offer, as session.py's Session.offer_rematch decides it (after the end; the
-- 'rematch' rule flag). Player p's first call offers: the hash of p's token in the new game
-- ('rmh<p>') and that token sealed under p's token in this one ('rms<p>') are kept, and the offer
-- stands ('rmo'): a change, announced. Once the other player's offer stands, the caller makes
-- the new game (seats swapped: the hashes answered with `needed`) and links it ('link' mode): the
-- rematch ('rm') is this game's once, whoever links first; a later call answers it again, with
-- the caller's own sealed token. KEYS: meta, moves.
local now = now_ms()
settle(KEYS[1], ARG.channel, now)  -- an ending due comes first
local meta = redis.call('HMGET', KEYS[1], 'h1', 'h2', 'status', 'off', 'rmo', 'rm', 'open')
if not meta[1] then return REPLY.game_not_found{} end
local player
if ARG.token_hash == meta[1] then player = 1 elseif ARG.token_hash == meta[2] then player = 2
else return REPLY.unauthorized{} end
if string.find(',' .. (meta[4] or '') .. ',', ',rematch,', 1, true) then
  return REPLY.action_not_allowed{action = 'rematch'}
end
if meta[3] == 'in_progress' then return REPLY.game_not_over{} end
if (meta[7] or '0') ~= '0' then  -- over before anybody took its open seat
  return REPLY.action_not_allowed{action = 'rematch', why = 'no_opponent'}
end
local function linked()
  return REPLY.linked{id = redis.call('HGET', KEYS[1], 'rm'), player = 3 - player,
                      sealed = redis.call('HGET', KEYS[1], 'rms' .. player),
                      state = state_of(KEYS[1], KEYS[2])}
end
if meta[6] then return linked() end
local offer = tonumber(meta[5] or 0)
if offer == 3 - player then
  if ARG.mode ~= 'link' then
    return REPLY.needed{player = player, hash = redis.call('HGET', KEYS[1], 'rmh' .. offer)}
  end
  changed(KEYS[1], ARG.channel, {'rm', ARG.new_id, 'rms' .. player, ARG.sealed, 'rmo', 0}, now)
  return linked()
end
if offer == 0 then
  changed(KEYS[1], ARG.channel, {'rmo', player, 'rmh' .. player, ARG.new_hash,
                                 'rms' .. player, ARG.sealed}, now)
end  -- else the player's own offer stands already: nothing changes
return REPLY.offered{state = state_of(KEYS[1], KEYS[2])}
