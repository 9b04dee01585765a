"""A GameStore on Redis: many service processes, on many hosts, share the same games.

Every unit of work is one server-side Lua script, so it is atomic and costs one round trip:
a move script checks the token hash, bounds, game over, turn and occupancy, then sets the cell,
bumps the row / column / diagonal counters with HINCRBY, appends to the move list, decides win or
draw, bumps the version and refreshes the TTLs — or changes nothing and returns the rule error,
which is raised here as the same exception the in-memory store raises. Python never reads a game,
changes it and writes it back.

Keys of one game share the hash tag ``{game:ID}`` so they live in one Redis Cluster slot (a
script may only touch keys of one slot):

* ``{game:ID}:meta``  hash: n, h1, h2 (token hashes), status, winner, version
* ``{game:ID}:cells`` hash: "row:col" -> player
* ``{game:ID}:lines`` hash: "r<row>", "c<col>", "d", "a" -> counter (+1 player 1, -1 player 2)
* ``{game:ID}:moves`` list: "row:col" per accepted move, in order (player follows from order)
* ``{game:ID}:receipts`` hash: "player:Idempotency-Key" -> the request's fingerprint and its
  first answer (the move's number, or the refusal), so a retry gets that answer again

All expire after ``idle_seconds`` without a move (TTL refreshed by each move). Capacity is
counted in one sorted set, ``{adjudicator}:games`` (game id -> time of last touch), in its own
slot: game creation reserves a place there first, and each move refreshes its score in the same
round trip (pipelined, not in the script: another slot).

Scripts are loaded once and called by SHA; after a Redis restart (``NOSCRIPT``) they are loaded
again. The client does not retry on its own: a move whose reply was lost must not be applied
twice, so any connection failure or timeout is answered 503 ``store_unavailable`` at once.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from typing import Any, TypeVar

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError, RedisError

from app.rules.lines import Player
from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    CellOccupied,
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NotYourTurn,
    OutOfBounds,
    PreconditionFailed,
    StoreUnavailable,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.game import GameState, Move, MoveResult, Status, Winner, result_at
from app.sessions.store import MAX_REMEMBERED_REFUSALS, CreatedGame, fingerprint

logger = logging.getLogger("app.sessions.redis")

LIVE_GAMES = "{adjudicator}:games"
T = TypeVar("T")

# KEYS: meta, cells, lines, moves, receipts. ARGV: token hash, row, col, claimed player or "",
# ttl ms, expected version or "", idempotency key or "", fingerprint, refusals to remember,
# the game's channel (its listeners, on any process, learn of the move).
MOVE = """
local meta = redis.call('HMGET', KEYS[1], 'n', 'h1', 'h2', 'status', 'winner', 'version')
if not meta[1] then return {'game_not_found'} end
local n = tonumber(meta[1])
local player
if ARGV[1] == meta[2] then player = 1 elseif ARGV[1] == meta[3] then player = 2
else return {'unauthorized'} end
local status, winner, version = meta[4], tonumber(meta[5]), tonumber(meta[6])

