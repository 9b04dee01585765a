-- A resignation or a draw offer, for a game of any kind and engine, as session.py's
-- Session.act decides it (the clocks as game.lua runs them).
-- KEYS: meta, moves, receipts.
-- ARGV: token hash, 'resign' | 'offer', claimed player or '', expected version or '',
--       idempotency key or '', request fingerprint, refusals to remember, channel.
-- -> {'ok', state}, {'replay', state as JSON}, {'replayed', refusal...}, or a refusal
local now = now_ms()
settle(KEYS[1], ARGV[8], now)
local meta = redis.call('HMGET', KEYS[1], 'h1', 'h2', 'status', 'winner', 'version', 'offer',
                        'reason')
if not meta[1] then return {'game_not_found'} end
local player
if ARGV[1] == meta[1] then player = 1 elseif ARGV[1] == meta[2] then player = 2
else return {'unauthorized'} end
local receipt = ''
if ARGV[5] ~= '' then
  receipt = player .. ':' .. ARGV[5]
  local seen = redis.call('HGET', KEYS[3], receipt)
  if seen then
    local body, marker, rest = string.match(seen, '^([^|]*)|([^|]*)|(.*)$')
    if body ~= ARGV[6] then return {'idempotency_key_reused'} end
    if marker == 'state' then return {'replay', rest} end
    local parts = {marker}
    for piece in string.gmatch(rest, '[^|]+') do parts[#parts + 1] = piece end
    return {'replayed', unpack(parts)}
  end
end
local function refuse(answer)
  remember(KEYS[1], KEYS[3], receipt, ARGV[6] .. '|' .. table.concat(answer, '|'), ARGV[7])
  return answer
end
local status, offer = meta[3], tonumber(meta[6] or 0)
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= player then return refuse({'wrong_player', player}) end
if ARGV[4] ~= '' and tonumber(ARGV[4]) ~= tonumber(meta[5]) then
  return refuse({'precondition_failed', meta[5]})
end
if status ~= 'in_progress' then return refuse({'game_over', status, meta[4], meta[7]}) end
local ending = {'next', 0, 'offer', 0}
if ARGV[2] == 'resign' then
  read_clock(KEYS[1], now, true)
  changed(KEYS[1], ARGV[8], {'status', 'won', 'winner', 3 - player, 'reason', 'resignation',
                             unpack(ending)})
elseif offer == 3 - player then
  read_clock(KEYS[1], now, true)
  changed(KEYS[1], ARGV[8], {'status', 'draw', 'winner', 0, 'reason', 'agreement',
                             unpack(ending)})
elseif offer == 0 then
  read_clock(KEYS[1], now, false)
  changed(KEYS[1], ARGV[8], {'offer', player})
end  -- else the player's own offer stands already: nothing changes
local state = state_of(KEYS[1], KEYS[2])
remember(KEYS[1], KEYS[3], receipt, ARGV[6] .. '|state|' .. cjson.encode(state), ARGV[7])
return {'ok', state}
