-- What a push stream reads after a change: the store's time, the game's state, and its moves
-- made after a version. KEYS: meta, moves.
local now = now_ms()
settle(KEYS[1], ARG.channel, now)
local state = state_fields(KEYS[1], KEYS[2])
if not state then return false end
local after, count, version = tonumber(ARG.after), tonumber(state.moves), tonumber(state.version)
-- The moves made at version `after`: move m's version is m, or its record's stamp once changes
-- that are no moves (draw offers) came before it; versions grow with m, so a binary search.
local first
if version == count or after >= version then
  first = math.min(math.max(after, 0), count)
else
  local function version_of(m)
    local stamp = string.match(redis.call('LINDEX', KEYS[2], m - 1), '|(%d+)')
    return stamp and tonumber(stamp) or m
  end
  local low, high = 0, math.min(math.max(after, 0), count)
  while low < high do
    local middle = math.floor((low + high + 1) / 2)
    if version_of(middle) <= after then low = middle else high = middle - 1 end
  end
  first = low
end
-- The takeback after `after` that left the fewest moves ('tb': the first after it): the stream
-- no longer has the moves after those it left, which are read instead.
local tb_version, tb_left, tb_last, tb_at = '', '', '', ''
local function game_params() return redis.call('HGET', KEYS[1], 'params') end
local params = ''
if after < version then
  for entry in string.gmatch(redis.call('HGET', KEYS[1], 'tb') or '', '[^,]+') do
    local v, l, at = string.match(entry, '^(%d+):(%d+):?(%d*)$')
    if tonumber(v) > after then
      tb_version, tb_left, tb_at = v, l, at
      first = math.min(first, tonumber(l))
      if tonumber(l) > 0 then tb_last = redis.call('LINDEX', KEYS[2], tonumber(l) - 1)
      else params = game_params() end
      break
    end
  end
end
-- The gifts of time after `after` ('gl', as time_given writes it) before the last move read
-- (all, when it is the game's last), each with the record of the move it came after: those
-- whose move still stands (a gift made after a move a takeback took back is history, as that
-- move is). false: a game whose log misses gifts (stored before gifts were logged, or
-- logged only since), which has only the last one's version ('lg').
local gifts = {}
if tonumber(state.lg) > after then
  local f = redis.call('HMGET', KEYS[1], 'gl', 'gifts')
  local log, logged = f[1] or '', 0
  local ending = first + tonumber(ARG.most)  -- the last move read, unless the game has fewer
  for entry in string.gmatch(log, '[^,]+') do
    logged = logged + 1
    local v, at, made, r1, r2, running, turn, offer, tbo, fmdue, tbl = string.match(entry,
      '^(%d+):(%d+):(%d+):(-?%d+):(-?%d+):(%d):(%d+):(%d):(%d):(%d+):(%d+)$')
    made = tonumber(made)
    if tonumber(v) > after and not (ending < count and made >= ending) and made <= count then
      local last = ''
      if made > 0 then last = redis.call('LINDEX', KEYS[2], made - 1)
      elseif params == '' then params = game_params() end
      if made == 0 or record_version(last, made) < tonumber(v) then
        gifts[#gifts + 1] = REPLY.gift{version = v, at = at, moves = made, r1 = r1, r2 = r2,
                                       running = running, turn = turn, offer = offer, tbo = tbo,
                                       fmdue = fmdue, tbl = tbl, last = last}
      end
    end
  end
  if logged < tonumber(f[2] or 0) then gifts = false end
end
return REPLY.changes{at = now, first = first, state = REPLY.state(state),
                     records = redis.call('LRANGE', KEYS[2], first, first + tonumber(ARG.most) - 1),
                     tb_version = tb_version, tb_left = tb_left, tb_last = tb_last,
                     params = params, tb_at = tb_at, gifts = gifts}
