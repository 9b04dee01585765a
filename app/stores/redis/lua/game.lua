-- Shared by every script that reads or changes a game (the store puts it before each of them,
-- after the prelude that names its arguments and answers and says the time, `now_ms`, and runs
-- each as the function `answer`: see redis_scripts.py): the game's clocks as
-- app/sessions/clock.py keeps them, a flag fall that is due, a change that is no move, and the
-- game's state as every script answers it.
--
-- Meta fields of a clocked game: control ('initial:increment[:mode:stages]', seconds: clock.py's
-- TimeControl.encode), r1 and r2 (each player's milliseconds left as of `since`), since (the
-- instant of the game's last change, ms), running (0, 1 or 2: whose clock runs), turn (when
-- the running player's turn began, ms; none: since), moved (0 to 3: one bit per player who has
-- moved), mv1 and mv2 (each player's moves ever made, for the stages).
-- Every game: version (changes so far), offer (0, or the player whose draw offer stands), tbo
-- (0, or the player whose takeback offer stands), tb (the takebacks a stream may not have seen:
-- 'version:left:at,…', the moves each left growing along it, at its instant (ms; none in an
-- entry written before it was kept); see session.py's takebacks), gl (every gift of time:
-- 'version:at:moves:r1:r2:running:turn:offer:tbo,…', past.py's Gift; none in a game
-- stored before gifts were logged), jat (when the open seat was taken, ms), pm
-- (a bit a player who has moved), off (the rule flags set false, comma-separated), private
-- ('1': read only with a token); with a first-move deadline, fm (ms) and fmdue (0, or when).
-- Times are in integer milliseconds (the store's TIME, unless the store was built to take the
-- caller's); `int` writes them without the exponent Lua's tostring would use.
local function int(number) return string.format('%d', number) end

-- The time control a game keeps, and its arithmetic: clock.py's TimeControl and its methods.
local function control_of(text)
  local increment, mode, stages = string.match(text, '^%d+:(%d+):?(%a*):?(.*)$')
  return {increment = tonumber(increment) * 1000, mode = mode ~= '' and mode or 'fischer',
          stages = stages}
end

local function counts_from(c, since, turn)
  if c.mode == 'delay' then return math.max(since, turn + c.increment) end
  return since
end

local function clock_read(c, left, since, turn, now)
  return left - math.max(0, now - counts_from(c, since, turn))
end

local function stage_ms(c, made)
  local added = 0
  for after, add in string.gmatch(c.stages, '(%d+)/(%d+)') do
    if tonumber(after) == made then added = added + tonumber(add) * 1000 end
  end
  return added
end

local function credit(c, spent, made)
  local given = 0
  if c.mode == 'fischer' then given = c.increment
  elseif c.mode == 'bronstein' then given = math.min(c.increment, spent) end
  return given + stage_ms(c, made)
end

-- A change that is no move (a draw offer, an ending), made at `at` (ms): the next version,
-- announced, and the instant of the game's last change ('at').
local function changed(meta_key, channel, fields, at)
  local version = redis.call('HINCRBY', meta_key, 'version', 1)
  redis.call('HSET', meta_key, 'at', int(at), unpack(fields))
  redis.call(PUBLISH, channel, version)
  return version
end

-- Let the running clock's flag fall, or a first move's deadline pass ('fmdue': the game is
-- aborted), whichever comes first, if it has come: the game ended at that instant, whether or
-- not anybody was looking. True if it ended now; the script's answer then says why
-- (REPLY.settled: the store counts the ending).
local settled = false
local function settle(meta_key, channel, now)
  local f = redis.call('HMGET', meta_key, 'running', 'since', 'r1', 'r2', 'status', 'fmdue',
                       'control', 'turn')
  if f[5] ~= 'in_progress' then return false end
  local running = tonumber(f[1] or 0)
  local flag, c, since, turn
  if running ~= 0 then
    c, since = control_of(f[7]), tonumber(f[2])
    turn = tonumber(f[8] or since)
    flag = counts_from(c, since, turn) + tonumber(f[2 + running])
  end
  local due = tonumber(f[6] or 0)
  if due ~= 0 and now >= due and (not flag or due <= flag) then
    local fields = {'status', 'aborted', 'winner', 0, 'reason', 'no_first_move', 'next', 0,
                    'offer', 0, 'tbo', 0, 'fmdue', 0}
    if running ~= 0 then  -- its clock stops at the deadline
      for _, v in ipairs({'r' .. running,
                          int(clock_read(c, tonumber(f[2 + running]), since, turn, due)),
                          'since', int(due), 'running', 0}) do fields[#fields + 1] = v end
    end
    changed(meta_key, channel, fields, due)
    settled = 'no_first_move'
    return true
  end
  if not flag or now < flag then return false end
  changed(meta_key, channel, {'r' .. running, 0, 'since', int(flag), 'running', 0,
                              'status', 'won', 'winner', 3 - running, 'reason', 'timeout',
                              'next', 0, 'offer', 0, 'tbo', 0, 'fmdue', 0}, flag)
  settled = 'timeout'
  return true
end

-- The player to move has it to move from `now` (the game began, someone joined, a move was
-- made; `next_player` 0: the game is over): in a game with a first-move deadline ('fm', ms),
-- one who has not moved yet ('pm': a bit a player who has) must by 'fmdue', as session.py's
-- Session.first_turn says.
local function first_turn(meta_key, next_player, now)
  local f = redis.call('HMGET', meta_key, 'fm', 'pm', 'status', 'open')
  if not f[1] then return end
  local due = 0
  if next_player ~= 0 and f[3] == 'in_progress' and (f[4] or '0') == '0'
     and bit.band(tonumber(f[2] or 0), next_player) == 0 then
    due = now + tonumber(f[1])
  end
  redis.call('HSET', meta_key, 'fmdue', int(due))
end

-- The running clock's reading at a change that is no move; `stop` also stops it (an ending).
local function read_clock(meta_key, now, stop)
  local f = redis.call('HMGET', meta_key, 'control', 'running', 'since', 'r1', 'r2', 'turn')
  if not f[1] then return end
  local running = tonumber(f[2])
  local fields = {'since', int(now)}
  if running ~= 0 then
    local since = tonumber(f[3])
    fields[3], fields[4] = 'r' .. running, int(clock_read(control_of(f[1]),
      tonumber(f[3 + running]), since, tonumber(f[6] or since), now))
  end
  if stop then fields[#fields + 1], fields[#fields + 2] = 'running', 0 end
  redis.call('HSET', meta_key, unpack(fields))
end

-- `mover`'s move number `seq` was accepted at `now` (settle ran first: before any deadline),
-- making the game's version `version`; `next_player` moves next (0: the game is over). Counts
-- the mover as one who has moved ('pm'), sets the next first move's deadline, runs
-- the clocks as clock.py's Clocks.moved_by does, and returns the stamp its record ends with:
-- '|version|at' (a game without clocks) or '|version|at|remaining 1|remaining 2|running|spent'
-- (records written before moves kept their instant end with '' or '|version').
local function moved(meta_key, mover, next_player, version, seq, now)
  local pm = redis.call('HGET', meta_key, 'pm')
  redis.call('HSET', meta_key, 'pm', bit.bor(tonumber(pm or 0), mover), 'at', int(now))
  first_turn(meta_key, next_player, now)
  local f = redis.call('HMGET', meta_key, 'control', 'r1', 'r2', 'since', 'running', 'moved',
                       'turn', 'mv' .. mover)
  if not f[1] then return '|' .. version .. '|' .. int(now) end
  local c = control_of(f[1])
  local left = {tonumber(f[2]), tonumber(f[3])}
  local since, running, players = tonumber(f[4]), tonumber(f[5]), tonumber(f[6])
  local turn = tonumber(f[7] or since)
  local timed = players == 3  -- both players had moved: this move ran a clock
  local spent = timed and math.max(0, now - counts_from(c, turn, turn)) or 0
  if running ~= 0 then left[running] = clock_read(c, left[running], since, turn, now) end
  local made = tonumber(f[8] or 0) + 1
  left[mover] = left[mover] + (timed and credit(c, spent, made) or stage_ms(c, made))
  if players ~= 3 and players ~= mover then players = players + mover end
  running = (players == 3) and next_player or 0
  redis.call('HSET', meta_key, 'r1', int(left[1]), 'r2', int(left[2]), 'since', int(now),
             'running', running, 'moved', players, 'turn', int(now), 'mv' .. mover, made)
  return '|' .. version .. '|' .. int(now) .. '|' .. int(left[1]) .. '|' .. int(left[2]) .. '|'
         .. running .. '|' .. int(spent)
end

-- `seconds` more on `player`'s clock, given now: clock.py's Clocks.give, a change; counted
-- ('gifts'), its version kept ('lg') and the gift logged with the moves made, the clocks, the
-- offers, the first move's deadline and the last takeback right after it ('gl': a stream sends
-- each gift in its place as `event: clock`).
local function time_given(meta_key, moves_key, channel, player, seconds, now)
  read_clock(meta_key, now, false)
  redis.call('HINCRBY', meta_key, 'r' .. player, seconds * 1000)
  redis.call('HINCRBY', meta_key, 'gifts', 1)
  local version = changed(meta_key, channel, {}, now)
  local f = redis.call('HMGET', meta_key, 'r1', 'r2', 'running', 'turn', 'offer', 'tbo', 'gl',
                      'fmdue', 'tbl')
  local entry = table.concat({version, int(now), redis.call('LLEN', moves_key), f[1], f[2],
                              f[3] or 0, f[4] or int(now), f[5] or 0, f[6] or 0, f[8] or 0,
                              f[9] or 0}, ':')
  redis.call('HSET', meta_key, 'lg', version, 'gl', f[7] and (f[7] .. ',' .. entry) or entry)
end

-- The game's state by name (false for a game that does not exist), and as every script
-- answers it (wire.py's StateReply).
local function state_fields(meta_key, moves_key)
  local m = redis.call('HMGET', meta_key, 'kind', 'facts', 'status', 'winner', 'reason', 'next',
                       'version', 'offer', 'control', 'r1', 'r2', 'since', 'running', 'lobby',
                       'open', 'joined', 'fmdue', 'off', 'private', 'rmo', 'rm', 'tbo', 'tbl',
                       'turn', 'at', 'lg', 'jat', 'made', 'n1', 'n2', 'p1', 'p2', 'pool', 'tour')
  if not m[1] then return false end
  return {kind = m[1], facts = m[2], status = m[3], winner = m[4], reason = m[5] or '',
          next_player = m[6], version = m[7], last = redis.call('LINDEX', moves_key, -1) or false,
          moves = redis.call('LLEN', moves_key), offer = m[8] or '0', control = m[9] or '',
          r1 = m[10] or '0', r2 = m[11] or '0', since = m[12] or '0', running = m[13] or '0',
          lobby = m[14] or '0', open = m[15] or '0', joined = m[16] or '0',
          fmdue = m[17] or '0', off = m[18] or '', private = m[19] or '0', rmo = m[20] or '0',
          rm = m[21] or '', tbo = m[22] or '0', tbl = m[23] or '0', turn = m[24] or '0',
          at = m[25] or '0', lg = m[26] or '0', jat = m[27] or '0', made = m[28] or '0',
          n1 = m[29] or '', n2 = m[30] or '', p1 = m[31] or '', p2 = m[32] or '',
          pool = m[33] or '', tour = m[34] or ''}
end

local function state_of(meta_key, moves_key)
  local fields = state_fields(meta_key, moves_key)
  return fields and REPLY.state(fields)
end

-- Remember an answer other than an accepted move under its Idempotency-Key, up to a number
-- of them per game, for as long as the game lives (a refusal does not make it live longer: a
-- game nobody moved in expires soon, its receipts with it).
-- `always`: an answer kept as an accepted move's is, whatever the bound (a takeback offer or
-- its acceptance: a retry must never be taken for a new offer).
local function remember(meta_key, receipts_key, field, value, most, always)
  if field == '' or (not always and
                     tonumber(redis.call('HGET', meta_key, 'refusals') or 0) >= tonumber(most)) then
    return
  end
  local left = redis.call('PTTL', meta_key)
  if left == 0 or left == -2 then return end  -- gone: nothing kept
  redis.call('HSET', receipts_key, field, value)
  if not always then redis.call('HINCRBY', meta_key, 'refusals', 1) end
  -- kept with the game: as long as it lives, or (waiting in the outbox) until it is archived
  if left > 0 then redis.call('PEXPIRE', receipts_key, left) end
end


-- The game's version right after move `seq`, from its record (the stamp `moved` wrote; none: its
-- seq).
local function record_version(record, seq)
  local stamp = string.match(record, '|(%d+)')
  return stamp and tonumber(stamp) or seq
end

-- The record of the move a request was answered with (its seq and the version right after it:
-- nil for a receipt written before takebacks): the game's, or one a takeback took back (kept
-- in the receipts hash as 't:<version>').
local function answered_record(moves_key, receipts_key, seq, version)
  local record = redis.call('LINDEX', moves_key, seq - 1)
  if record and (not version or record_version(record, seq) == version) then return record end
  return redis.call('HGET', receipts_key, 't:' .. version)
end

-- `offerer`'s standing takeback offer is accepted, `left` moves are left: as session.py's
-- Session._take_back does, the moves after them are taken back (their records kept for the
-- receipts that name them), `offerer` moves again with its clock running if one ran (none is
-- rolled back), no offer stands, and the takeback joins 'tb'. `fields`: the position's own
-- (a fast path's cells and lines are changed by the caller). Answers the new version.
local function taken_back(keys, channel, left, offerer, now, fields)
  local meta_key, moves_key, receipts_key = keys[1], keys[2], keys[3]
  local taken = redis.call('LRANGE', moves_key, left, -1)
  for i, record in ipairs(taken) do
    redis.call('HSET', receipts_key, 't:' .. record_version(record, left + i), record)
  end
  local ttl = redis.call('PTTL', meta_key)
  if ttl > 0 then redis.call('PEXPIRE', receipts_key, ttl) end
  if left == 0 then redis.call('DEL', moves_key) else redis.call('LTRIM', moves_key, 0, left - 1) end
  read_clock(meta_key, now, false)
  local running = tonumber(redis.call('HGET', meta_key, 'running') or 0)
  local all = {'status', 'in_progress', 'winner', 0, 'reason', '', 'next', offerer, 'offer', 0,
               'tbo', 0}
  if running ~= 0 then
    for _, v in ipairs({'running', offerer, 'turn', int(now)}) do all[#all + 1] = v end
  end
  for _, v in ipairs(fields) do all[#all + 1] = v end
  local version = changed(meta_key, channel, all, now)
  local kept = {}
  for entry in string.gmatch(redis.call('HGET', meta_key, 'tb') or '', '[^,]+') do
    if tonumber(string.match(entry, '^%d+:(%d+)')) < left then kept[#kept + 1] = entry end
  end
  kept[#kept + 1] = version .. ':' .. left .. ':' .. int(now)
  redis.call('HSET', meta_key, 'tb', table.concat(kept, ','), 'tbl', version)
  first_turn(meta_key, offerer, now)
  return version
end

-- `player`'s takeback offer, made now: the running clock's reading, the offer standing.
local function takeback_offered(meta_key, channel, player, now)
  read_clock(meta_key, now, false)
  changed(meta_key, channel, {'tbo', player}, now)
end

-- A game's life after every game script (the store runs it after the script's own answer:
-- scripts.py), in the game's slot: DEADLINES and OUTBOX are that slot's sorted sets (keys.py),
-- IDLE_MS the store's idle time and ARCHIVE whether it archives (the prelude's).
-- * Its pending deadline (the running clock's flag, or a first move's deadline: what `settle`
--   waits for) is kept in DEADLINES (and in 'dl'), so that a sweep ends it when it comes with
--   nobody looking; and its keys live at least IDLE_MS past it (a game whose clock runs is
--   never removed before its flag falls).
-- * Archiving, a game that has ended (whatever ended it: this script's move or action, or
--   `settle`) goes into OUTBOX once, scored by the instant it ended ('ob' 1: waiting; the
--   store's `archived` makes it 2), and its keys stop expiring until it is archived.
-- Answers the instant it ended if it went into the outbox now (else 0), and its deadline if
-- that changed now (else 0): the process's hints (life.py).
local GAME_KEYS = {'meta', 'cells', 'lines', 'moves', 'receipts', 'stones'}
local function each_key(meta_key, command, ...)
  local tag = string.sub(meta_key, 1, -6)  -- '{game:ID}' of '{game:ID}:meta'
  for _, name in ipairs(GAME_KEYS) do redis.call(command, tag .. ':' .. name, ...) end
end

local function lived(meta_key, now)
  local f = redis.call('HMGET', meta_key, 'status', 'running', 'since', 'r1', 'r2', 'control',
                       'turn', 'fmdue', 'dl', 'ob', 'at')
  if not f[1] then return 0, 0 end
  local game_id = string.match(meta_key, '^{game:(.*)}:meta$')
  local due = 0
  if f[1] == 'in_progress' then
    local running = tonumber(f[2] or 0)
    if running ~= 0 then
      local c, since = control_of(f[6]), tonumber(f[3])
      due = counts_from(c, since, tonumber(f[7] or since)) + tonumber(f[3 + running])
    end
    local first = tonumber(f[8] or 0)
    if first ~= 0 and (due == 0 or first < due) then due = first end
  end
  local moved = 0
  if due ~= tonumber(f[9] or 0) then
    if due ~= 0 then
      redis.call('ZADD', DEADLINES, due, game_id)
      moved = due
    else
      redis.call('ZREM', DEADLINES, game_id)
    end
    redis.call('HSET', meta_key, 'dl', int(due))
  end
  local ended, waiting = 0, ARCHIVE and f[10] == '1'
  if ARCHIVE and f[1] ~= 'in_progress' and not f[10] then
    ended = tonumber(f[11] or now)
    redis.call('ZADD', OUTBOX, ended, game_id)
    redis.call('HSET', meta_key, 'ob', 1)
    waiting = true
  end
  if waiting then
    if redis.call('PTTL', meta_key) ~= -1 then each_key(meta_key, 'PERSIST') end
  elseif due ~= 0 then
    local life = due - now + IDLE_MS
    local left = redis.call('PTTL', meta_key)
    if left >= 0 and left < life then each_key(meta_key, 'PEXPIRE', int(life)) end
  end
  return ended, moved
end
