-- The generic path's write: apply what Python decided (a move, its refusal, a takeback offer),
-- only if the game is still at the version it read (compare-and-set); the caller reads again and retries on a conflict (a flag fall that
-- is due is applied first, and is such a change). KEYS: meta, moves, receipts.
local now = now_ms()
settle(KEYS[1], ARG.channel, now)
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return REPLY.game_not_found{} end
if tonumber(version) ~= tonumber(ARG.version) then return REPLY.conflict{} end
if ARG.receipt_field ~= '' then
  local seen = redis.call('HGET', KEYS[3], ARG.receipt_field)
  if seen then return REPLY.receipt{text = seen} end  -- the same request, answered in between
end
if ARG.outcome == 'refused' then
  remember(KEYS[1], KEYS[3], ARG.receipt_field, ARG.receipt_value, ARG.most_refusals)
  return REPLY.refused{}
end
if ARG.outcome ~= 'accepted' then  -- a takeback offer: made, standing already, or accepted
  local now_offerer = tonumber(ARG.offerer)
  if ARG.outcome == 'offered' then
    takeback_offered(KEYS[1], ARG.channel, now_offerer, now)
  elseif ARG.outcome == 'taken' then
    taken_back(KEYS, ARG.channel, tonumber(ARG.left), now_offerer, now,
               {'position', ARG.position, 'facts', ARG.facts})
  end
  local state = state_of(KEYS[1], KEYS[2])
  remember(KEYS[1], KEYS[3], ARG.receipt_field, ARG.receipt_value .. '|state|' .. cjson.encode(state),
           ARG.most_refusals, ARG.outcome ~= 'stands')
  return REPLY.accepted{state = state}
end
version = tonumber(version) + 1
local seq = redis.call('LLEN', KEYS[2]) + 1
local stamp = moved(KEYS[1], tonumber(ARG.mover), tonumber(ARG.next_player), version, seq, now)
redis.call('HSET', KEYS[1], 'version', version, 'status', ARG.status, 'winner', ARG.winner,
           'next', ARG.next_player, 'position', ARG.position, 'facts', ARG.facts,
           'reason', ARG.reason, 'offer', 0, 'tbo', 0)
redis.call('RPUSH', KEYS[2], ARG.record .. stamp)
if ARG.receipt_field ~= '' then redis.call('HSET', KEYS[3], ARG.receipt_field, ARG.receipt_value) end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARG.ttl_ms) end
redis.call(PUBLISH, ARG.channel, version)
return REPLY.accepted{state = state_of(KEYS[1], KEYS[2])}
