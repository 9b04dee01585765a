"""Rules engines against plain references, side by side in one run.

    python -m bench.engine [--rounds 7]

Each benchmark runs the engine and its reference in alternating rounds over the same seeded
corpus and reports the median time per call of each and their ratio (reference / engine), so a
noisy, shared machine affects both alike. Both sides start from the posted rows (strings), as
the HTTP edge does.

* Reversi, all legal moves of the side to move, on positions from seeded random games (8 × 8):
  the two-lane bitboard flood vs the classic walk of the 8 directions from each of the 64 cells
  (stopping at the first good line); and with each move's flip count.
* Reversi, apply-move: the engine vs placing and flipping by walks, then walking every cell
  to find who moves next (the classic way to decide a pass).
* Reversi, one check-move: the engine (rows kept, walk from the cell, sorted flips) vs the bare
  direction walk from that one cell.
* Tic-tac-toe, all 3^9 boards: the closed-form check vs a backtracking search that replays
  games onto the target's cells.
* Tic-tac-toe, one 100 × 100 board with k = 5 (absolute time).
* Tic-tac-toe, the costliest 100 × 100 boards known (rows alternating all-X / all-O, random full
  boards with short k, a winner with a run on every other row): the check, which stops as soon as
  its answer is known, vs the same closed form reading every run of both marks before deciding
  (the check before it stopped early), worst and median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from app.rules import reversi, tictactoe

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


# --- References ----------------------------------------------------------------------------------


def walk_flips(rows: Sequence[str], r: int, c: int, color: str) -> int:
    """Stones a move flips, by walking each direction cell by cell (0 if illegal)."""
    if rows[r][c] != ".":
        return 0
    other = "W" if color == "B" else "B"
    n_rows, n_cols = len(rows), len(rows[0])
    total = 0
    for dr, dc in DIRECTIONS:
        i, j, run = r + dr, c + dc, 0
        while 0 <= i < n_rows and 0 <= j < n_cols and rows[i][j] == other:
            i, j, run = i + dr, j + dc, run + 1
        if run and 0 <= i < n_rows and 0 <= j < n_cols and rows[i][j] == color:
            total += run
    return total


def walk_flip_cells(rows: Sequence[str], r: int, c: int, color: str) -> list[tuple[int, int]]:
    """What a check-move answers: the flipped cells, sorted (empty if illegal)."""
    if rows[r][c] != ".":
        return []
    other = "W" if color == "B" else "B"
    n_rows, n_cols = len(rows), len(rows[0])
    flips: list[tuple[int, int]] = []
    for dr, dc in DIRECTIONS:
        i, j, line = r + dr, c + dc, []
        while 0 <= i < n_rows and 0 <= j < n_cols and rows[i][j] == other:
            line.append((i, j))
            i, j = i + dr, j + dc
        if line and 0 <= i < n_rows and 0 <= j < n_cols and rows[i][j] == color:
            flips.extend(line)
    flips.sort()
    return flips


def walk_apply(rows: Sequence[str], r: int, c: int, color: str) -> tuple[list[str], str | None]:
    """Apply by walking: place, flip, then find who moves next by walking every cell."""
    cells = [list(line) for line in rows]
    for i, j in [(r, c), *walk_flip_cells(rows, r, c, color)]:
        cells[i][j] = color
    after = ["".join(line) for line in cells]
    other = "W" if color == "B" else "B"
    if walk_legal_moves(after, other):
        return after, other
    if walk_legal_moves(after, color):
        return after, color
    return after, None


def walk_is_legal(rows: Sequence[str], r: int, c: int, color: str) -> bool:
    """The classic check: an empty cell with at least one good line (stops at the first)."""
    if rows[r][c] != ".":
        return False
    other = "W" if color == "B" else "B"
    n_rows, n_cols = len(rows), len(rows[0])
    for dr, dc in DIRECTIONS:
        i, j, run = r + dr, c + dc, 0
        while 0 <= i < n_rows and 0 <= j < n_cols and rows[i][j] == other:
            i, j, run = i + dr, j + dc, run + 1
        if run and 0 <= i < n_rows and 0 <= j < n_cols and rows[i][j] == color:
            return True
    return False


def walk_legal_moves(rows: Sequence[str], color: str) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(len(rows))
        for c in range(len(rows[0]))
        if walk_is_legal(rows, r, c, color)
    ]


def backtracking_reachable(rows: Sequence[str]) -> bool:
    """Classic search: replay X and O onto the target's own cells, stopping at any win."""
    n = len(rows)
    target = "".join(rows)
    xs = [i for i, ch in enumerate(target) if ch == "X"]
    os_ = [i for i, ch in enumerate(target) if ch == "O"]
    if len(xs) not in (len(os_), len(os_) + 1):
        return False
    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    cells = ["."] * (n * n)

    def won(mark: str) -> bool:
        return any(all(cells[i] == mark for i in line) for line in lines)

    def search(placed_x: int, placed_o: int) -> bool:
        if placed_x == len(xs) and placed_o == len(os_):
            return True
        if won("X") or won("O"):
            return False
        mark, pool = ("X", xs) if placed_x == placed_o else ("O", os_)
        for i in pool:
            if cells[i] == ".":
                cells[i] = mark
                ok = search(placed_x + (mark == "X"), placed_o + (mark == "O"))
                cells[i] = "."
                if ok:
                    return True
        return False

    return search(0, 0)


