"""The Redis fast path's early draw (``tictactoe_move.lua``) keeps the open windows of each player
exactly as the slow reference of ``tests/rules/test_dead.py`` counts them on the whole board, at
every move of random games: tic-tac-toe with k = n (its lines) and k < n, gomoku freestyle and
standard (exact five: a window the player's own stone ends is closed) — not only the answers it
gives, which random games rarely make depend on every window."""

from __future__ import annotations

import random

import pytest
import redis

from app.rules.dead import windows
from app.sessions.kind import Placement
from app.sessions.redis_keys import game_keys
from app.sessions.redis_store import RedisGameStore
from app.sessions.session import MoveRequest
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


def kept_open(raw: redis.Redis, game_id: str, n: int, k: int) -> tuple[list[int], list[int]]:
    """The script's open windows: its changes since the start, and every window missing k."""
    lines = raw.hgetall(game_keys(game_id)[2])
    counts = ([0] * (k + 1), [0] * (k + 1))
    for player in (1, 2):
        for m in range(k + 1):
            counts[player - 1][m] = int(lines.get(f"w{player}:{m}", 0))
        counts[player - 1][k] += windows(n, k)
    return counts


@pytest.mark.parametrize(("kind", "params", "n", "k", "exact"), GAMES)
async def test_the_script_keeps_the_windows_the_board_has(
    redis_store_url: str, kind: str, params: dict[str, object], n: int, k: int, exact: bool
) -> None:
    store = RedisGameStore(redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2)
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    rng = random.Random(f"{kind}{params}")
    for _ in range(4):
        created = await store.create(kind, {**params, "early_draw": True})
        game_id = created.state.id
        assert raw.hget(game_keys(game_id)[0], "engine") == "tictactoe_move"
        board: dict[tuple[int, int], int] = {}
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        for index, (row, col) in enumerate(cells):
            player = 1 if index % 2 == 0 else 2
            result = await store.play(game_id, created.tokens[player - 1],
                                      MoveRequest(Placement(row, col)))  # fmt: skip
            board[row, col] = player
            if result.state.status != "in_progress" or wins(board, n, k, exact, row, col, player):
                break
            assert kept_open(raw, game_id, n, k) == reference_open(board, n, k, exact), board
    await store.close()
