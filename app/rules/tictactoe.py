"""Can an n × n tic-tac-toe position (k in a row wins) occur in a legal game? A closed-form check.

Rules: X moves first, the players alternate, a mark goes on an empty cell, and play stops as soon
as one player has k marks in a row (row, column or either diagonal) or the board is full.

Why the check below is exact, without searching:

* A position with no k-in-a-row for anyone and ``x == o`` or ``x == o + 1`` marks is reachable:
  play its marks in any alternating order; a subset of a board without a winning line has none
  either, so the game never stops early.
* A position where X has a winning line was reached by X's last move, so ``x == o + 1``, and the
  board before that move — this one minus one X — must have had no winning line. Removing one X
  breaks every winning X segment only if that cell lies on all of them. So: valid iff the
  winning X segments have a common cell (it necessarily holds an X). Symmetrically for O with
  ``x == o``. Both players winning is never reachable.

Counting "X wins" and "O wins" is not enough beyond 3 × 3: X can hold two disjoint winning lines,
which no single move completed.

Winning segments are found as maximal runs of ≥ k equal marks along each of the 4n - 2 lines of
each direction. The k-segments inside a run of length L all share the run's middle cells
``[L - k, k - 1]`` (empty when L > 2k - 1), so intersecting the runs' cores gives the common
cells of all winning segments without enumerating them. Lines are laid out as strings and
scanned with a regular expression, so the per-cell work happens in C.

The check stops as soon as its answer is known, so its cost is bounded whatever the board: whether
a mark has won at all is one regular-expression search over every line (in C); only the winner's
runs are read one by one, and the intersection of their cores is empty after at most five of
them — a cell lies on one line per direction, and the maximal runs of one line are disjoint, so
two runs of one direction share no cell. The Python work is O(k); the rest is O(n²) in C (about
1 ms for 100 × 100, whatever the marks: ``bench.engine``).

Boards of at most ``SMALL_SIDE`` a side (3 × 3 among them) are judged by the same rule on
bitmasks: each k-window a mask, a mark's winning windows those it fills, and their common cells
one ``&`` of them all — cheaper there than laying the lines out (2.7 µs against 6.7 µs for a
3 × 3 position).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Mark = Literal["X", "O"]
Status = Literal["in_progress", "x_won", "o_won", "draw"]
Reason = Literal[
    "bad_counts", "both_won", "x_won_but_o_moved", "o_won_but_x_moved", "play_after_win"
]

MAX_SIDE = 100
EMPTY = "."
SEPARATOR = "|"  # between lines in the scanned strings, so runs never join across lines


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer for one position. ``status``/``next``/``winner`` are None when invalid."""

    valid: bool
    reason: Reason | None
    status: Status | None
    next: Mark | None
    winner: Mark | None
    x_count: int
    o_count: int


Cell = tuple[int, int]


def _lines(rows: Sequence[str]) -> tuple[str, str, str, str]:
    """The board's rows, columns, diagonals (↘) and anti-diagonals (↙), each as one string.

    Every line has length n (n lines for rows and columns, 2n - 1 for the diagonals) and lines
    are joined by SEPARATOR, so offset p lies on line ``p // (n + 1)`` at position ``p % (n + 1)``.
    Diagonals come from skewing: shifting row r right by ``n - 1 - r`` (or by r) turns each
    diagonal (anti-diagonal) into a column, and ``zip`` transposes in C.
    """
    n = len(rows)
    pad = " " * (n - 1)
    columns = SEPARATOR.join(map("".join, zip(*rows, strict=True)))
    down_right = [pad[: n - 1 - r] + row + pad[:r] for r, row in enumerate(rows)]
    down_left = [pad[:r] + row + pad[: n - 1 - r] for r, row in enumerate(rows)]
    return (
        SEPARATOR.join(rows),
        columns,
        SEPARATOR.join(map("".join, zip(*down_right, strict=True))),
        SEPARATOR.join(map("".join, zip(*down_left, strict=True))),
    )


def _cell(direction: int, line: int, pos: int, n: int) -> Cell:
    """The board cell at position ``pos`` of line ``line`` in ``direction`` (see ``_lines``)."""
    if direction == 0:
        return line, pos
    if direction == 1:
        return pos, line
    if direction == 2:  # line t holds cells with c - r == t - (n - 1), r ascending
        return pos, line - (n - 1) + pos
    return pos, line - pos  # line t holds cells with r + c == t, r ascending


@lru_cache(maxsize=512)
def _run_pattern(mark: str, k: int) -> re.Pattern[str]:
    return re.compile(f"{mark}{{{k},}}")


def _has_run(every_line: str, mark: Mark, k: int) -> bool:
    """Whether ``mark`` has k in a row on some line (``every_line``: the lines of every
    direction, joined by SEPARATOR: one search)."""
    return _run_pattern(mark, k).search(every_line) is not None


