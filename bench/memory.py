"""What a store holds, in bytes: a game, a move, a remembered refusal.

    python -m bench.memory [--games 2000] [--redis]

Measured on the stores themselves (no HTTP): the memory a number of games takes, divided by their
count, for each thing a store holds — an idle game of each kind; a move of tic-tac-toe
(n = 1,000,000, k = n and k = 5) and of Reversi; the same move sent with the longest
``Idempotency-Key`` (255 characters, whose receipt the game keeps as long as it lives); and a
refusal remembered under such a key. The memory store is measured with ``tracemalloc``; with
``--redis``, a ``redis-server`` started here (needs the binary) is measured too, by its own
``used_memory``. These are the figures of the sizing tables in ``docs/operations.md`` ("Why the
defaults fit in 1 GiB"), which multiply them by the default bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tracemalloc
from collections.abc import Awaitable, Callable
from contextlib import suppress

import redis.asyncio as redis

from app.kinds import REGISTRY
from app.rules import reversi
from app.sessions.errors import NotYourTurn
from app.sessions.exchange import MoveRequest
from app.sessions.kind import Placement
from app.sessions.store import CreatedGame, GameStore, NewGame
from app.stores.memory import MemoryGameStore
from app.stores.redis.store import RedisGameStore

LONGEST_KEY = 255
MOVES = 20  # a game

Build = Callable[[GameStore], Awaitable[None]]
Measure = Callable[[int, Build], Awaitable[float]]

KINDS: dict[str, tuple[str, dict[str, object]]] = {
    "tic-tac-toe n = 10⁶": ("tictactoe", {"n": 1_000_000, "k": 1_000_000}),
    "gomoku n = 10⁶, k = 5": ("tictactoe", {"n": 1_000_000, "k": 5}),
    "Reversi 8 × 8": ("reversi", {"height": 8, "width": 8}),
}


async def in_memory(count: int, build: Build) -> float:
    """Bytes a ``build`` takes in a fresh memory store, per unit of ``count`` (tracemalloc)."""
    store = MemoryGameStore(REGISTRY, max_games=10**7, idle_seconds=3600, max_total_moves=10**9)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    await build(store)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


def in_redis(url: str) -> Measure:
    """Bytes a ``build`` takes in an emptied Redis, per unit of ``count`` (``used_memory``)."""

    async def measure(count: int, build: Build) -> float:
        raw = redis.Redis.from_url(url)
        await raw.flushall()
        before = (await raw.info("memory"))["used_memory"]
        store = RedisGameStore(
            REGISTRY,
            url,
            max_games=10**7,
            idle_seconds=3600,
            timeout_seconds=5,
            max_total_moves=10**9,
        )
        await build(store)
        await store.close()
        after = (await raw.info("memory"))["used_memory"]
        await raw.aclose()
        return float(after - before) / count

    return measure


def key(i: int, j: int) -> str:
    """A distinct Idempotency-Key of the longest length."""
    return f"{i:08d}-{j:08d}-".ljust(LONGEST_KEY, "k")


async def games(
    store: GameStore, kind: str, params: dict[str, object], n: int
) -> list[CreatedGame]:
    return [await store.create(NewGame(kind, params)) for _ in range(n)]


def next_placement(kind: str, rows: list[str], player: int, j: int) -> Placement:
    """A legal move: the first legal Reversi move; in tic-tac-toe, cells of columns 0 and 1
    three rows apart, which make no line."""
    if kind == "reversi":
        board = reversi.Board.from_rows(rows)
        move = reversi.legal_moves(board, "B" if player == 1 else "W")[0]
        return Placement(move.row, move.col)
    return Placement(j // 2 * 3, j % 2)


async def table(name: str, measure: Measure, count: int) -> None:
    async def idle(kind: str, params: dict[str, object]) -> float:
        async def build(store: GameStore) -> None:
            await games(store, kind, params, count)

        return await measure(count, build)

    async def played(kind: str, params: dict[str, object], keyed: bool) -> float:
        async def build(store: GameStore) -> None:
            for i, created in enumerate(await games(store, kind, params, count)):
                game = created.state.id
                for j in range(MOVES):
                    state = await store.state(game)
                    if state.next_player is None:
                        break
                    player = state.next_player
                    rows = await store.rows(game) if kind == "reversi" else []
                    request = MoveRequest(
                        next_placement(kind, rows, player, j),
                        idempotency_key=key(i, j) if keyed else None,
                    )
                    await store.play(game, created.tokens[player - 1], request)

        return await measure(count * MOVES, build) - await idle(kind, params) / MOVES

    async def refusals() -> float:
        kind, params = KINDS["tic-tac-toe n = 10⁶"]

        async def build(store: GameStore) -> None:
            for i, created in enumerate(await games(store, kind, params, count)):
                for j in range(MOVES):
                    request = MoveRequest(Placement(0, j), idempotency_key=key(i, j))
                    # Player 2 first: not their turn, remembered under the key.
                    with suppress(NotYourTurn):
                        await store.play(created.state.id, created.tokens[1], request)

        return await measure(count * MOVES, build) - await idle(kind, params) / MOVES

    print(f"\n{name}, {count} games each, {MOVES} moves a game\n")
    print("| what | bytes each |")
    print("|---|---:|")
    for label, (kind, params) in KINDS.items():
        print(f"| an idle game, {label} | {await idle(kind, params):,.0f} |")
    for label, (kind, params) in KINDS.items():
        print(f"| a move, {label} | {await played(kind, params, False):,.0f} |")
        keyed = await played(kind, params, True)
        print(f"| a move with a {LONGEST_KEY}-character key, {label} | {keyed:,.0f} |")
    refusal = await refusals()
    print(f"| a refusal remembered under a {LONGEST_KEY}-character key | {refusal:,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--redis", action="store_true", help="measure a Redis started here too")
    args = parser.parse_args()
    asyncio.run(table("Memory store (tracemalloc)", in_memory, args.games))
    if args.redis:
        from bench.hostile import redis_url

        with redis_url() as url:
            asyncio.run(table("Redis store (used_memory)", in_redis(url), args.games))


if __name__ == "__main__":
    main()
