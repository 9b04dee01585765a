"""O(1) n-in-a-row detection for n × n tic-tac-toe, in memory that grows with moves, not n.

Player 1 adds +1 and player 2 adds -1 to the counter of the move's row, its column, and — when
the cell lies on them — the diagonal and the anti-diagonal. A line has n cells and each cell is
played at most once, so a counter reaches +n (or -n) exactly when player 1 (or 2) holds the
whole line. A move touches at most four counters.

Counters live in dicts keyed by line index and occupied cells in a dict keyed by cell index, so
an idle game with n = 1,000,000 costs a few hundred bytes and each move adds a few entries.
The caller (the session's Game) checks bounds, turn and occupancy before calling ``play``.
"""

from __future__ import annotations

from typing import Literal

Player = Literal[1, 2]


class LineCounters:
    """The board of one n × n game as line counters plus the set of occupied cells."""

    __slots__ = ("anti_diagonal", "cells", "columns", "diagonal", "n", "rows")

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        self.n = n
        self.rows: dict[int, int] = {}
        self.columns: dict[int, int] = {}
        self.diagonal = 0
        self.anti_diagonal = 0
        self.cells: dict[int, Player] = {}  # row * n + col -> player

    def owner(self, row: int, col: int) -> Player | None:
        return self.cells.get(row * self.n + col)

    def play(self, row: int, col: int, player: Player) -> bool:
        """Record ``player``'s mark at an empty in-bounds cell; True if it completes a line."""
        n = self.n
        delta = 1 if player == 1 else -1
        full = delta * n
        self.cells[row * n + col] = player
        row_count = self.rows.get(row, 0) + delta
        self.rows[row] = row_count
        col_count = self.columns.get(col, 0) + delta
        self.columns[col] = col_count
        won = row_count == full or col_count == full
        if row == col:
            self.diagonal += delta
            won = won or self.diagonal == full
        if row + col == n - 1:
            self.anti_diagonal += delta
            won = won or self.anti_diagonal == full
        return won

    def remove(self, row: int, col: int) -> None:
        """Take back the mark at (row, col), the last one ``play`` recorded: its four counters
        go back (a takeback, O(1))."""
        n = self.n
        delta = -1 if self.cells.pop(row * n + col) == 1 else 1
        self.rows[row] += delta  # a line's 0 reads as no counter: it may hold one of each
        self.columns[col] += delta
        if row == col:
            self.diagonal += delta
        if row + col == n - 1:
            self.anti_diagonal += delta

    def __len__(self) -> int:
        """How many cells are occupied."""
        return len(self.cells)