-- A request already answered under this Idempotency-Key gets its first answer again.
local receipt = nil
if ARGV[7] ~= '' then
  receipt = player .. ':' .. ARGV[7]
  local seen = redis.call('HGET', KEYS[5], receipt)
  if seen then
    local body, rest = string.match(seen, '^([^|]*)|(.*)$')
    if body ~= ARGV[8] then return {'idempotency_key_reused'} end
    local parts = {}
    for piece in string.gmatch(rest, '[^|]+') do parts[#parts + 1] = piece end
    if parts[1] == 'ok' then
      local seq = tonumber(parts[2])
      return {'replay', n, seq, redis.call('LINDEX', KEYS[4], seq - 1), status, winner, version}
    end
    return parts
  end
end
local function refuse(answer)
  if receipt and redis.call('HLEN', KEYS[5]) < tonumber(ARGV[9]) then
    redis.call('HSET', KEYS[5], receipt, ARGV[8] .. '|' .. table.concat(answer, '|'))
    redis.call('PEXPIRE', KEYS[5], ARGV[5])
  end
  return answer
end

if ARGV[4] ~= '' and tonumber(ARGV[4]) ~= player then return refuse({'wrong_player', player}) end
if ARGV[6] ~= '' and tonumber(ARGV[6]) ~= version then
  return refuse({'precondition_failed', version})
end
local row, col = tonumber(ARGV[2]), tonumber(ARGV[3])
if row < 0 or row >= n or col < 0 or col >= n then return refuse({'out_of_bounds', n}) end
if status ~= 'in_progress' then return refuse({'game_over', status, winner}) end
local next_player = (version % 2 == 0) and 1 or 2
if player ~= next_player then return refuse({'not_your_turn', next_player}) end
local cell = ARGV[2] .. ':' .. ARGV[3]
if redis.call('HSETNX', KEYS[2], cell, player) == 0 then return refuse({'cell_occupied'}) end

local delta = (player == 1) and 1 or -1
local full = delta * n
local won = redis.call('HINCRBY', KEYS[3], 'r' .. ARGV[2], delta) == full
won = (redis.call('HINCRBY', KEYS[3], 'c' .. ARGV[3], delta) == full) or won
if row == col then won = (redis.call('HINCRBY', KEYS[3], 'd', delta) == full) or won end
if row + col == n - 1 then
  won = (redis.call('HINCRBY', KEYS[3], 'a', delta) == full) or won
end
redis.call('RPUSH', KEYS[4], cell)
version = version + 1
if won then status, winner = 'won', player
elseif version == n * n then status = 'draw' end
redis.call('HSET', KEYS[1], 'version', version, 'status', status, 'winner', winner)
if receipt then redis.call('HSET', KEYS[5], receipt, ARGV[8] .. '|ok|' .. version) end
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
redis.call('PUBLISH', ARGV[10], version)
return {'ok', n, player, version, status, winner}
"""

# KEYS: meta. ARGV: n, h1, h2, ttl ms.
CREATE = """
redis.call('HSET', KEYS[1], 'n', ARGV[1], 'h1', ARGV[2], 'h2', ARGV[3],
           'status', 'in_progress', 'winner', 0, 'version', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

# KEYS: live-games set. ARGV: now ms, idle ms, max games, game id.
RESERVE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1])}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
return {1, 0}
"""

# KEYS: meta, moves. -> n, status, winner, version, last "row:col" (or false)
STATE = """
local meta = redis.call('HMGET', KEYS[1], 'n', 'status', 'winner', 'version')
if not meta[1] then return false end
return {meta[1], meta[2], meta[3], meta[4], redis.call('LINDEX', KEYS[2], -1)}
"""

# KEYS: meta, moves. ARGV: first index, last index. -> version, moves
MOVES = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return false end
return {version, redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
"""

# KEYS: meta, cells. -> n, flat list of cell, player
CELLS = """
local n = redis.call('HGET', KEYS[1], 'n')
if not n then return false end
return {n, redis.call('HGETALL', KEYS[2])}
"""

# KEYS: all of a game's keys, meta first. ARGV: token hash, the game's channel.
DELETE = """
local hashes = redis.call('HMGET', KEYS[1], 'h1', 'h2')
if not hashes[1] then return 'game_not_found' end
if ARGV[1] ~= hashes[1] and ARGV[1] ~= hashes[2] then return 'unauthorized' end
redis.call('DEL', unpack(KEYS))
redis.call('PUBLISH', ARGV[2], 'deleted')
return 'ok'
"""

CHANNEL_PREFIX = "adjudicator:moves:"


def game_keys(game_id: str) -> list[str]:
    tag = f"{{game:{game_id}}}"
    return [f"{tag}:meta", f"{tag}:cells", f"{tag}:lines", f"{tag}:moves", f"{tag}:receipts"]


def _move(seq: int, cell: str) -> Move:
    row, _, col = cell.partition(":")
    return Move(seq=seq, row=int(row), col=int(col), player=1 if seq % 2 else 2)


def _next_player(status: str, version: int) -> Player | None:
    if status != "in_progress":
        return None
    return 1 if version % 2 == 0 else 2


def _status(value: str) -> Status:
    if value not in ("in_progress", "won", "draw"):
        raise StoreUnavailable(f"the store holds an unknown game status {value!r}")
    return value  # type: ignore[return-value]


def _winner(value: Any) -> Winner:
    winner = int(value)
    if winner not in (0, 1, 2):
        raise StoreUnavailable(f"the store holds an unknown winner {winner!r}")
    return winner  # type: ignore[return-value]


