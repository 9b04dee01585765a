-- A fast path's cells and lines as line_move.lua keeps them, changed both ways: what a move
-- does to them, and what a takeback undoes (for the scripts that change them: see
-- redis_scripts.py). The cells hash: 'row:col' -> player; the lines hash: the four line counters
-- ('r<row>', 'c<col>', 'd', 'a': k = n), or each run's length at its two ends ('<d>:row:col':
-- k < n), and with early_draw the windows (below: with the stones sorted set where k < n).
local DIRECTIONS = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}

-- Early draw, as app/rules/dead.py's Liveness keeps it (its docstring says why each count is
-- what it is), in the lines hash: 'o<p>', the change of player p's open windows since the start
-- (every window of the board is open to both then); 'w<p>:<m>', the change of p's open windows
-- missing m stones (every window misses k at the start). The misses are kept from the start for
-- k = n, where the windows are the lines, whose stones of each player are counted
-- ('L<p><line>'), and under standard's exact five, where the windows around the stone are read
-- from the cells (k + 1 each way: a window whose end holds the player's own stone would make six).
-- Else (k < n, k or more wins) the opponent's windows a stone closes are counted from the
-- player's nearest stones on each line through it, kept sorted in the stones key (a sorted set;
-- `placed`): O(log moves), whatever k; the misses are counted on the whole board only once fewer
-- than 2k cells are empty ('wb' set then: `misses_counted`), and kept from then on by reading the
-- windows around each stone (O(k): a game gets there only after (n - 1)^2 moves or more).
local function windows_of(n, k)
  local along = n - k + 1
  return 2 * n * along + 2 * along * along
end

-- The windows through `player`'s stone at (row, col) (and, exact, those it ends) read from the
-- cells, their misses changed (`sign` 1: the stone was just placed; -1: it is taken back, the
-- cell still holding it). Answers how many windows it closes to the opponent, and to the player.
local function windows_read(cells_key, lines_key, n, k, exact, row, col, player, sign)
  local opponent = 3 - player
  local closed_theirs, closed_mine = 0, 0
  local function misses_add(p, m, by)
    redis.call('HINCRBY', lines_key, 'w' .. p .. ':' .. m, sign * by)
  end
  local OFF = -1
  local reach = exact and (k + 1) or (k - 1)
  for _, step in ipairs(DIRECTIONS) do
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
          misses_add(player, k - counts[1], -1)
          misses_add(player, k - counts[1] - 1, 1)
        end
        if counts[1] == 0 and not theirs_end then
          misses_add(opponent, k - counts[2], -1)
          closed_theirs = closed_theirs + 1
        end
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
        if not closed then
          misses_add(player, k - mine, -1)
          closed_mine = closed_mine + 1
        end
      end
    end
  end
  return closed_theirs, closed_mine
end

-- The line through (row, col) in direction d (1 … 4, as DIRECTIONS): its number among that
-- direction's lines (from 0), the cell's place on it (its column across, else its row), and the
-- line's cells before and after it (dead.py's `along`, its diagonals' numbers made positive).
local function along(d, row, col, n)
  if d == 1 then return row, col, col, n - 1 - col end
  if d == 2 then return col, row, row, n - 1 - row end
  if d == 3 then return col - row + n - 1, row, math.min(row, col), n - 1 - math.max(row, col) end
  return row + col, row, math.min(row, n - 1 - col), math.min(n - 1 - row, col)
end

-- k < n, not exact: `player`'s stone at (row, col) joins (`sign` -1: leaves) the sorted set of
-- the players' stones, one member per stone and direction, scored by its line and place: per
-- direction and player 2n - 1 lines of n places each (below 2^53 for n up to 10^6: exact).
-- Answers how many of the opponent's windows through the cell were open before the stone: those
-- between the player's nearest stones (or the edge) on each side, at most k - 1 cells counted.
local function placed(stones_key, n, k, row, col, player, sign)
  local through = 0
  for d = 1, 4 do
    local line, at, before, after = along(d, row, col, n)
    local zero = ((((d - 1) * 2 + player - 1) * (2 * n - 1)) + line) * n  -- the line's place 0
    local here = string.format('%.0f', zero + at)
    if sign < 0 then redis.call('ZREM', stones_key, here) end
    local a, b = math.min(k - 1, before), math.min(k - 1, after)
    if a > 0 then
      local near = redis.call('ZREVRANGEBYSCORE', stones_key, '(' .. here,
                              string.format('%.0f', zero + at - a), 'LIMIT', 0, 1)
      if near[1] then a = zero + at - tonumber(near[1]) - 1 end
    end
    if b > 0 then
      local near = redis.call('ZRANGEBYSCORE', stones_key, '(' .. here,
                              string.format('%.0f', zero + at + b), 'LIMIT', 0, 1)
      if near[1] then b = tonumber(near[1]) - (zero + at) - 1 end
    end
    through = through + math.max(0, a + b - k + 2)
    if sign > 0 then redis.call('ZADD', stones_key, here, here) end
  end
  return through
end

