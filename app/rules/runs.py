"""O(1) k-in-a-row detection on an n × n board, for any k ≤ n, in memory that grows with moves.

For each of the four directions (row, column, diagonal, anti-diagonal) the length of every run of
one player's stones is kept at the run's two end cells. A new stone sits next to at most one run
of its player on each side, in each direction, and a cell next to an empty cell is always an end
of its run there: so the new run is L + 1 + R, read at the two neighbours, and its length is
written at its two new ends. The old ends that became inner cells are dropped, so a direction
holds at most two entries a run. A run of k or more wins (a longer run than k also wins).

For k = n the line counters of ``lines.py`` do the same job with fewer entries; this class
serves k < n. The caller checks bounds, turn and occupancy before calling ``play``.
"""

from __future__ import annotations

from typing import Literal

Player = Literal[1, 2]

# (row step, column step) of each direction; a run is walked from its start in that direction.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class RunLengths:
    """One n × n, k-in-a-row board: occupied cells, and the runs' lengths at their ends."""

    __slots__ = ("cells", "ends", "k", "n")

    def __init__(self, n: int, k: int) -> None:
        if not 1 <= k <= n:
            raise ValueError(f"k must be between 1 and n = {n}, got {k}")
        self.n = n
        self.k = k
        self.cells: dict[int, Player] = {}  # row * n + col -> player
        # Per direction: end cell (row * n + col) -> length of the run it ends.
        self.ends: tuple[dict[int, int], ...] = tuple({} for _ in DIRECTIONS)

    def owner(self, row: int, col: int) -> Player | None:
        return self.cells.get(row * self.n + col)

    def _run_at(self, row: int, col: int, player: Player, ends: dict[int, int]) -> int:
        """The length of ``player``'s run ending at (row, col), a neighbour of the new stone."""
        n = self.n
        if 0 <= row < n and 0 <= col < n and self.cells.get(row * n + col) == player:
            return ends[row * n + col]
        return 0

    def play(self, row: int, col: int, player: Player) -> bool:
        """Record ``player``'s stone at an empty in-bounds cell; True if it makes k in a row."""
        n = self.n
        self.cells[row * n + col] = player
        won = False
        for (dr, dc), ends in zip(DIRECTIONS, self.ends, strict=True):
            before = self._run_at(row - dr, col - dc, player, ends)
            after = self._run_at(row + dr, col + dc, player, ends)
            if before:
                ends.pop((row - dr) * n + col - dc)
            if after:
                ends.pop((row + dr) * n + col + dc)
            length = before + 1 + after
            ends[(row - before * dr) * n + col - before * dc] = length
            ends[(row + after * dr) * n + col + after * dc] = length
            won = won or length >= self.k
        return won

    def remove(self, row: int, col: int) -> None:
        """Take back the stone at (row, col), the last one ``play`` recorded (a takeback): in
        each direction its run splits back into the runs before and after it. Their lengths are
        walked from the stone, both ways at once, until one side ends: O(the shorter side), less
        than k while no run has won."""
        n = self.n
        player = self.cells[row * n + col]
        for (dr, dc), ends in zip(DIRECTIONS, self.ends, strict=True):
            before = after = 0
            while True:  # the first side to end gives its length; the run's gives the other
                r, c = row - (before + 1) * dr, col - (before + 1) * dc
                if not (0 <= r < n and 0 <= c < n) or self.cells.get(r * n + c) != player:
                    start = (row - before * dr) * n + col - before * dc
                    after = ends[start] - 1 - before
                    break
                before += 1
                r, c = row + (after + 1) * dr, col + (after + 1) * dc
                if not (0 <= r < n and 0 <= c < n) or self.cells.get(r * n + c) != player:
                    end = (row + after * dr) * n + col + after * dc
                    before = ends[end] - 1 - after
                    break
                after += 1
            ends.pop((row - before * dr) * n + col - before * dc, None)
            ends.pop((row + after * dr) * n + col + after * dc, None)
            if before:
                ends[(row - before * dr) * n + col - before * dc] = before
                ends[(row - dr) * n + col - dc] = before
            if after:
                ends[(row + dr) * n + col + dc] = after
                ends[(row + after * dr) * n + col + after * dc] = after
        del self.cells[row * n + col]

    def __len__(self) -> int:
        """How many cells are occupied."""
        return len(self.cells)