class RedisGameStore:
    """Games in Redis, shared by every service process that points at the same server."""

    def __init__(
        self,
        url: str,
        *,
        max_games: int,
        idle_seconds: float,
        timeout_seconds: float,
        max_connections: int = 50,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.max_games = max_games
        self.idle_ms = max(1, int(idle_seconds * 1000))
        self.clock = clock
        # A request waits (up to the timeout) for a free connection rather than failing when
        # all are busy; connections are reused, so a few dozen carry any one process.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=timeout_seconds,
            decode_responses=True,
            socket_timeout=timeout_seconds,
            socket_connect_timeout=timeout_seconds,
            retry=Retry(NoBackoff(), 0),  # never re-send: a lost reply must not move twice
        )
        self.client: redis.Redis = redis.Redis.from_pool(pool)
        self._sha: dict[str, str] = {}
        self._watchers: dict[str, asyncio.Event] = {}  # game id -> set at its next change
        self._listener: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with suppress(asyncio.CancelledError):
                await self._listener
        await self.client.aclose()

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.create_task(self._listen())
        if (await self.state(game_id)).version > version:
            return
        event = self._watchers.setdefault(game_id, asyncio.Event())
        with suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    async def _listen(self) -> None:
        """One subscription per process, to every game's channel; wakes local waiters.

        If it is lost (Redis restarts), it comes back a second later; meanwhile waiters fall
        back to their timeouts, so a push stream is late, never wrong.
        """
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
                    if message and message.get("type") == "pmessage":
                        event = self._watchers.pop(message["channel"][len(CHANNEL_PREFIX) :], None)
                        if event is not None:
                            event.set()
            except (RedisError, OSError) as error:
                logger.warning("move notifications interrupted: %s", error)
                await asyncio.sleep(1)
            finally:
                with suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py: untyped

    async def _guard(self, work: Awaitable[T]) -> T:
        try:
            return await work
        except RedisError as error:
            logger.warning("game store unavailable: %s", error)
            raise StoreUnavailable() from error

    async def _sha_of(self, script: str) -> str:
        sha = self._sha.get(script)
        if sha is None:
            sha = await self.client.script_load(script)
            self._sha[script] = sha
        return sha

    async def _run(self, script: str, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """EVALSHA, loading the script first if Redis does not know it (first use, restart)."""
        for _ in range(2):
            try:
                return await self.client.evalsha(
                    await self._sha_of(script), len(keys), *keys, *args
                )
            except NoScriptError:
                self._sha.pop(script, None)
        raise StoreUnavailable("the store keeps forgetting its scripts")

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def create(self, n: int) -> CreatedGame:
        return await self._guard(self._create(n))

    async def _create(self, n: int) -> CreatedGame:
        game_id = tokens.new_game_id()
        placed, retry_ms = await self._run(
            RESERVE, [LIVE_GAMES], [self._now_ms(), self.idle_ms, self.max_games, game_id]
        )
        if not placed:
            raise CapacityExhausted(self.max_games, max(1, math.ceil(int(retry_ms) / 1000)))
        secrets = (tokens.new_token(), tokens.new_token())
        hashes = [tokens.token_hash(secret) for secret in secrets]
        await self._run(CREATE, game_keys(game_id)[:1], [n, *hashes, self.idle_ms])
        state = GameState(game_id, n, "in_progress", 0, 1, 0, 0, None)
        return CreatedGame(state, secrets)

    async def state(self, game_id: str) -> GameState:
        return await self._guard(self._state(game_id))

    async def _state(self, game_id: str) -> GameState:
        keys = game_keys(game_id)
        found = await self._run(STATE, [keys[0], keys[3]], [])
        if not found:
            raise GameNotFound(game_id)
        n, status, winner, version, last = found
        version = int(version)
        status = _status(status)
        return GameState(
            id=game_id,
            n=int(n),
            status=status,
            winner=_winner(winner),
            next_player=_next_player(status, version),
            version=version,
            move_count=version,
            last_move=_move(version, last) if last else None,
        )

    async def play(
        self,
        game_id: str,
        token: str,
        row: int,
        col: int,
        player: Player | None,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveResult:
        keys = game_keys(game_id)
        args: list[str | int] = [
            tokens.token_hash(token), row, col, "" if player is None else player, self.idle_ms,
            "" if expected_version is None else expected_version, idempotency_key or "",
            fingerprint(row, col, player), MAX_REMEMBERED_REFUSALS, CHANNEL_PREFIX + game_id,
        ]  # fmt: skip
        return await self._guard(self._play(game_id, keys, args, row, col, player))

    async def _play(
        self,
        game_id: str,
        keys: list[str],
        args: list[str | int],
        row: int,
        col: int,
        player: Player | None,
    ) -> MoveResult:
        for _ in range(2):
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.evalsha(await self._sha_of(MOVE), len(keys), *keys, *args)
                pipe.zadd(LIVE_GAMES, {game_id: self._now_ms()}, xx=True)  # refresh, if live
                answer, _ = await pipe.execute(raise_on_error=False)
            if isinstance(answer, NoScriptError):
                self._sha.pop(MOVE, None)
                continue
            if isinstance(answer, Exception):
                raise answer
            return self._move_result(game_id, row, col, player, answer)
        raise StoreUnavailable("the store keeps forgetting its scripts")

    def _move_result(
        self, game_id: str, row: int, col: int, claimed: Player | None, answer: list[Any]
    ) -> MoveResult:
        outcome = answer[0]
        if outcome == "replay":
            _, n, seq, cell, status, winner, version = answer
            now = GameState(
                game_id, int(n), _status(status), _winner(winner), None, int(version),
                int(version), None,
            )  # fmt: skip
            return result_at(game_id, int(n), _move(int(seq), cell), now)
        if outcome == "idempotency_key_reused":
            raise IdempotencyKeyReused()
        if outcome == "precondition_failed":
            raise PreconditionFailed(int(answer[1]))
        if outcome == "ok":
            _, n, player, version, status, winner = answer
            version, status = int(version), _status(status)
            move = Move(seq=version, row=row, col=col, player=1 if int(player) == 1 else 2)
            state = GameState(
                game_id, int(n), status, _winner(winner), _next_player(status, version),
                version, version, move,
            )  # fmt: skip
            return MoveResult(winner=state.winner, move=move, state=state)
        if outcome == "game_not_found":
            raise GameNotFound(game_id)
        if outcome == "unauthorized":
            raise Unauthorized("the token is not valid for this game")
        if outcome == "wrong_player":
            raise WrongPlayer(int(answer[1]), claimed or 0)
        if outcome == "out_of_bounds":
            raise OutOfBounds(row, col, int(answer[1]))
        if outcome == "game_over":
            raise GameOver(answer[1], int(answer[2]))
        if outcome == "not_your_turn":
            next_player = int(answer[1])
            raise NotYourTurn(3 - next_player, next_player)
        if outcome == "cell_occupied":
            raise CellOccupied(row, col)
        raise StoreUnavailable(f"unexpected answer from the store: {answer!r}")

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        return await self._guard(self._moves(game_id, since, limit))

    async def _moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        keys = game_keys(game_id)
        first = max(since, 0)
        found = await self._run(MOVES, [keys[0], keys[3]], [first, first + limit - 1])
        if not found:
            raise GameNotFound(game_id)
        version, cells = found
        return [_move(first + 1 + i, cell) for i, cell in enumerate(cells)], int(version)

    async def move(self, game_id: str, seq: int) -> Move:
        if seq < 1:
            await self.state(game_id)  # 404 for an unknown game first
            raise MoveNotFound(game_id, seq)
        moves, _ = await self.moves(game_id, seq - 1, 1)
        if not moves:
            raise MoveNotFound(game_id, seq)
        return moves[0]

    async def rows(self, game_id: str) -> list[str]:
        return await self._guard(self._rows(game_id))

    async def _rows(self, game_id: str) -> list[str]:
        keys = game_keys(game_id)
        found = await self._run(CELLS, [keys[0], keys[1]], [])
        if not found:
            raise GameNotFound(game_id)
        n, flat = int(found[0]), found[1]
        grid = [["."] * n for _ in range(n)]
        for cell, player in zip(flat[::2], flat[1::2], strict=True):
            row, _, col = cell.partition(":")
            grid[int(row)][int(col)] = "X" if player == "1" else "O"
        return ["".join(line) for line in grid]

    async def delete(self, game_id: str, token: str) -> None:
        await self._guard(self._delete(game_id, token))

    async def _delete(self, game_id: str, token: str) -> None:
        outcome = await self._run(
            DELETE, game_keys(game_id), [tokens.token_hash(token), CHANNEL_PREFIX + game_id]
        )
        if outcome == "game_not_found":
            raise GameNotFound(game_id)
        if outcome == "unauthorized":
            raise Unauthorized("the token is not valid for this game")
        await self.client.zrem(LIVE_GAMES, game_id)

    async def live_games(self) -> int:
        since = self._now_ms() - self.idle_ms
        return int(await self._guard(self.client.zcount(LIVE_GAMES, since, "+inf")))

    async def ready(self) -> bool:
        try:
            return bool(await self.client.ping())
        except RedisError:
            return False