-- k < n, not exact: every player's open windows by misses, counted on the whole board from the
-- cells (O(n^2): only once fewer than 2k cells are empty, so n^2 < moves + 2n), then kept.
local function misses_counted(cells_key, lines_key, n, k)
  local board = {}
  local flat = redis.call('HGETALL', cells_key)
  for i = 1, #flat, 2 do
    local r, c = string.match(flat[i], '^(%d+):(%d+)$')
    board[tonumber(r) * n + tonumber(c)] = tonumber(flat[i + 1])
  end
  local counts = {{}, {}}
  local function count(p, m) counts[p][m] = (counts[p][m] or 0) + 1 end
  for _, step in ipairs(DIRECTIONS) do
    local dr, dc = step[1], step[2]
    for r0 = 0, n - 1 do
      for c0 = 0, n - 1 do
        local pr, pc = r0 - dr, c0 - dc
        if pr < 0 or pr >= n or pc < 0 or pc >= n then  -- a line starts here
          local line, r, c = {}, r0, c0
          while r >= 0 and r < n and c >= 0 and c < n do
            line[#line + 1] = board[r * n + c] or 0
            r, c = r + dr, c + dc
          end
          local held = {[0] = 0, 0, 0}  -- the window's empty cells, stones of 1, of 2
          for i = 1, #line do
            held[line[i]] = held[line[i]] + 1
            if i > k then held[line[i - k]] = held[line[i - k]] - 1 end
            if i >= k then
              if held[2] == 0 then count(1, k - held[1]) end
              if held[1] == 0 then count(2, k - held[2]) end
            end
          end
        end
      end
    end
  end
  local total = windows_of(n, k)
  for p = 1, 2 do
    counts[p][k] = counts[p][k] or 0  -- kept as its change since the start too
    for m, found in pairs(counts[p]) do
      if m == k then found = found - total end
      if found ~= 0 then redis.call('HSET', lines_key, 'w' .. p .. ':' .. m, found) end
    end
  end
  redis.call('HSET', lines_key, 'wb', 1)
end

-- `player`'s stone at (row, col) is in the cells: the windows it changes (`sign` 1: it was just
-- placed; -1: it is taken back, each count changing back).
local function windows_changed(cells_key, lines_key, stones_key, n, k, exact, row, col, player,
                               sign)
  local opponent = 3 - player
  local closed_theirs, closed_mine = 0, 0
  if k == n then
    local function misses_add(p, m, by)
      redis.call('HINCRBY', lines_key, 'w' .. p .. ':' .. m, sign * by)
    end
    local lines = {'r' .. row, 'c' .. col}
    if row == col then lines[#lines + 1] = 'd' end
    if row + col == n - 1 then lines[#lines + 1] = 'a' end
    for _, line in ipairs(lines) do
      if sign < 0 then redis.call('HINCRBY', lines_key, 'L' .. player .. line, -1) end
      local mine = tonumber(redis.call('HGET', lines_key, 'L' .. player .. line) or 0)
      local theirs = tonumber(redis.call('HGET', lines_key, 'L' .. opponent .. line) or 0)
      if theirs == 0 then misses_add(player, n - mine, -1); misses_add(player, n - mine - 1, 1) end
      if mine == 0 then
        misses_add(opponent, n - theirs, -1)
        closed_theirs = closed_theirs + 1
      end
      if sign > 0 then redis.call('HINCRBY', lines_key, 'L' .. player .. line, 1) end
    end
  elseif exact then
    closed_theirs, closed_mine = windows_read(cells_key, lines_key, n, k, exact, row, col, player,
                                              sign)
  else
    closed_theirs = placed(stones_key, n, k, row, col, player, sign)
    if redis.call('HEXISTS', lines_key, 'wb') == 1 then
      windows_read(cells_key, lines_key, n, k, exact, row, col, player, sign)
    end
  end
  if closed_theirs ~= 0 then
    redis.call('HINCRBY', lines_key, 'o' .. opponent, -sign * closed_theirs)
  end
  if closed_mine ~= 0 then redis.call('HINCRBY', lines_key, 'o' .. player, -sign * closed_mine) end
end

-- Whether the position is dead: neither player can complete a line with the moves left, `empty`
-- cells, `to_move` first. A player with k moves left or more can while any window is open to it
-- (each misses at most k); with fewer, the misses are asked (counted first where not yet kept).
local function dead_now(cells_key, lines_key, n, k, exact, empty, to_move)
  if k < n and not exact and math.floor(empty / 2) < k
     and redis.call('HEXISTS', lines_key, 'wb') == 0 then
    misses_counted(cells_key, lines_key, n, k)
  end
  local total = windows_of(n, k)
  local function can(p, left)
    if left >= k then
      return total + tonumber(redis.call('HGET', lines_key, 'o' .. p) or 0) > 0
    end
    for m = 0, left do
      if tonumber(redis.call('HGET', lines_key, 'w' .. p .. ':' .. m) or 0) > 0 then
        return true
      end
    end
    return false
  end
  return not (can(to_move, math.floor((empty + 1) / 2)) or can(3 - to_move, math.floor(empty / 2)))
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
local function stone_lifted(cells_key, lines_key, stones_key, n, k, exact, early, row, col, player)
  if early then
    windows_changed(cells_key, lines_key, stones_key, n, k, exact, row, col, player, -1)
  end
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
