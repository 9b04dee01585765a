-- Take an open game's free seat, as session.py's Session.join decides it: one of any number of
-- racing joins wins (a script runs alone); a retry under the winner's Idempotency-Key gets the
-- same seat and its token again (sealed under the key: the store holds no token it can use).
-- ARG.key is receipts.py's join_receipt_key: the key as its client sent it, so that the same key
-- from another client is another join.
-- The seat's token hash is set, the game stops waiting ('open' 0) and the player who moves
-- first is to move ('next' from 'waits'): a change of the game, announced, from which the game
-- lives an unstarted game's life again. KEYS: meta, moves, receipts.
local now = now_ms()
settle(KEYS[1], ARG.channel, now)
local meta = redis.call('HMGET', KEYS[1], 'open', 'status', 'waits', 'p1', 'p2', 'pool')
if not meta[2] then return REPLY.game_not_found{} end
if ARG.key ~= '' then
  local seen = redis.call('HGET', KEYS[3], ARG.key)
  if seen then
    local seat, sealed = string.match(seen, '^join|(%d)|(.*)$')
    return REPLY.joined{player = seat, sealed = sealed, replayed = 1,
                        state = state_of(KEYS[1], KEYS[2])}
  end
end
local seat = tonumber(meta[1] or 0)
if seat == 0 or meta[2] ~= 'in_progress' then return REPLY.seat_taken{} end
if ARG.player ~= '' and (meta[4] == ARG.player or meta[5] == ARG.player) then
  return REPLY.seat_taken{why = 'own_game'}
end
if ARG.player == '' and (meta[6] or '') ~= '' then return REPLY.seat_taken{why = 'player_needed'} end
local version = changed(KEYS[1], ARG.channel, {'h' .. seat, ARG.token_hash, 'open', 0,
                                               'next', meta[3] or 0}, now)
redis.call('HSET', KEYS[1], 'joined', version, 'jat', int(now))
if ARG.name ~= '' then redis.call('HSET', KEYS[1], 'n' .. seat, ARG.name) end
if ARG.player ~= '' then redis.call('HSET', KEYS[1], 'p' .. seat, ARG.player) end
first_turn(KEYS[1], tonumber(meta[3] or 0), now)
if ARG.key ~= '' then
  redis.call('HSET', KEYS[3], ARG.key, 'join|' .. seat .. '|' .. ARG.sealed)
end
-- Its players are seated: the game lives an unstarted game's life from now on.
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARG.ttl_ms) end
return REPLY.joined{player = seat, sealed = ARG.sealed, replayed = 0,
                    state = state_of(KEYS[1], KEYS[2])}
