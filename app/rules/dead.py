"""Dead positions of k in a row: whether either player can still complete a line, kept up to date in
O(k) a move on an n × n board of any size.

A *window* is k cells in a row (across, down or diagonally) inside the board. A window is open
for a player while it holds no stone of the other player and, under an exact-k rule (gomoku's
``standard``: a longer run does not win), while neither cell just beyond its ends holds one of the
player's own (filling it would then make more than k). A player can still complete a line if one
of its open windows misses no more stones than the player has moves left: with the players
alternating on the empty cells, the player to move has ⌈empty / 2⌉ of them and the other ⌊empty /
2⌋ (the other player can always play elsewhere: the window's cells are not the only empty ones
while the player still needs them). A position is dead when neither player can: the game can only
be drawn.

``Liveness`` keeps, for each player, how many open windows miss m stones, for m = 0 … k (all
windows miss k at the start: their number is ``windows(n, k)``). A stone changes only the windows
that hold it (at most k a direction) and, under an exact rule, the two a direction it ends; they
are read from the board around the stone (its owner function), at most k + 1 cells each way: a
move costs O(k). For k = n the windows are whole rows, columns and the two main diagonals, whose
stones of each player are counted instead (a move costs O(1)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

Player = Literal[1, 2]
Owner = Callable[[int, int], int]  # 0: empty; 1 or 2: the player whose stone is there

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
OFF = -1  # a cell beyond the board's edge


def windows(n: int, k: int) -> int:
    """How many windows of k cells in a row an n × n board has."""
    along = n - k + 1
    return 2 * n * along + 2 * along * along


class Liveness:
    """The open windows of each player on one board, by how many stones each misses."""

    __slots__ = ("exact", "k", "lines", "n", "open")

    def __init__(self, n: int, k: int, exact: bool = False) -> None:
        if not 1 <= k <= n:
            raise ValueError(f"k must be between 1 and n = {n}, got {k}")
        self.n, self.k, self.exact = n, k, exact
        total = windows(n, k)
        self.open = ([0] * k + [total], [0] * k + [total])  # per player: misses m -> windows
        # k = n: each line's stones of players 1 and 2, by line (its windows are the lines).
        self.lines: dict[tuple[str, int], list[int]] | None = {} if k == n else None

    def can_complete(self, player: Player, moves_left: int) -> bool:
        """Whether one of ``player``'s open windows misses at most ``moves_left`` stones."""
        counts = self.open[player - 1]
        return any(counts[m] for m in range(min(moves_left, self.k) + 1))

    def dead(self, empty: int, to_move: Player) -> bool:
        """Whether neither player can complete a line with the moves left: ``empty`` cells, the
        player ``to_move`` first."""
        other: Player = 2 if to_move == 1 else 1
        return not (
            self.can_complete(to_move, (empty + 1) // 2) or self.can_complete(other, empty // 2)
        )

    def played(self, owner: Owner, row: int, col: int, player: Player, by: int = 1) -> None:
        """``player``'s stone was placed at (row, col), an empty cell: ``owner`` reads the board
        with it. ``by`` -1: the stone, the last one placed, is taken back (``owner`` still reads
        it): each count changes back (a takeback, O(k))."""
        if self.lines is not None:
            self._line_played(row, col, player, by)
            return
        n, k, exact = self.n, self.k, self.exact
        reach = k + 1 if exact else k - 1  # the cells read each way: the windows', their ends
        for dr, dc in DIRECTIONS:
            span = []
            for t in range(-reach, reach + 1):
                r, c = row + t * dr, col + t * dc
                span.append(owner(r, c) if 0 <= r < n and 0 <= c < n else OFF)
            span[reach] = 0  # the windows as they were before the stone
            self._windows_changed(span, reach, player, by)

    def _windows_changed(self, span: list[int], centre: int, player: Player, by: int) -> None:
        """The windows through ``span[centre]`` (and, exact, those it ends) as they were, with
        the cell empty, and as they are with ``player``'s stone there (``by`` -1: back)."""
        k, exact = self.k, self.exact
        opponent = 3 - player
        mine_open, theirs_open = self.open[player - 1], self.open[opponent - 1]
        # Windows holding the cell: starting at centre - k + 1 … centre, counted by sliding.
        first = centre - k + 1
        mine = sum(1 for v in span[first : first + k] if v == player)
        theirs = sum(1 for v in span[first : first + k] if v == opponent)
        off = sum(1 for v in span[first : first + k] if v == OFF)
        for start in range(first, centre + 1):
            if start > first:  # slide: drop span[start - 1], take span[start + k - 1]
                gone, came = span[start - 1], span[start + k - 1]
                mine += (came == player) - (gone == player)
                theirs += (came == opponent) - (gone == opponent)
                off += (came == OFF) - (gone == OFF)
            if off:
                continue
            ends = (span[start - 1], span[start + k]) if exact else ()
            if not theirs and player not in ends:  # open for the mover: one stone nearer
                mine_open[k - mine] -= by
                mine_open[k - mine - 1] += by
            if not mine and opponent not in ends:  # open for the opponent: no longer
                theirs_open[k - theirs] -= by
        if exact:  # the windows the cell ends: closed to the mover (its run would be longer)
            for start, far_end in ((centre - k, centre - k - 1), (centre + 1, centre + k + 1)):
                inside = span[start : start + k]
                if OFF in inside or opponent in inside or span[far_end] == player:
                    continue
                mine_open[k - inside.count(player)] -= by

    def _line_played(self, row: int, col: int, player: Player, by: int) -> None:
        """k = n: the stone joins its row, its column and the main diagonals it lies on (``by``
        -1: leaves them)."""
        assert self.lines is not None
        n = self.n
        keys: list[tuple[str, int]] = [("row", row), ("col", col)]
        if row == col:
            keys.append(("diagonal", 0))
        if row + col == n - 1:
            keys.append(("anti", 0))
        opponent = 3 - player
        for key in keys:
            stones = self.lines.setdefault(key, [0, 0])
            if by < 0:
                stones[player - 1] -= 1  # the counts as they were before the stone
            mine, theirs = stones[player - 1], stones[opponent - 1]
            if not theirs:
                self.open[player - 1][n - mine] -= by
                self.open[player - 1][n - mine - 1] += by
            if not mine:
                self.open[opponent - 1][n - theirs] -= by
            if by > 0:
                stones[player - 1] += 1
            elif stones == [0, 0]:
                del self.lines[key]

    @classmethod
    def of(cls, n: int, k: int, exact: bool, stones: Iterable[tuple[int, int, Player]]) -> Liveness:
        """The liveness of a board holding ``stones`` (row, col, player), placed one by one."""
        liveness = cls(n, k, exact)
        board: dict[tuple[int, int], int] = {}

        def owner(r: int, c: int) -> int:
            return board.get((r, c), 0)

        for row, col, player in stones:
            board[row, col] = player
            liveness.played(owner, row, col, player)
        return liveness
