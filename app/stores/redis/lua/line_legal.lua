-- The legal moves of a game on the line engine (line_move.lua), as the kind's session lists
-- them: every empty cell, in row-major order (cell index row * n + col), those after
-- ARG.after, at most ARG.most, and whether one more follows them. The cells hash answers
-- whether a cell is occupied (HEXISTS), so a page costs its cells and the occupied ones it
-- skips, never the n² of the board nor the moves list. A flag fall that is due is applied
-- first. KEYS: meta, cells.
settle(KEYS[1], ARG.channel, now_ms())
local meta = redis.call('HMGET', KEYS[1], 'n', 'status', 'next', 'version')
if not meta[1] then return false end
local n, version = tonumber(meta[1]), meta[4]
-- Over, by its rules or the session's, or an open game waiting for its player: nobody moves.
if meta[2] ~= 'in_progress' or meta[3] == '0' then
  return REPLY.legal{version = version, player = 0, n = n, total = 0, cells = {}, more = 0}
end
-- Indices are below n² ≤ 10¹², exact in Lua's doubles; a cell's field is written as the move
-- script writes it ('row:col', integers in decimal).
local function occupied(index)
  local row = math.floor(index / n)
  return redis.call('HEXISTS', KEYS[2], row .. ':' .. (index - row * n)) == 1
end
local size, most = n * n, tonumber(ARG.most)  -- cells of the board
local index = math.max(tonumber(ARG.after) + 1, 0)
local cells = {}
while index < size and #cells < most do
  if not occupied(index) then cells[#cells + 1] = index end
  index = index + 1
end
while index < size and occupied(index) do index = index + 1 end
return REPLY.legal{version = version, player = meta[3], n = n,
                   total = size - redis.call('HLEN', KEYS[2]), cells = cells,
                   more = (index < size) and 1 or 0}
