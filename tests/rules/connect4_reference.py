"""A slow, obviously right Connect Four for the engine to be checked against.

The board is a list of rows, top to bottom, of ``X``, ``O`` and ``.``. A disc falls by looking
down its column for the lowest empty cell; whether anyone has won is found by trying every cell
as the start of k cells in each of the four directions, after every drop. A posted board is
judged by looking at every cell. Nothing here is clever, and nothing is shared with the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row step, column step), rows going down
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def square(row: int, col: int, height: int) -> str:
    """A cell's name: its column's letter, then its row counted from 1 at the bottom."""
    return LETTERS[col] + str(height - row)


@cache
def all_windows(width: int, height: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every k cells in a line on a ``width`` × ``height`` board: each cell, each direction."""
    found = []
    for r in range(height):
        for c in range(width):
            for dr, dc in DIRECTIONS:
                cells = tuple((r + i * dr, c + i * dc) for i in range(k))
                if all(0 <= y < height and 0 <= x < width for y, x in cells):
                    found.append(cells)
    return tuple(found)


def windows(grid: Sequence[Sequence[str]], mark: str, k: int) -> list[tuple[tuple[int, int], ...]]:
    """Every k cells in a line that all hold ``mark``."""
    return [
        cells
        for cells in all_windows(len(grid[0]), len(grid), k)
        if all(grid[y][x] == mark for y, x in cells)
    ]


def line_cells(grid: Sequence[Sequence[str]], mark: str, k: int) -> set[tuple[int, int]]:
    """Every cell of ``mark`` that lies on k of its marks in a row."""
    return {cell for window in windows(grid, mark, k) for cell in window}


@dataclass
class Game:
    """A game played drop by drop; ``history`` holds the columns, for taking moves back."""

    width: int
    height: int
    k: int
    grid: list[list[str]] = field(init=False)
    history: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.grid = [["."] * self.width for _ in range(self.height)]

    def mark(self) -> str:
        """Whose disc the next drop is: X on even move numbers."""
        return "X" if len(self.history) % 2 == 0 else "O"

    def winner(self) -> str | None:
        for mark in "XO":
            if windows(self.grid, mark, self.k):
                return mark
        return None

    def over(self) -> bool:
        full = all(cell != "." for row in self.grid for cell in row)
        return self.winner() is not None or full

    def landing_row(self, col: int) -> int | None:
        for row in range(self.height - 1, -1, -1):
            if self.grid[row][col] == ".":
                return row
        return None

    def refusal(self, col: int) -> str | None:
        if self.over():
            return "game_over"
        if self.landing_row(col) is None:
            return "column_full"
        return None

    def legal_columns(self) -> list[int]:
        if self.over():
            return []
        return [col for col in range(self.width) if self.landing_row(col) is not None]

    def drop(self, col: int) -> int:
        """Drop the next disc; the row it lands in. The caller asked ``refusal`` first."""
        row = self.landing_row(col)
        assert row is not None
        self.grid[row][col] = self.mark()
        self.history.append(col)
        return row

    def wins_if_dropped(self, col: int) -> bool:
        row = self.landing_row(col)
        assert row is not None
        mark = self.mark()
        self.grid[row][col] = mark
        won = bool(windows(self.grid, mark, self.k))
        self.grid[row][col] = "."
        return won

    def undo(self) -> int:
        col = self.history.pop()
        for row in range(self.height):
            if self.grid[row][col] != ".":
                self.grid[row][col] = "."
                return row
        raise AssertionError("the column was empty")

    def rows(self) -> list[str]:
        return ["".join(row) for row in self.grid]


@dataclass(frozen=True)
class Judged:
    """A posted board's verdict: refused (``refused`` is why), or the game as it stands."""

    refused: str | None
    message: str | None = None
    mark: str | None = None  # whose turn; None when over
    winner: str | None = None
    over: bool = False
    columns: tuple[int, ...] = ()
    lines: frozenset[tuple[int, int]] = frozenset()


def judge(rows: Sequence[str], k: int = 4) -> Judged:
    """The contract's posted-board check, one rule after another, each by looking at every cell:
    sizes, rectangle, characters, k, floating discs, counts, both with a line."""
    height = len(rows)
    width = len(rows[0]) if rows else 0
    if not (4 <= width <= 20 and 4 <= height <= 20):
        return Judged("board_size")
    if any(len(row) != width for row in rows):
        return Judged("board_not_rectangular")
    if any(cell not in "XO." for row in rows for cell in row):
        return Judged("board_cell")
    if not 3 <= k <= max(width, height):
        return Judged("k_range")
    for col in range(width):
        for row in range(height - 2, -1, -1):  # from the bottom up: the lowest floating disc
            if rows[row][col] != "." and rows[row + 1][col] == ".":
                disc, below = square(row, col, height), square(row + 1, col, height)
                message = f"floating disc at {disc}: the cell under it, {below}, is empty"
                return Judged("floating_disc", message)
    x = sum(row.count("X") for row in rows)
    o = sum(row.count("O") for row in rows)
    if x not in (o, o + 1):
        return Judged("bad_counts")
    x_won, o_won = bool(windows(rows, "X", k)), bool(windows(rows, "O", k))
    if x_won and o_won:
        return Judged("both_won")
    winner = "X" if x_won else "O" if o_won else None
    over = winner is not None or x + o == width * height
    columns = () if over else tuple(c for c in range(width) if rows[0][c] == ".")
    lines = frozenset(line_cells(rows, winner, k)) if winner else frozenset()
    mark = None if over else "X" if x == o else "O"
    return Judged(None, None, mark, winner, over, columns, lines)
