"""Early draw's bookkeeping (``app/rules/dead.py``) a move and a takeback, by k, on one board.

    python -m bench.dead [--moves 2000] [--rounds 5]

Plays ``--moves`` seeded moves near the centre of a 10⁶ × 10⁶ board, asking after each whether
the position is dead as a game does, then takes them all back, for k = 5, 50, 500,000 and
n (k in a row) and for the exact five of gomoku's ``standard``, in alternating rounds; reports
the median time of a move (with its question) and of a takeback, and their ratio to k = 5's.
Goal (issue "Hold under hostile traffic, part 3"): flat in k — about 1.0 × at k = 500,000.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from app.rules.dead import Liveness

N = 1_000_000
CASES = {"k = 5": (5, False), "k = 50": (50, False), "k = 500,000": (500_000, False),
         "k = n": (N, False), "standard's exact 5": (5, True)}  # fmt: skip


def one_round(k: int, exact: bool, cells: list[tuple[int, int]]) -> tuple[float, float]:
    """Seconds a move (and its question) and a takeback took, on average."""
    board: dict[tuple[int, int], int] = {}

    def owner(r: int, c: int) -> int:
        return board.get((r, c), 0)

    liveness = Liveness(N, k, exact)
    started = time.perf_counter()
    for index, (row, col) in enumerate(cells):
        player = 1 if index % 2 == 0 else 2
        board[row, col] = player
        liveness.played(owner, row, col, player)
        liveness.dead(N * N - len(board), 2 if player == 1 else 1)
    moved = time.perf_counter()
    for index in range(len(cells) - 1, -1, -1):
        row, col = cells[index]
        liveness.played(owner, row, col, 1 if index % 2 == 0 else 2, by=-1)
        del board[row, col]
    done = time.perf_counter()
    return (moved - started) / len(cells), (done - moved) / len(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(46)
    cells = list({(N // 2 + rng.randrange(-60, 60), N // 2 + rng.randrange(-60, 60)): None
                  for _ in range(args.moves * 2)})[: args.moves]  # fmt: skip
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in CASES}
    for _ in range(args.rounds):
        for name, (k, exact) in CASES.items():
            times[name].append(one_round(k, exact, cells))
    print(f"# bench.dead: {len(cells)} moves on {N:,} × {N:,}, {args.rounds} rounds (median)")
    print("| case | move µs | × k = 5 | takeback µs | × k = 5 |")
    print("|---|---|---|---|---|")
    base = [statistics.median(t[i] for t in times["k = 5"]) for i in (0, 1)]
    for name, measured in times.items():
        move, back = (statistics.median(t[i] for t in measured) for i in (0, 1))
        print(f"| {name} | {move * 1e6:.1f} | {move / base[0]:.2f} | {back * 1e6:.1f} | "
              f"{back / base[1]:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
