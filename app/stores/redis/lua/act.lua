-- A resignation, a draw offer, an abort or time given, for a game of any kind and engine, and
-- a takeback offer in a fast path's game (the generic engine's is decided in Python and written
-- by commit.lua), as session.py's Session.act decides them (the clocks as game.lua runs them);
-- ARG.flag is the rule flag that may leave the action out. KEYS: meta, moves, receipts, cells,
-- lines, stones.
local now = now_ms()
settle(KEYS[1], ARG.channel, now)
local meta = redis.call('HMGET', KEYS[1], 'h1', 'h2', 'status', 'winner', 'version', 'offer',
                        'reason', 'open', 'off', 'opened', 'tbo', 'n', 'k', 'rule', 'early',
                        'control', 'gifts')
if not meta[1] then return REPLY.game_not_found{} end
local player
if ARG.token_hash == meta[1] then player = 1 elseif ARG.token_hash == meta[2] then player = 2
else return REPLY.unauthorized{} end
local receipt = ''
if ARG.key ~= '' then
  receipt = player .. ':' .. ARG.key
  local seen = redis.call('HGET', KEYS[3], receipt)
  if seen then
    local body, marker, rest = string.match(seen, '^([^|]*)|([^|]*)|?(.*)$')
    if body ~= ARG.fingerprint then return REPLY.idempotency_key_reused{} end
    if marker == 'state' then return REPLY.replay_state{state = rest} end
    local parts = {marker}
    for piece in string.gmatch(rest, '[^|]+') do parts[#parts + 1] = piece end
    return REPLY.replayed{refusal = parts}
  end
end
local function refuse(answer)
  remember(KEYS[1], KEYS[3], receipt, ARG.fingerprint .. '|' .. table.concat(answer, '|'),
           ARG.most_refusals)
  return answer
end
local status, offer = meta[3], tonumber(meta[6] or 0)
-- An open game waits for its second player (not remembered: taken once the seat is); it may
-- be aborted meanwhile.
if (meta[8] or '0') ~= '0' and status == 'in_progress' and ARG.action ~= 'abort' then
  return REPLY.waiting_for_opponent{open_seat = meta[8]}
end
if ARG.claimed ~= '' and tonumber(ARG.claimed) ~= player then
  return refuse(REPLY.wrong_player{player = player})
end
if ARG.expected_version ~= '' and tonumber(ARG.expected_version) ~= tonumber(meta[5]) then
  return refuse(REPLY.precondition_failed{version = meta[5]})
end
if ARG.flag ~= '' and string.find(',' .. (meta[9] or '') .. ',', ',' .. ARG.flag .. ',', 1, true)
then
  return refuse(REPLY.action_not_allowed{action = ARG.flag})
end
if ARG.action == 'give_time' and not meta[16] then
  return refuse(REPLY.action_not_allowed{action = 'give_time', why = 'no_clock'})
end
if ARG.action == 'give_time' and tonumber(meta[17] or 0) >= tonumber(ARG.most_gifts) then
  return refuse(REPLY.action_not_allowed{action = 'give_time', why = 'too_many_gifts'})
end
if status ~= 'in_progress' then
  return refuse(REPLY.game_over{status = status, winner = meta[4], reason = meta[7]})
end
local ending = {'next', 0, 'offer', 0, 'tbo', 0, 'fmdue', 0}
local always = false  -- a takeback offer or acceptance, a gift: kept whatever the bound
local moves = redis.call('LLEN', KEYS[2])
if ARG.action == 'abort' then
  -- The players' moves: an opening's ('opened', at creation) are not theirs.
  if moves - tonumber(meta[10] or 0) >= 2 then
    return refuse(REPLY.too_late_to_abort{})
  end
  read_clock(KEYS[1], now, true)
  changed(KEYS[1], ARG.channel, {'status', 'aborted', 'winner', 0, 'reason', 'aborted',
                                 unpack(ending)}, now)
elseif ARG.action == 'takeback' then
  -- A fast path's moves alternate, player 1's first, and none is an opening's: a player has
  -- moved once the game has as many moves as its number; its takeback takes back its last
  -- move, and the other's reply if there was one.
  local standing = tonumber(meta[11] or 0)
  if standing == 3 - player then
    local offerer = standing
    local last_mover = (moves % 2 == 1) and 1 or 2
    local left = moves - ((last_mover == offerer) and 1 or 2)
    local n = tonumber(meta[12])
    local k = tonumber(meta[13] or meta[12])
    local records = redis.call('LRANGE', KEYS[2], left, -1)
    for i = #records, 1, -1 do
      local row, col = string.match(records[i], '^(%d+):(%d+)')
      stone_lifted(KEYS[4], KEYS[5], KEYS[6], n, k, meta[14] == 'standard', meta[15] == '1',
                   tonumber(row), tonumber(col), ((left + i) % 2 == 1) and 1 or 2)
    end
    taken_back(KEYS, ARG.channel, left, offerer, now, {})
    always = true
  elseif standing == 0 then
    if moves < player then return refuse(REPLY.nothing_to_take_back{player = player}) end
    takeback_offered(KEYS[1], ARG.channel, player, now)
    always = true
  end  -- else the player's own offer stands already: nothing changes
elseif ARG.action == 'give_time' then
  time_given(KEYS[1], KEYS[2], ARG.channel, 3 - player, tonumber(ARG.seconds), now)
  always = true
elseif ARG.action == 'resign' then
  read_clock(KEYS[1], now, true)
  changed(KEYS[1], ARG.channel, {'status', 'won', 'winner', 3 - player, 'reason', 'resignation',
                                 unpack(ending)}, now)
elseif offer == 3 - player then
  read_clock(KEYS[1], now, true)
  changed(KEYS[1], ARG.channel, {'status', 'draw', 'winner', 0, 'reason', 'agreement',
                                 unpack(ending)}, now)
elseif offer == 0 then
  read_clock(KEYS[1], now, false)
  changed(KEYS[1], ARG.channel, {'offer', player}, now)
end  -- else the player's own offer stands already: nothing changes
local state = state_of(KEYS[1], KEYS[2])
remember(KEYS[1], KEYS[3], receipt, ARG.fingerprint .. '|state|' .. cjson.encode(state),
         ARG.most_refusals, always)
return REPLY.ok{state = state}
