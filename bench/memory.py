"""What the embedded store holds, in bytes: a game, a move, a remembered refusal.

    python -m bench.memory [--games 2000]

Measured with ``tracemalloc`` on the memory store itself (no HTTP): the memory a number of games
takes, divided by their count, for each thing the store holds — an idle game of each kind; a
move of tic-tac-toe (n = 1,000,000, k = n and k = 5) and of Reversi; the same move sent with the
longest ``Idempotency-Key`` (255 characters, whose receipt the game keeps as long as it lives);
and a refusal remembered under such a key. These are the figures of the sizing table in
``docs/operations.md`` ("Why the defaults fit in 1 GiB"), which multiplies them by the default
bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tracemalloc
from collections.abc import Awaitable, Callable
from contextlib import suppress

from app.rules import reversi
from app.sessions.errors import NotYourTurn
from app.sessions.kind import Placement
from app.sessions.memory_store import MemoryGameStore
from app.sessions.session import MoveRequest
from app.sessions.store import CreatedGame

LONGEST_KEY = 255


async def measured(count: int, build: Callable[[MemoryGameStore], Awaitable[None]]) -> float:
    """Bytes a ``build`` takes, per unit of ``count``, in a fresh store."""
    store = MemoryGameStore(max_games=10**7, idle_seconds=3600, max_total_moves=10**9)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    await build(store)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


def key(i: int, j: int) -> str:
    """A distinct Idempotency-Key of the longest length."""
    return f"{i:08d}-{j:08d}-".ljust(LONGEST_KEY, "k")


async def games(
    store: MemoryGameStore, kind: str, params: dict[str, object], n: int
) -> list[CreatedGame]:
    return [await store.create(kind, params) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    count, moves = args.games, 20

    kinds: dict[str, tuple[str, dict[str, object]]] = {
        "tic-tac-toe n = 10⁶": ("tictactoe", {"n": 1_000_000, "k": 1_000_000}),
        "gomoku n = 10⁶, k = 5": ("tictactoe", {"n": 1_000_000, "k": 5}),
        "Reversi 8 × 8": ("reversi", {"height": 8, "width": 8}),
    }

    async def idle(kind: str, params: dict[str, object]) -> float:
        async def build(store: MemoryGameStore) -> None:
            await games(store, kind, params, count)

        return await measured(count, build)

    async def played(kind: str, params: dict[str, object], keyed: bool) -> float:
        async def build(store: MemoryGameStore) -> None:
            for i, created in enumerate(await games(store, kind, params, count)):
                game = created.state.id
                for j in range(moves):
                    state = await store.state(game)
                    if state.next_player is None:
                        break
                    player = state.next_player
                    rows = await store.rows(game) if kind == "reversi" else []
                    placement = next_placement(kind, rows, player, j)
                    request = MoveRequest(placement, idempotency_key=key(i, j) if keyed else None)
                    await store.play(game, created.tokens[player - 1], request)

        return await measured(count * moves, build) - await idle(kind, params) / moves

    async def refusals() -> float:
        kind, params = kinds["tic-tac-toe n = 10⁶"]

        async def build(store: MemoryGameStore) -> None:
            for i, created in enumerate(await games(store, kind, params, count)):
                for j in range(moves):
                    request = MoveRequest(Placement(0, j), idempotency_key=key(i, j))
                    # Player 2 first: not their turn, remembered under the key.
                    with suppress(NotYourTurn):
                        await store.play(created.state.id, created.tokens[1], request)

        return await measured(count * moves, build) - await idle(kind, params) / moves

    async def run() -> None:
        print(f"Memory store, tracemalloc, {count} games each, {moves} moves a game\n")
        print("| what | bytes each |")
        print("|---|---:|")
        for name, (kind, params) in kinds.items():
            print(f"| an idle game, {name} | {await idle(kind, params):,.0f} |")
        for name, (kind, params) in kinds.items():
            print(f"| a move, {name} | {await played(kind, params, False):,.0f} |")
            print(f"| a move with a {LONGEST_KEY}-character key, {name} | "
                  f"{await played(kind, params, True):,.0f} |")  # fmt: skip
        refusal = await refusals()
        print(f"| a refusal remembered under a {LONGEST_KEY}-character key | {refusal:,.0f} |")

    asyncio.run(run())


def next_placement(kind: str, rows: list[str], player: int, j: int) -> Placement:
    """A legal move: the first legal Reversi move; in tic-tac-toe, cells of columns 0 and 1
    three rows apart, which make no line."""
    if kind == "reversi":
        board = reversi.Board.from_rows(rows)
        move = reversi.legal_moves(board, "B" if player == 1 else "W")[0]
        return Placement(move.row, move.col)
    return Placement(j // 2 * 3, j % 2)  # no line completes in 20 moves


if __name__ == "__main__":
    main()