# --- Corpora -------------------------------------------------------------------------------------


def reversi_positions(count: int, seed: int = 1) -> list[tuple[list[str], reversi.Color]]:
    rng = random.Random(seed)
    positions: list[tuple[list[str], reversi.Color]] = []
    while len(positions) < count:
        board, color = reversi.Board.from_rows(reversi.OPENING), reversi.BLACK
        while len(positions) < count:
            positions.append((board.to_rows(), color))
            moves = reversi.legal_moves(board, color)
            if not moves:
                break
            move = rng.choice(moves)
            outcome = reversi.apply_move(board, move.row, move.col, color)
            if outcome.next is None:
                break
            board, color = outcome.board, outcome.next
    return positions


def all_3x3_boards() -> list[list[str]]:
    boards = []
    for code in range(3**9):
        cells = []
        for _ in range(9):
            code, digit = divmod(code, 3)
            cells.append(".XO"[digit])
        boards.append(["".join(cells[0:3]), "".join(cells[3:6]), "".join(cells[6:9])])
    return boards


def big_board(n: int = 100, seed: int = 5) -> list[str]:
    """A valid-count 100 × 100 position from random play, so the full check runs."""
    rng = random.Random(seed)
    cells = [["."] * n for _ in range(n)]
    free = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(free)
    for i, (r, c) in enumerate(free[: n * n // 3]):
        cells[r][c] = "XO"[i % 2]
    return ["".join(row) for row in cells]


def every_run_check(rows: Sequence[str], k: int) -> str | None:
    """The closed form without its early exits: every run of both marks is read and the cores
    intersected before the verdict (the baseline of the costliest boards)."""
    n = len(rows)
    lines = tictactoe._lines(rows)
    text = "".join(rows)
    x, o = text.count("X"), text.count("O")
    if x not in (o, o + 1):
        return "bad_counts"
    cores: dict[str, set[tuple[int, int]] | None] = {}
    for mark in "XO":
        common: set[tuple[int, int]] | None = None
        for direction, line_text in enumerate(lines):
            for match in tictactoe._run_pattern(mark, k).finditer(line_text):
                start, end = match.span()
                line, first = divmod(start, n + 1)
                core = {
                    tictactoe._cell(direction, line, pos, n)
                    for pos in range(first + end - start - k, first + k)
                }
                common = core if common is None else common & core
        cores[mark] = common
    if cores["X"] is not None and cores["O"] is not None:
        return "both_won"
    for mark, wanted in (("X", x == o + 1), ("O", x == o)):
        core = cores[mark]
        if core is not None:
            return None if wanted and core else "won_badly"
    return None


def costliest_boards(n: int = 100) -> list[tuple[str, list[str], int]]:
    """Boards that make a closed-form check read the most runs."""
    boards = []
    alternating = [("X" if r % 2 == 0 else "O") * n for r in range(n)]
    for k in (1, 2, 5, n):
        boards.append((f"alternating rows, k = {k}", alternating, k))
    rng = random.Random(11)
    for k in (1, 2, 3):
        cells = list("X" * (n * n // 2) + "O" * (n * n // 2))
        rng.shuffle(cells)
        full = ["".join(cells[r * n : (r + 1) * n]) for r in range(n)]
        boards.append((f"random full board, k = {k}", full, k))
    # X: a run of exactly k on every other row (their cores are disjoint); O: never three in a
    # row; counts fit, so the winner's runs are what the check reads.
    k, grid = 3, [["."] * n for _ in range(n)]
    o_cells = [(r, c) for r in range(1, n, 3) for c in range(1, n, 3)]
    for r, c in o_cells:
        grid[r][c] = "O"
    x_needed = len(o_cells) + 1
    for r in range(0, n, 2):
        for c in range(0, n - k + 1, k + 1):
            if x_needed and grid[r][c : c + k] == ["."] * k:
                grid[r][c : c + k] = ["X"] * k
                x_needed -= k
    rows = ["".join(line) for line in grid]
    text = "".join(rows)
    while text.count("X") > text.count("O") + 1:  # trim to x = o + 1
        r = max(r for r, row in enumerate(rows) if "X" in row)
        c = rows[r].rindex("X")
        rows[r] = rows[r][:c] + "." + rows[r][c + 1 :]
        text = "".join(rows)
    boards.append(("a winner with runs on many lines, k = 3", rows, k))
    return boards


# --- Harness -------------------------------------------------------------------------------------


def timed(fn: Callable[[], Any], calls: int) -> float:
    """Seconds per call of one pass of ``fn`` (which makes ``calls`` calls)."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) / calls


def side_by_side(
    name: str, engine: Callable[[], Any], reference: Callable[[], Any], calls: int, rounds: int
) -> None:
    engine_times, reference_times = [], []
    for _ in range(rounds):
        engine_times.append(timed(engine, calls))
        reference_times.append(timed(reference, calls))
    e, r = statistics.median(engine_times), statistics.median(reference_times)
    print(f"| {name} | {e * 1e6:,.1f} µs | {r * 1e6:,.1f} µs | {r / e:,.1f} × |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    positions = reversi_positions(500)
    # Sanity: the two sides agree before they are timed.
    for rows, color in positions:
        board = reversi.Board.from_rows(rows)
        expected = walk_legal_moves(rows, color)
        assert board.cells(reversi.legal_moves_mask(board, color)) == expected
    boards = all_3x3_boards()
    for rows in boards[::7]:
        assert tictactoe.check_position(rows).valid == backtracking_reachable(rows)

    def bitboard_moves() -> None:
        for rows, color in positions:
            board = reversi.Board.from_rows(rows)
            reversi.legal_moves_mask(board, color)

    def bitboard_moves_with_flips() -> None:
        for rows, color in positions:
            reversi.legal_moves(reversi.Board.from_rows(rows), color)

    def walk_moves() -> None:
        for rows, color in positions:
            walk_legal_moves(rows, color)

    def walk_moves_with_flips() -> None:
        for rows, color in positions:
            [(r, c, walk_flips(rows, r, c, color)) for r, c in walk_legal_moves(rows, color)]

    # One empty cell per position (a check on an occupied cell is trivial for anyone).
    rng = random.Random(3)
    probes = []
    for rows, color in positions:
        empty = [(r, c) for r in range(8) for c in range(8) if rows[r][c] == "."]
        if empty:
            probes.append((rows, color, *rng.choice(empty)))
    for rows, color, r, c in probes:
        check = reversi.check_move(reversi.Board.from_rows(rows), r, c, color)
        assert check.flips == walk_flip_cells(rows, r, c, color)

    def engine_check() -> None:
        for rows, color, r, c in probes:
            reversi.check_move(reversi.Board.from_rows(rows), r, c, color)

    def walk_check() -> None:
        for rows, color, r, c in probes:
            walk_flip_cells(rows, r, c, color)

    plays = []
    for rows, color in positions:
        moves = walk_legal_moves(rows, color)
        if moves:
            plays.append((rows, color, *moves[len(moves) // 2]))
    for rows, color, r, c in plays:
        outcome = reversi.apply_move(reversi.Board.from_rows(rows), r, c, color)
        assert (outcome.board.to_rows(), outcome.next) == walk_apply(rows, r, c, color)

    def engine_apply() -> None:
        for rows, color, r, c in plays:
            reversi.apply_move(reversi.Board.from_rows(rows), r, c, color).board.to_rows()

    def walk_apply_all() -> None:
        for rows, color, r, c in plays:
            walk_apply(rows, r, c, color)

    def closed_form() -> None:
        for rows in boards:
            tictactoe.check_position(rows)

    def backtracking() -> None:
        for rows in boards:
            backtracking_reachable(rows)

    print(f"Engine vs reference, median of {args.rounds} interleaved rounds (per call)\n")
    print("| operation | engine | reference | ratio |")
    print("|---|---:|---:|---:|")
    n = len(positions)
    side_by_side(
        "Reversi all legal moves, 8×8 (set only)", bitboard_moves, walk_moves, n, args.rounds
    )
    side_by_side(
        "Reversi all legal moves + flip counts, 8×8",
        bitboard_moves_with_flips,
        walk_moves_with_flips,
        n,
        args.rounds,
    )
    side_by_side(
        "Reversi single check-move, 8×8 (empty cells)",
        engine_check,
        walk_check,
        len(probes),
        args.rounds,
    )
    side_by_side(
        "Reversi apply-move (board after, who moves next), 8×8",
        engine_apply,
        walk_apply_all,
        len(plays),
        args.rounds,
    )
    side_by_side(
        "Tic-tac-toe, each of the 3^9 boards", closed_form, backtracking, len(boards), args.rounds
    )
    big = big_board()
    times = [timed(lambda: tictactoe.check_position(big, 5), 1) for _ in range(args.rounds * 5)]
    print(
        f"\nTic-tac-toe 100 × 100, k = 5: median {statistics.median(times) * 1e3:.2f} ms per board"
    )
    print("\nThe costliest 100 × 100 boards: the check vs reading every run first (ms a board)\n")
    print("| board | verdict | check | every run | ratio |")
    print("|---|---|---:|---:|---:|")
    worst = [0.0, 0.0]
    for name, rows, k in costliest_boards():
        verdict = tictactoe.check_position(rows, k)
        checks, baselines = [], []
        for _ in range(args.rounds):
            checks.append(timed(lambda rows=rows, k=k: tictactoe.check_position(rows, k), 1))
            baselines.append(timed(lambda rows=rows, k=k: every_run_check(rows, k), 1))
        check, baseline = statistics.median(checks), statistics.median(baselines)
        worst = [max(worst[0], check), max(worst[1], baseline)]
        print(
            f"| {name} | {verdict.reason or verdict.status} | {check * 1e3:.2f} | "
            f"{baseline * 1e3:.2f} | {baseline / check:.1f} × |"
        )
    print(f"| **worst** | | {worst[0] * 1e3:.2f} | {worst[1] * 1e3:.2f} | |")


if __name__ == "__main__":
    main()
