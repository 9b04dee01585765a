-- The fast path of n × n tic-tac-toe, k in a row: check and apply one move in O(1), atomically,
-- as app/sessions/kinds/tictactoe.py does (its detectors: app/rules/lines.py for k = n, counters
-- of the four lines through the cell; app/rules/runs.py for k < n, run lengths at the runs' ends).
-- Gomoku's freestyle, standard and caro games take it too (meta 'rule', k = 5), as
-- app/sessions/kinds/gomoku.py plays them (app/rules/gomoku.py): a run's length decides
-- freestyle (five or more) and standard (exactly five); caro's exactly five also asks whether
-- the opponent's stones close both its ends (the board's edge closes nothing), six or more wins.
-- A gomoku record adds the mover and its colour ('7:7:1:B'); a pass (ARG.row 'pass') is
-- refused, after the turn, as no rule of these has passes, and so is a choice (ARG.row
-- 'choice'): a game with a swap2 opening takes the generic engine, so this one has none.
-- A game created with early_draw (meta 'early') also keeps the windows each player can still
-- fill, as app/rules/dead.py's Liveness does, and ends drawn ('dead_position') when neither
-- player can complete one with the moves left: O(k) a move (see below).
-- KEYS: meta, cells, lines, moves, receipts. Its arguments and answers: redis_wire.py.
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
local rule = meta[12]  -- a gomoku game's; nil for tic-tac-toe
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
    if parts[1] == 'ok' then
      local seq = tonumber(parts[2])
      return REPLY.replay{seq = seq, record = redis.call('LINDEX', KEYS[4], seq - 1),
                          state = state_of(KEYS[1], KEYS[4])}
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

-- Early draw: per player p and number m of stones a window misses, the open windows' count,
-- kept as its change since the start ('w<p>:<m>' in the lines hash: at the start every window
-- misses k). k = n: the windows are the lines, whose stones of each player are counted
-- ('L<p><line>'); k < n: the windows around the stone are read from the cells, k + 1 each way
-- under standard's exact five (a window whose end holds the player's own stone would make six).
local dead = false
if early and not won and seq < n * n then
  local opponent = 3 - player
  local exact = rule == 'standard'
  local function open_add(p, m, by) redis.call('HINCRBY', KEYS[3], 'w' .. p .. ':' .. m, by) end
  if k == n then
    local lines = {'r' .. ARG.row, 'c' .. ARG.col}
    if row == col then lines[#lines + 1] = 'd' end
    if row + col == n - 1 then lines[#lines + 1] = 'a' end
    for _, line in ipairs(lines) do
      local mine = tonumber(redis.call('HGET', KEYS[3], 'L' .. player .. line) or 0)
      local theirs = tonumber(redis.call('HGET', KEYS[3], 'L' .. opponent .. line) or 0)
      if theirs == 0 then open_add(player, n - mine, -1); open_add(player, n - mine - 1, 1) end
      if mine == 0 then open_add(opponent, n - theirs, -1) end
      redis.call('HINCRBY', KEYS[3], 'L' .. player .. line, 1)
    end
  else
    local OFF = -1
    local reach = exact and (k + 1) or (k - 1)
    for _, step in ipairs({{0, 1}, {1, 0}, {1, 1}, {1, -1}}) do
      local dr, dc = step[1], step[2]
      local span = {}
      for t = -reach, reach do
        local r, c = row + t * dr, col + t * dc
        if r < 0 or r >= n or c < 0 or c >= n then span[#span + 1] = OFF
        else span[#span + 1] = tonumber(redis.call('HGET', KEYS[2], r .. ':' .. c) or 0) end
      end
      local centre = reach + 1
      span[centre] = 0  -- the windows as they were before the stone
      local function tally(v, by, counts)
        if v == player then counts[1] = counts[1] + by
        elseif v == opponent then counts[2] = counts[2] + by
        elseif v == OFF then counts[3] = counts[3] + by end
      end
      local first = centre - k + 1
      local counts = {0, 0, 0}  -- the mover's stones, the opponent's, cells off the board
      for i = first, first + k - 1 do tally(span[i], 1, counts) end
      for start = first, centre do
        if start > first then
          tally(span[start - 1], -1, counts)
          tally(span[start + k - 1], 1, counts)
        end
        if counts[3] == 0 then
          local mine_end, theirs_end = false, false
          if exact then
            local a, b = span[start - 1], span[start + k]
            mine_end, theirs_end = a == player or b == player, a == opponent or b == opponent
          end
          if counts[2] == 0 and not mine_end then
            open_add(player, k - counts[1], -1)
            open_add(player, k - counts[1] - 1, 1)
          end
          if counts[1] == 0 and not theirs_end then open_add(opponent, k - counts[2], -1) end
        end
      end
      if exact then  -- the windows the stone ends: closed to the mover
        for _, window in ipairs({{centre - k, centre - k - 1}, {centre + 1, centre + k + 1}}) do
          local start, far = window[1], window[2]
          local closed, mine = span[far] == player, 0
          for i = start, start + k - 1 do
            if span[i] == OFF or span[i] == opponent then closed = true
            elseif span[i] == player then mine = mine + 1 end
          end
          if not closed then open_add(player, k - mine, -1) end
        end
      end
    end
  end
  local along = n - k + 1
  local total = 2 * n * along + 2 * along * along  -- the windows of the board
  local function can(p, left)
    for m = 0, math.min(left, k) do
      local count = tonumber(redis.call('HGET', KEYS[3], 'w' .. p .. ':' .. m) or 0)
      if m == k then count = count + total end
      if count > 0 then return true end
    end
    return false
  end
  local empty = n * n - seq
  dead = not (can(opponent, math.floor((empty + 1) / 2)) or can(player, math.floor(empty / 2)))
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
           'reason', reason, 'next', next_player, 'offer', 0)
if receipt then redis.call('HSET', KEYS[5], receipt, ARG.fingerprint .. '|ok|' .. seq) end
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARG.ttl_ms) end
redis.call(PUBLISH, ARG.channel, version)
return REPLY.ok{state = state_of(KEYS[1], KEYS[4])}
