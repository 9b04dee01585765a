-- A fast path's cells and lines as tictactoe_move.lua keeps them, changed both ways: what a move
-- does to them, and what a takeback undoes (for the scripts that change them: see
-- redis_scripts.py). The cells hash: 'row:col' -> player; the lines hash: the four line counters
-- ('r<row>', 'c<col>', 'd', 'a': k = n), or each run's length at its two ends ('<d>:row:col':
-- k < n), and with early_draw the windows (below).
local DIRECTIONS = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}

-- Early draw: per player p and number m of stones a window misses, the open windows' count,
-- kept as its change since the start ('w<p>:<m>' in the lines hash: at the start every window
-- misses k), as app/rules/dead.py's Liveness does. k = n: the windows are the lines, whose
-- stones of each player are counted ('L<p><line>'); k < n: the windows around the stone are
-- read from the cells, k + 1 each way under standard's exact five (a window whose end holds the
-- player's own stone would make six). `player`'s stone at (row, col) is in the cells; `sign` 1:
-- it was just placed, -1: it is taken back (each count changes back). O(k).
local function windows_changed(cells_key, lines_key, n, k, exact, row, col, player, sign)
  local opponent = 3 - player
  local function open_add(p, m, by) redis.call('HINCRBY', lines_key, 'w' .. p .. ':' .. m, sign * by) end
  if k == n then
    local lines = {'r' .. row, 'c' .. col}
    if row == col then lines[#lines + 1] = 'd' end
    if row + col == n - 1 then lines[#lines + 1] = 'a' end
    for _, line in ipairs(lines) do
      if sign < 0 then redis.call('HINCRBY', lines_key, 'L' .. player .. line, -1) end
      local mine = tonumber(redis.call('HGET', lines_key, 'L' .. player .. line) or 0)
      local theirs = tonumber(redis.call('HGET', lines_key, 'L' .. opponent .. line) or 0)
      if theirs == 0 then open_add(player, n - mine, -1); open_add(player, n - mine - 1, 1) end
      if mine == 0 then open_add(opponent, n - theirs, -1) end
      if sign > 0 then redis.call('HINCRBY', lines_key, 'L' .. player .. line, 1) end
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
        else span[#span + 1] = tonumber(redis.call('HGET', cells_key, r .. ':' .. c) or 0) end
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
end

-- The length of `player`'s run through (row, col) in direction `d` (its step dr, dc), split at
-- that cell: the stones before it and after it, walked from it both ways at once until one side
-- ends (the run's length, kept at that side's end, gives the other): O(the shorter side), less
-- than k while no run has won.
local function split_run(cells_key, lines_key, n, d, dr, dc, row, col, player)
  local mine = tostring(player)
  local function own(r, c)
    return r >= 0 and r < n and c >= 0 and c < n
           and redis.call('HGET', cells_key, r .. ':' .. c) == mine
  end
  local before, after = 0, 0
  while true do
    if not own(row - (before + 1) * dr, col - (before + 1) * dc) then
      local length = redis.call('HGET', lines_key, d .. ':' .. (row - before * dr) .. ':'
                                .. (col - before * dc))
      return before, tonumber(length) - 1 - before
    end
    before = before + 1
    if not own(row + (after + 1) * dr, col + (after + 1) * dc) then
      local length = redis.call('HGET', lines_key, d .. ':' .. (row + after * dr) .. ':'
                                .. (col + after * dc))
      return tonumber(length) - 1 - after, after
    end
    after = after + 1
  end
end

-- Take back `player`'s stone at (row, col), the last one placed (a takeback, as
-- app/rules/lines.py's LineCounters.remove and app/rules/runs.py's RunLengths.remove do): its
-- counters, its runs split back, its windows, then the cell.
local function stone_lifted(cells_key, lines_key, n, k, exact, early, row, col, player)
  if early then windows_changed(cells_key, lines_key, n, k, exact, row, col, player, -1) end
  if k == n then
    local delta = (player == 1) and -1 or 1
    redis.call('HINCRBY', lines_key, 'r' .. row, delta)
    redis.call('HINCRBY', lines_key, 'c' .. col, delta)
    if row == col then redis.call('HINCRBY', lines_key, 'd', delta) end
    if row + col == n - 1 then redis.call('HINCRBY', lines_key, 'a', delta) end
  else
    for d, step in ipairs(DIRECTIONS) do
      local dr, dc = step[1], step[2]
      local before, after = split_run(cells_key, lines_key, n, d, dr, dc, row, col, player)
      local function at(t) return d .. ':' .. (row + t * dr) .. ':' .. (col + t * dc) end
      redis.call('HDEL', lines_key, at(-before), at(after))
      if before > 0 then redis.call('HSET', lines_key, at(-before), before, at(-1), before) end
      if after > 0 then redis.call('HSET', lines_key, at(1), after, at(after), after) end
    end
  end
  redis.call('HDEL', cells_key, row .. ':' .. col)
end
