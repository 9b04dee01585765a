"""Dead positions of k in a row: whether either player can still complete a line, kept up to date
move by move on an n × n board of any size, at a cost that does not grow with k where k may be
large.

A *window* is k cells in a row (across, down or diagonally) inside the board. A window is open
for a player while it holds no stone of the other player and, under an exact-k rule (gomoku's
``standard``: a longer run does not win), while neither cell just beyond its ends holds one of the
player's own (filling it would then make more than k). A player can still complete a line if one
of its open windows misses no more stones than the player has moves left: with the players
alternating on the empty cells, the player to move has ⌈empty / 2⌉ of them and the other ⌊empty /
2⌋ (the other player can always play elsewhere: the window's cells are not the only empty ones
while the player still needs them). A position is dead when neither player can: the game can only
be drawn.

A window misses at most k stones, so a player with k moves left or more can complete a line iff
it has an open window at all, and both players have that many while 2k cells or more are empty.
``Liveness`` keeps, for each player, how many windows are open to it (``open``: all of them, the
board's ``windows(n, k)``, at the start), and where the misses matter, how many open windows miss
m stones, for m = 0 … k (``by_misses``). A stone of player P opens no window: it closes every
window through it that was open to the other player Q, and under an exact rule the two windows a
direction it ends, if they were open to P; and it brings P's open windows through it one stone
nearer. How that is counted depends on the board:

* k = n: the windows are whole rows, columns and the two main diagonals, whose stones of each
  player are counted instead (``lines``): O(1) a move, the misses kept from the start.
* k < n, k or more in a row wins (tic-tac-toe, gomoku's ``freestyle``): Q's open windows through
  the stone are those between P's nearest stones, or the board's edge, on either side of it in
  each direction: with a and b the cells up to them (at most k − 1 counted), a + b − k + 2 of them
  (none if that is below one). P's stones are kept sorted by their place on each line
  (``stones``), so each nearest one is a bisection: O(log moves) a move, whatever k. The misses
  are counted only when a question needs them, that is once fewer than 2k cells are empty: the
  first such question counts them on the whole board (O(n²), from the sorted stones), and the
  windows around each later stone, and each stone taken back, keep them (O(k), as below). A game
  gets there only after n² − 2k + 1 ≥ (n − 1)² moves, so then k < n ≤ √moves + 1: the game's own
  moves bound both costs, and a board too large for its move limit never pays them.
* k < n under an exact rule (gomoku's ``standard``: k = 5): the windows holding the stone and
  those it ends are read from the board around it (its owner function), at most k + 1 cells each
  way: O(k) a move, the misses kept from the start.

A takeback (``by`` -1, the last stone placed) changes every count back at the same cost.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from typing import Literal

Player = Literal[1, 2]
Owner = Callable[[int, int], int]  # 0: empty; 1 or 2: the player whose stone is there
Misses = dict[int, int]  # stones missed -> open windows missing that many (none: absent)

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
OFF = -1  # a cell beyond the board's edge


def windows(n: int, k: int) -> int:
    """How many windows of k cells in a row an n × n board has."""
    along = n - k + 1
    return 2 * n * along + 2 * along * along


def along(d: int, row: int, col: int, n: int) -> tuple[int, int, int, int]:
    """The line through (row, col) in direction ``DIRECTIONS[d]``: its number among that
    direction's lines, the cell's place on it (its column across, else its row), and the line's
    cells before and after it."""
    if d == 0:
        return row, col, col, n - 1 - col
    if d == 1:
        return col, row, row, n - 1 - row
    if d == 2:
        return col - row, row, min(row, col), n - 1 - max(row, col)
    return row + col, row, min(row, n - 1 - col), min(n - 1 - row, col)


def span(d: int, line: int, n: int) -> tuple[int, int]:
    """The first place on line ``line`` of direction ``DIRECTIONS[d]`` (``along``'s numbers), and
    its length."""
    if d < 2:
        return 0, n
    if d == 2:
        return max(0, -line), n - abs(line)
    return max(0, line - n + 1), n - abs(line - n + 1)


def _add(counts: Misses, misses: int, by: int) -> None:
    left = counts.get(misses, 0) + by
    if left:
        counts[misses] = left
    else:
        counts.pop(misses, None)


class Liveness:
    """The open windows of each player on one board, and where kept, by how many stones each
    misses."""

    __slots__ = ("exact", "k", "lines", "misses", "n", "open", "stones")

    def __init__(self, n: int, k: int, exact: bool = False) -> None:
        if not 1 <= k <= n:
            raise ValueError(f"k must be between 1 and n = {n}, got {k}")
        self.n, self.k, self.exact = n, k, exact
        total = windows(n, k)
        self.open = [total, total]  # per player: its open windows
        # k = n: each line's stones of players 1 and 2, by line (its windows are the lines).
        self.lines: dict[tuple[str, int], list[int]] | None = {} if k == n else None
        # k < n, not exact: (direction, line, player) -> the player's stones' places, sorted.
        self.stones: dict[tuple[int, int, int], list[int]] | None = (
            {} if k < n and not exact else None
        )
        # Per player: misses -> open windows; None until needed where the stones are sorted.
        self.misses: tuple[Misses, Misses] | None = (
            None if self.stones is not None else ({k: total}, {k: total})
        )

    def by_misses(self, player: Player) -> Misses:
        """``player``'s open windows by the stones each misses (where the stones are sorted,
        counted on the whole board the first time: O(n²); kept from then on)."""
        if self.misses is None:
            self.misses = self._counted()
        return self.misses[player - 1]

    def can_complete(self, player: Player, moves_left: int) -> bool:
        """Whether one of ``player``'s open windows misses at most ``moves_left`` stones."""
        if moves_left >= self.k:  # every window misses at most k
            return self.open[player - 1] > 0
        counts = self.by_misses(player)
        return any(counts.get(m) for m in range(moves_left + 1))

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
        it): each count changes back (a takeback)."""
        if self.lines is not None:
            self._line_played(row, col, player, by)
            return
        if self.stones is not None:
            self._stone_sorted(row, col, player, by)
            if self.misses is None:
                return
        n, k, exact = self.n, self.k, self.exact
        reach = k + 1 if exact else k - 1  # the cells read each way: the windows', their ends
        for dr, dc in DIRECTIONS:
            cells = []
            for t in range(-reach, reach + 1):
                r, c = row + t * dr, col + t * dc
                cells.append(owner(r, c) if 0 <= r < n and 0 <= c < n else OFF)
            cells[reach] = 0  # the windows as they were before the stone
            self._windows_changed(cells, reach, player, by)

    def _stone_sorted(self, row: int, col: int, player: Player, by: int) -> None:
        """k < n, not exact: the other player's windows through (row, col) that were open before
        the stone close (``by`` -1: open again), counted from ``player``'s nearest stones on each
        line through it; the stone joins (leaves) its lines' sorted places."""
        assert self.stones is not None
        n, k, stones = self.n, self.k, self.stones
        through = 0
        for d in range(len(DIRECTIONS)):
            line, at, before, after = along(d, row, col, n)
            key = (d, line, player)
            mine = stones.get(key)
            if mine is None:
                mine = stones[key] = []
            if by < 0:
                del mine[bisect_left(mine, at)]
            i = bisect_left(mine, at)
            a = min(k - 1, before, at - mine[i - 1] - 1) if i else min(k - 1, before)
            b = min(k - 1, after, mine[i] - at - 1) if i < len(mine) else min(k - 1, after)
            through += max(0, a + b - k + 2)
            if by > 0:
                mine.insert(i, at)
            elif not mine:
                del stones[key]
        self.open[2 - player] -= by * through

    def _counted(self) -> tuple[Misses, Misses]:
        """The open windows of each player by misses, counted on the whole board from the sorted
        stones: a line without stones has every window missing k for both."""
        assert self.stones is not None
        n, k, stones = self.n, self.k, self.stones
        total = windows(n, k)
        counts: tuple[Misses, Misses] = ({k: total}, {k: total})
        for d, line in {(d, line) for d, line, _ in stones}:
            first, length = span(d, line, n)
            here = length - k + 1
            if here <= 0:
                continue
            cells = [0] * length
            for player in (1, 2):
                for at in stones.get((d, line, player), ()):
                    cells[at - first] = player
            for player_counts in counts:
                _add(player_counts, k, -here)
            held = [0, 0, 0]  # the window's empty cells, stones of player 1, of player 2
            for cell in cells[:k]:
                held[cell] += 1
            for start in range(here):
                if start:
                    held[cells[start - 1]] -= 1
                    held[cells[start + k - 1]] += 1
                if not held[2]:
                    _add(counts[0], k - held[1], 1)
                if not held[1]:
                    _add(counts[1], k - held[2], 1)
        return counts

    def _windows_changed(self, cells: list[int], centre: int, player: Player, by: int) -> None:
        """The windows through ``cells[centre]`` (and, exact, those it ends) as they were, with
        the cell empty, and as they are with ``player``'s stone there (``by`` -1: back): their
        misses, and where the stones are not sorted, the open windows they close."""
        assert self.misses is not None
        k, exact = self.k, self.exact
        opponent = 3 - player
        mine_open, theirs_open = self.misses[player - 1], self.misses[opponent - 1]
        closed_mine = closed_theirs = 0
        # Windows holding the cell: starting at centre - k + 1 … centre, counted by sliding.
        first = centre - k + 1
        mine = sum(1 for v in cells[first : first + k] if v == player)
        theirs = sum(1 for v in cells[first : first + k] if v == opponent)
        off = sum(1 for v in cells[first : first + k] if v == OFF)
        for start in range(first, centre + 1):
            if start > first:  # slide: drop cells[start - 1], take cells[start + k - 1]
                gone, came = cells[start - 1], cells[start + k - 1]
                mine += (came == player) - (gone == player)
                theirs += (came == opponent) - (gone == opponent)
                off += (came == OFF) - (gone == OFF)
            if off:
                continue
            ends = (cells[start - 1], cells[start + k]) if exact else ()
            if not theirs and player not in ends:  # open for the mover: one stone nearer
                _add(mine_open, k - mine, -by)
                _add(mine_open, k - mine - 1, by)
            if not mine and opponent not in ends:  # open for the opponent: no longer
                _add(theirs_open, k - theirs, -by)
                closed_theirs += 1
        if exact:  # the windows the cell ends: closed to the mover (its run would be longer)
            for start, far_end in ((centre - k, centre - k - 1), (centre + 1, centre + k + 1)):
                inside = cells[start : start + k]
                if OFF in inside or opponent in inside or cells[far_end] == player:
                    continue
                _add(mine_open, k - inside.count(player), -by)
                closed_mine += 1
        if self.stones is None:  # else the sorted stones count them
            self.open[opponent - 1] -= by * closed_theirs
            self.open[player - 1] -= by * closed_mine

    def _line_played(self, row: int, col: int, player: Player, by: int) -> None:
        """k = n: the stone joins its row, its column and the main diagonals it lies on (``by``
        -1: leaves them)."""
        assert self.lines is not None
        assert self.misses is not None
        n = self.n
        keys: list[tuple[str, int]] = [("row", row), ("col", col)]
        if row == col:
            keys.append(("diagonal", 0))
        if row + col == n - 1:
            keys.append(("anti", 0))
        opponent = 3 - player
        mine_open, theirs_open = self.misses[player - 1], self.misses[opponent - 1]
        for key in keys:
            stones = self.lines.setdefault(key, [0, 0])
            if by < 0:
                stones[player - 1] -= 1  # the counts as they were before the stone
            mine, theirs = stones[player - 1], stones[opponent - 1]
            if not theirs:
                _add(mine_open, n - mine, -by)
                _add(mine_open, n - mine - 1, by)
            if not mine:
                _add(theirs_open, n - theirs, -by)
                self.open[opponent - 1] -= by
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
