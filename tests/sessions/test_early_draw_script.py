"""The Redis fast path's early draw (``line_move.lua``, ``cells.lua``) keeps the open windows
of each player exactly as the slow reference of ``tests/rules/test_dead.py`` counts them on the
whole board — their number, and by misses where it keeps them — at every move and takeback of
random games: tic-tac-toe with k = n (its lines) and k < n (the stones sorted, the misses counted
near the board's end), gomoku freestyle and standard (exact five: a window the player's own stone
ends is closed) — not only the answers it gives, which random games rarely make depend on every
window. And on a board of 10⁶ × 10⁶ its move and takeback run as many Redis commands at
k = 500,000 and k = n as at k = 5."""

from __future__ import annotations

import random

import pytest
import redis

from app.kinds import REGISTRY
from app.rules.dead import windows
from app.sessions.exchange import ActionRequest, MoveRequest
from app.sessions.kind import Placement
from app.sessions.store import NewGame
from app.stores.redis.keys import game_keys
from app.stores.redis.store import RedisGameStore
from tests.rules.test_dead import reference_open, wins

pytestmark = pytest.mark.anyio

GAMES = [
    ("tictactoe", {"n": 4, "k": 4}, 4, 4, False),
    ("tictactoe", {"n": 6, "k": 4}, 6, 4, False),
    ("gomoku", {"rule": "freestyle", "size": 8}, 8, 5, False),
    ("gomoku", {"rule": "standard", "size": 8}, 8, 5, True),
    ("gomoku", {"rule": "standard", "size": 9}, 9, 5, True),
]


@pytest.fixture
def redis_store_url(redis_url: str) -> str:
    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


def kept_open(raw: redis.Redis, game_id: str, n: int, k: int, exact: bool) -> dict[str, object]:
    """The script's open windows: their number for each player (its change since the start,
    and every window), and by misses where it keeps them (every window missing k at the start)."""
    lines = raw.hgetall(game_keys(game_id).lines)
    kept: dict[str, object] = {
        "open": [windows(n, k) + int(lines.get(f"o{player}", 0)) for player in (1, 2)]
    }
    if k == n or exact or "wb" in lines:
        by_misses = []
        for player in (1, 2):
            counts = {m: int(lines.get(f"w{player}:{m}", 0)) for m in range(k + 1)}
            counts[k] += windows(n, k)
            by_misses.append({m: count for m, count in counts.items() if count})
        kept["by_misses"] = by_misses
    return kept


def board_open(board: dict[tuple[int, int], int], n: int, k: int, exact: bool,
               kept: dict[str, object]) -> dict[str, object]:  # fmt: skip
    """The reference's count of what ``kept`` holds."""
    counts = reference_open(board, n, k, exact)
    found: dict[str, object] = {"open": [sum(counts[0]), sum(counts[1])]}
    if "by_misses" in kept:
        found["by_misses"] = [{m: c for m, c in enumerate(counts[p]) if c} for p in (0, 1)]
    return found


def next_cell(rng: random.Random, board: dict[tuple[int, int], int], n: int, k: int,
              exact: bool, player: int) -> tuple[int, int]:  # fmt: skip
    """A random empty cell; nine times in ten, one where ``player`` does not win, so that games
    go on near the board's end, where the misses count."""
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in board]
    if rng.random() < 0.9:
        quiet = [cell for cell in free if not wins({**board, cell: player}, n, k, exact, *cell,
                                                   player)]  # fmt: skip
        free = quiet or free
    return rng.choice(free)


@pytest.mark.parametrize(("kind", "params", "n", "k", "exact"), GAMES)
async def test_the_script_keeps_the_windows_the_board_has(
    redis_store_url: str, kind: str, params: dict[str, object], n: int, k: int, exact: bool
) -> None:
    """Random games, a takeback now and then (of the last move, or of the last two), to their
    end."""
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    rng = random.Random(f"{kind}{params}")
    counted = 0  # games whose misses were counted near the end, where they are not kept
    for _ in range(6):
        created = await store.create(NewGame(kind, {**params, "early_draw": True}))
        game_id = created.state.id
        assert raw.hget(game_keys(game_id).meta, "engine") == "lines"
        board: dict[tuple[int, int], int] = {}
        placed: list[tuple[int, int]] = []
        while len(board) < n * n:
            player = 1 if len(placed) % 2 == 0 else 2
            if len(placed) >= 2 and rng.random() < 0.2:  # a takeback offered, and accepted
                offerer = rng.choice((1, 2))
                for asker in (offerer, 3 - offerer):
                    await store.act(game_id, created.tokens[asker - 1],
                                    ActionRequest("takeback"))  # fmt: skip
                for _ in range(1 if offerer == 3 - player else 2):  # its move, and the reply
                    del board[placed.pop()]
            else:
                row, col = next_cell(rng, board, n, k, exact, player)
                result = await store.play(game_id, created.tokens[player - 1],
                                          MoveRequest(Placement(row, col)))  # fmt: skip
                board[row, col] = player
                placed.append((row, col))
                if result.state.status != "in_progress" or wins(
                    board, n, k, exact, row, col, player
                ):
                    break
            kept = kept_open(raw, game_id, n, k, exact)
            assert kept == board_open(board, n, k, exact, kept), board
        counted += k < n and not exact and "by_misses" in kept_open(raw, game_id, n, k, exact)
    if k < n and not exact:
        assert counted, "no game got near enough to the end to count the misses"
    await store.close()


BIG = 1_000_000
SCRIPT_COMMANDS = ("hget", "hset", "hincrby", "hexists", "hdel", "hsetnx", "zadd", "zrem",
                   "zrangebyscore", "zrevrangebyscore", "hgetall")  # fmt: skip


def commands_run(raw: redis.Redis) -> int:
    stats = raw.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in SCRIPT_COMMANDS)


async def test_a_move_and_a_takeback_run_as_many_commands_at_any_k(redis_store_url: str) -> None:
    """The same moves near the centre of a 10⁶ × 10⁶ board, and a takeback, at k = 5, 500,000
    and n: the script runs as many of the commands that read and change the board (and at most
    a few dozen a move), none of them counting windows by misses."""
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    middle = BIG // 2
    cells = [(middle, middle), (middle, middle + 3), (middle + 1, middle + 1),
             (middle - 2, middle + 5), (middle + 1, middle - 1)]  # fmt: skip
    runs: dict[int, list[int]] = {}
    for k in (5, 500_000, BIG):
        created = await store.create(NewGame("tictactoe", {"n": BIG, "k": k, "early_draw": True}))
        game_id, costs = created.state.id, []
        for index, (row, col) in enumerate(cells):
            before = commands_run(raw)
            result = await store.play(game_id, created.tokens[index % 2],
                                      MoveRequest(Placement(row, col)))  # fmt: skip
            assert result.state.status == "in_progress"
            costs.append(commands_run(raw) - before)
        await store.act(game_id, created.tokens[1], ActionRequest("takeback"))
        before = commands_run(raw)
        await store.act(game_id, created.tokens[0], ActionRequest("takeback"))
        costs.append(commands_run(raw) - before)
        keys = game_keys(game_id)
        if k < BIG:
            assert "wb" not in raw.hkeys(keys.lines)  # the misses were never counted
            assert 0 < raw.pttl(keys.stones) <= 60_000  # and the stones expire with the game
        runs[k] = costs
    assert runs[5] == runs[500_000], runs
    assert max(runs[5] + runs[BIG]) < 100, runs
    await store.close()