def _winning_core(lines: tuple[str, ...], mark: Mark, n: int, k: int) -> set[Cell]:
    """The cells shared by all of ``mark``'s winning segments (``mark`` has one). Stops at the
    first run that leaves none shared: at most five runs are read (see the module's docs)."""
    pattern = _run_pattern(mark, k)
    common: set[Cell] | None = None
    for direction, text in enumerate(lines):
        for match in pattern.finditer(text):
            start, end = match.span()
            line, first = divmod(start, n + 1)
            length = end - start
            # Cells shared by every k-window of this run: positions first+L-k .. first+k-1.
            core = {_cell(direction, line, pos, n) for pos in range(first + length - k, first + k)}
            common = core if common is None else common & core
            if not common:
                return common
    assert common is not None, "the mark has a winning run"
    return common


# Boards of at most this side (tic-tac-toe's own 3 × 3 among them) are judged on bitmasks: a
# handful of k-windows, each tried with one ``&``, costs less than laying out the lines.
SMALL_SIDE = 4


@lru_cache(maxsize=64)
def _windows(n: int, k: int) -> tuple[int, ...]:
    """Every k-in-a-row of an n × n board as a mask of its cells (bit ``r * n + c``)."""
    windows = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < n and 0 <= end_c < n:
                    cells = ((r + dr * i) * n + c + dc * i for i in range(k))
                    windows.append(sum(1 << cell for cell in cells))
    return tuple(dict.fromkeys(windows))  # k = 1: one window a cell, not four


_X_BITS = str.maketrans("XO. ", "1000")  # a space: empty too, as the line scan reads it
_O_BITS = str.maketrans("XO. ", "0100")


def _small(text: str, n: int, k: int, x: int, o: int) -> Verdict:
    """``check_position``'s verdict on a small board (``SMALL_SIDE``), the counts known good:
    the winning windows of each mark as masks, and a win valid iff they share a cell."""
    windows = _windows(n, k)
    # Bit r * n + c is the cell's: the text reversed puts cell 0 at the lowest bit.
    xs, os_ = int(text[::-1].translate(_X_BITS), 2), int(text[::-1].translate(_O_BITS), 2)
    x_won = [w for w in windows if xs & w == w]
    o_won = [w for w in windows if os_ & w == w]
    if x_won and o_won:
        return Verdict(False, "both_won", None, None, None, x, o)
    for won, mark, status, count_ok, moved in (
        (x_won, "X", "x_won", x == o + 1, "x_won_but_o_moved"),
        (o_won, "O", "o_won", x == o, "o_won_but_x_moved"),
    ):
        if won:
            if not count_ok:
                return Verdict(False, moved, None, None, None, x, o)  # type: ignore[arg-type]
            common = -1
            for window in won:
                common &= window
            if not common:
                return Verdict(False, "play_after_win", None, None, None, x, o)
            return Verdict(True, None, status, None, mark, x, o)  # type: ignore[arg-type]
    if x + o == n * n:
        return Verdict(True, None, "draw", None, None, x, o)
    return Verdict(True, None, "in_progress", "X" if x == o else "O", None, x, o)


def check_position(rows: Sequence[str], k: int | None = None) -> Verdict:
    """Judge an n × n board given as n strings over ``X``, ``O`` and ``.``.

    ``k`` (1 ≤ k ≤ n, default n) is how many in a row win.
    """
    n = len(rows)
    if not 1 <= n <= MAX_SIDE or any(len(row) != n for row in rows):
        raise ValueError(f"board must be square, 1..{MAX_SIDE} cells a side")
    k = n if k is None else k
    if not 1 <= k <= n:
        raise ValueError(f"k must be in 1..{n}, got {k}")
    text = "".join(rows)
    x, o = text.count("X"), text.count("O")

    def invalid(reason: Reason) -> Verdict:
        return Verdict(False, reason, None, None, None, x, o)

    if not (x == o or x == o + 1):
        return invalid("bad_counts")
    if n <= SMALL_SIDE:
        return _small(text, n, k, x, o)
    lines = _lines(rows)
    every_line = SEPARATOR.join(lines)
    x_won, o_won = _has_run(every_line, "X", k), _has_run(every_line, "O", k)
    if x_won and o_won:
        return invalid("both_won")
    if x_won:
        if x != o + 1:
            return invalid("x_won_but_o_moved")
        if not _winning_core(lines, "X", n, k):
            return invalid("play_after_win")
        return Verdict(True, None, "x_won", None, "X", x, o)
    if o_won:
        if x != o:
            return invalid("o_won_but_x_moved")
        if not _winning_core(lines, "O", n, k):
            return invalid("play_after_win")
        return Verdict(True, None, "o_won", None, "O", x, o)
    if x + o == n * n:
        return Verdict(True, None, "draw", None, None, x, o)
    return Verdict(True, None, "in_progress", "X" if x == o else "O", None, x, o)
