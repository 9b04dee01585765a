-- What a push stream reads after a change: the store's time, the game's state, and its moves
-- made after a version. KEYS: meta, moves. ARGV: the version, most moves, the game's channel.
-- -> the time (ms), the number of moves made at that version, the state (game.lua's state_of),
--    then the records of the moves after them
local now = now_ms()
settle(KEYS[1], ARGV[3], now)
local state = state_of(KEYS[1], KEYS[2])
if not state then return false end
local after, count, version = tonumber(ARGV[1]), tonumber(state[9]), tonumber(state[7])
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
local answer = {now, first, state}
local records = redis.call('LRANGE', KEYS[2], first, first + tonumber(ARGV[2]) - 1)
for i = 1, #records do answer[3 + i] = records[i] end
return answer
