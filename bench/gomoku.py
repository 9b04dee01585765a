"""Renju's forbidden points, the engine against the slow reference, side by side in one run.

    python -m bench.gomoku [--rounds 7] [--positions 40]

The corpus: ``--positions`` 15 × 15 renju positions of 60 stones, reached by seeded random play
near the centre (so lines and forbidden shapes form), each stone one the rules allow. Each round
asks the engine (``app.rules.gomoku.forbidden_points``: 11-cell windows, shapes cached) and the
reference (``tests/rules/gomoku_reference.py``: the RIF definitions on copies of the board) for
every forbidden point of every position, the order alternating between rounds. Reported: the
median time of one position for each (over rounds, each round's mean), and the median of the
per-round ratios (reference ÷ engine). Then one Black check (``check_move``, renju) against one
freestyle check at the same points, in µs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from app.rules import gomoku
from tests.rules import gomoku_reference

SIZE = gomoku.RENJU_SIZE


def positions(count: int, stones: int, seed: int) -> list[gomoku.GomokuBoard]:
    rng = random.Random(seed)
    found: list[gomoku.GomokuBoard] = []
    while len(found) < count:
        board = gomoku.GomokuBoard(SIZE)
        player_color: gomoku.Color = "B"
        tries = 0
        while len(board.cells) < stones and tries < 10_000:
            tries += 1
            row, col = rng.randrange(2, 13), rng.randrange(2, 13)
            if board.at(row, col) is not None:
                continue
            check = gomoku.check_move(board, SIZE, row, col, player_color, "renju")
            if not check.legal or check.wins:
                continue
            board.cells[row, col] = player_color
            player_color = "W" if player_color == "B" else "B"
        if len(board.cells) == stones:
            found.append(board)
    return found


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    corpus = positions(args.positions, 60, seed=17)
    references: list[dict[tuple[int, int], str]] = [dict(board.cells) for board in corpus]
    for board, stones in zip(corpus, references, strict=True):  # both find the same points
        engine = gomoku.forbidden_points(board, SIZE)
        assert engine == [tuple(p) for p in gomoku_reference.renju_forbidden_points(stones)]

    def engine_round() -> None:
        for board in corpus:
            gomoku.forbidden_points(board, SIZE)

    def reference_round() -> None:
        for stones in references:
            gomoku_reference.renju_forbidden_points(stones)

    seconds: dict[str, list[float]] = {"engine": [], "reference": []}
    for index in range(args.rounds):
        order = [("engine", engine_round), ("reference", reference_round)]
        for name, run in order if index % 2 == 0 else reversed(order):
            seconds[name].append(timed(run) / len(corpus))
    ratio = statistics.median(r / e for r, e in zip(seconds["reference"], seconds["engine"],
                                                    strict=True))  # fmt: skip
    points = sum(len(gomoku.forbidden_points(board, SIZE)) for board in corpus)
    print(f"{len(corpus)} renju positions of 60 stones ({points} forbidden points in all), "
          f"{args.rounds} rounds")  # fmt: skip
    print("| forbidden points of one position | median µs |")
    print("|---|---:|")
    for name, spent in seconds.items():
        print(f"| {name} | {statistics.median(spent) * 1e6:,.0f} |")
    print(f"reference ÷ engine: {ratio:.1f} × (median of per-round ratios)")

    cells = [
        (board, row, col)
        for board in corpus
        for row in range(5, 10)
        for col in range(5, 10)
        if board.at(row, col) is None
    ]
    rules: list[tuple[gomoku.Rule, str]] = [("renju", "renju, Black"), ("freestyle", "freestyle")]
    checks: dict[str, list[float]] = {name: [] for _, name in rules}
    for index in range(args.rounds):
        for rule, name in rules if index % 2 == 0 else reversed(rules):
            started = time.perf_counter()
            for board, row, col in cells:
                gomoku.check_move(board, SIZE, row, col, "B", rule)
            checks[name].append((time.perf_counter() - started) / len(cells))
    print(f"\none check of an empty point near the centre ({len(cells)} points):")
    for name, spent in checks.items():
        print(f"  {name:13} {statistics.median(spent) * 1e6:7.1f} µs")


if __name__ == "__main__":
    main()
