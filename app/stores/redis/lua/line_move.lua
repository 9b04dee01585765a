-- The line engine (a kind's FastPath, engine "lines"): cells taken one at a time on an n × n
-- board, k in a row wins; check and apply one move in O(1), atomically, as the kind's own
-- session does (its detectors: app/rules/lines.py for k = n, counters of the four lines
-- through the cell; app/rules/runs.py for k < n, run lengths at the runs' ends). A game whose
-- engine parameters name a rule (meta 'rule'): a run's length decides freestyle (k or more)
-- and standard (exactly k); caro's exactly k also asks whether the opponent's stones close
-- both its ends (the board's edge closes nothing), more than k wins. Such a game's record adds
-- the mover and its colour ('7:7:1:B'); a pass (ARG.row 'pass') is refused, after the turn,
-- as none of these rules has passes, and so is a choice (ARG.row 'choice'): a game with an
-- opening rule takes the generic engine, so this one has none.
-- A game created with early_draw (meta 'early') also keeps the windows each player can still
-- fill, as app/rules/dead.py's Liveness does, and ends drawn ('dead_position') when neither
-- player can complete one with the moves left: O(log moves) a move whatever k, O(k) under
-- standard's exact five (cells.lua says how).
-- KEYS: meta, cells, lines, moves, receipts, stones. Its arguments and answers: wire.py.
-- A game's version counts its changes, its moves list its moves: they differ once a draw
-- offer was made (game.lua).
local now = now_ms()
settle(KEYS[1], ARG.channel, now)
local meta = redis.call('HMGET', KEYS[1], 'n', 'h1', 'h2', 'status', 'winner', 'version',
                        'next', 'kind', 'reason', 'max_moves', 'k', 'rule', 'early', 'open')
if not meta[1] then return REPLY.game_not_found{} end
local n = tonumber(meta[1])
local k = tonumber(meta[11] or meta[1])
local player
if ARG.token_hash == meta[2] then player = 1 elseif ARG.token_hash == meta[3] then player = 2
else return REPLY.unauthorized{} end
local status, winner, version = meta[4], tonumber(meta[5]), tonumber(meta[6])
local next_player, reason, max_moves = tonumber(meta[7]), meta[9], tonumber(meta[10])
local rule = meta[12]  -- the rule that decides a run's win, if the kind has rules
local early = meta[13] == '1'

-- A request already answered under this Idempotency-Key gets its first answer again.
local receipt = nil
if ARG.key ~= '' then
  receipt = player .. ':' .. ARG.key
  local seen = redis.call('HGET', KEYS[5], receipt)
  if seen then
    local body, rest = string.match(seen, '^([^|]*)|(.*)$')
    if body ~= ARG.fingerprint then return REPLY.idempotency_key_reused{} end
    local parts = {}
    for piece in string.gmatch(rest, '[^|]+') do parts[#parts + 1] = piece end
    if parts[1] == 'ok' then  -- the move's number, and the version right after it
      local seq = tonumber(parts[2])
      return REPLY.replay{seq = seq, state = state_of(KEYS[1], KEYS[4]),
                          record = answered_record(KEYS[4], KEYS[5], seq, tonumber(parts[3]))}
    end
    return REPLY.replayed{refusal = parts}
  end
end
if ARG.full == '1' then return REPLY.capacity_exhausted{} end
-- Refusals are remembered under their key, up to a number of them per game.
local function refuse(answer)
  if receipt then
    remember(KEYS[1], KEYS[5], receipt, ARG.fingerprint .. '|' .. table.concat(answer, '|'),
             ARG.most_refusals)
  end
  return answer
end

-- An open game waits for its second player: nobody moves until the seat is taken (not
-- remembered under the key: the same request is taken once it is).
if (meta[14] or '0') ~= '0' and status == 'in_progress' then
  return REPLY.waiting_for_opponent{open_seat = meta[14]}
end
if ARG.claimed ~= '' and tonumber(ARG.claimed) ~= player then
  return refuse(REPLY.wrong_player{player = player})
end
if ARG.expected_version ~= '' and tonumber(ARG.expected_version) ~= version then
  return refuse(REPLY.precondition_failed{version = version})
end
-- A game the session ended (at its move limit, on time, by resignation or agreement) refuses
-- every move first, as the sessions in Python do.
if status ~= 'in_progress' and reason ~= 'line' and reason ~= 'board_full'
   and reason ~= 'dead_position' then
  return refuse(REPLY.game_over{status = status, winner = winner, reason = reason})
end
local passing, choosing = ARG.row == 'pass', ARG.row == 'choice'
local row, col = tonumber(ARG.row), tonumber(ARG.col)
if not passing and not choosing and (row < 0 or row >= n or col < 0 or col >= n) then
  return refuse(REPLY.out_of_bounds{n = n})
end
if status ~= 'in_progress' then
  return refuse(REPLY.game_over{status = status, winner = winner, reason = reason})
end
if player ~= next_player then return refuse(REPLY.not_your_turn{next_player = next_player}) end
if passing then return refuse(REPLY.no_passes{rule = rule}) end
if choosing then return refuse(REPLY.wrong_step{}) end
local cell = ARG.row .. ':' .. ARG.col
if redis.call('HSETNX', KEYS[2], cell, player) == 0 then return refuse(REPLY.cell_occupied{}) end

local won = false
if k == n then
  -- The four lines through the cell: +1 for player 1, -1 for player 2; ±n is a full line.
  local delta = (player == 1) and 1 or -1
  local full = delta * n
  won = redis.call('HINCRBY', KEYS[3], 'r' .. ARG.row, delta) == full
  won = (redis.call('HINCRBY', KEYS[3], 'c' .. ARG.col, delta) == full) or won
  if row == col then won = (redis.call('HINCRBY', KEYS[3], 'd', delta) == full) or won end
  if row + col == n - 1 then
    won = (redis.call('HINCRBY', KEYS[3], 'a', delta) == full) or won
  end
else
  -- Per direction d, "d:row:col" -> the length of the run that ends at that cell. A neighbour
  -- of the new stone that holds the player's stone ends a run there.
  local directions = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}
  local mine = tostring(player)
  for d, step in ipairs(directions) do
    local dr, dc = step[1], step[2]
    local function run_at(r, c)
      if r < 0 or r >= n or c < 0 or c >= n then return 0 end
      if redis.call('HGET', KEYS[2], r .. ':' .. c) ~= mine then return 0 end
      return tonumber(redis.call('HGET', KEYS[3], d .. ':' .. r .. ':' .. c))
    end
    local before = run_at(row - dr, col - dc)
    local after = run_at(row + dr, col + dc)
    if before > 0 then redis.call('HDEL', KEYS[3], d .. ':' .. (row - dr) .. ':' .. (col - dc)) end
    if after > 0 then redis.call('HDEL', KEYS[3], d .. ':' .. (row + dr) .. ':' .. (col + dc)) end
    local length = before + 1 + after
    redis.call('HSET', KEYS[3],
               d .. ':' .. (row - before * dr) .. ':' .. (col - before * dc), length,
               d .. ':' .. (row + after * dr) .. ':' .. (col + after * dc), length)
    if rule == 'standard' then
      if length == k then won = true end
    elseif rule == 'caro' and length == k then
      -- Exactly five: it wins unless the opponent's stones close both its ends.
      local theirs = tostring(3 - player)
      local first = redis.call('HGET', KEYS[2],
                               (row - (before + 1) * dr) .. ':' .. (col - (before + 1) * dc))
      local last = redis.call('HGET', KEYS[2],
                              (row + (after + 1) * dr) .. ':' .. (col + (after + 1) * dc))
      if first ~= theirs or last ~= theirs then won = true end
    elseif length >= k then
      won = true  -- five or more (caro: six or more)
    end
  end
end
local seq = redis.call('LLEN', KEYS[4]) + 1
version = version + 1

-- Early draw: the open windows of each player (cells.lua's windows_changed), and whether either
-- can still complete one with the moves left (its dead_now).
local dead = false
if early and not won and seq < n * n then
  local exact = rule == 'standard'
  windows_changed(KEYS[2], KEYS[3], KEYS[6], n, k, exact, row, col, player, 1)
  dead = dead_now(KEYS[2], KEYS[3], n, k, exact, n * n - seq, 3 - player)
end

if won then status, winner, reason = 'won', player, 'line'
elseif seq == n * n then status, reason = 'draw', 'board_full'
elseif dead then status, reason = 'draw', 'dead_position'
elseif seq >= max_moves then status, reason = 'draw', 'move_limit' end
next_player = (status == 'in_progress') and (3 - player) or 0
local record = cell
if rule then record = cell .. ':' .. player .. ':' .. ((player == 1) and 'B' or 'W') end
redis.call('RPUSH', KEYS[4], record .. moved(KEYS[1], player, next_player, version, seq, now))
redis.call('HSET', KEYS[1], 'version', version, 'status', status, 'winner', winner,
           'reason', reason, 'next', next_player, 'offer', 0, 'tbo', 0)
if receipt then
  redis.call('HSET', KEYS[5], receipt, ARG.fingerprint .. '|ok|' .. seq .. '|' .. version)
end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARG.ttl_ms) end
redis.call(PUBLISH, ARG.channel, version)
return REPLY.ok{state = state_of(KEYS[1], KEYS[4])}
