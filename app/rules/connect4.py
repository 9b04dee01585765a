"""Connect Four on any board from 4 × 4 to 20 × 20, k in a row wins: drops, wins, takebacks, the
posted-board check and the game's notation.

Rules (``API.md``, "Connect Four"): X (player 1) moves first and the players alternate; a move
names a column and the disc falls to the lowest empty cell of it; a drop that completes ``k``
or more in a row (a row, a column or either diagonal) wins, and the last empty cell filled
without one draws. Rows are counted from the top as boards are listed (row 0 is the top row);
a square's name counts them from the bottom, 1-based (``d1`` is the bottom of the fourth
column), as the community writes them.

**Bitboards.** Each player's discs are one Python int, column after column: cell (column c, r
discs up from the bottom) is bit ``c * (height + 1) + r``. Every column carries one more bit
above its top, never set, so a step in a direction is one shift (1 up a column, ``height + 1``
along a row, ``height + 2`` and ``height`` along the diagonals) and a step off the board lands
on that spare bit, or off the int, and finds no disc: no edge masks (John Tromp's layout,
which Pascal Pons' solver uses too). A drop sets one bit; whether it wins is read by walking
from its bit along the four directions while the mover's discs continue: no line existed
before the drop (the game would have ended), so each walk stops within ``k - 1`` steps, and a
drop costs O(k) whatever the board. A posted board is read whole: whether a player has k in a
row is ``log2 k`` shift-and-``&`` steps a direction on the whole int (``_windows``).

**A posted board** (rows top to bottom of ``X``, ``O``, ``.``) is refused, by ``BoardError``
naming why and where, when it is not a board (sizes out of bounds, ragged rows, another
character, k out of range), when a disc floats (an empty cell under it: ``floating disc at
c3``), when the counts are not X = O or X = O + 1, or when both players have k in a row; the
first of these a board has, in that order. Every other board is judged as it stands:

* A board where one player has k in a row is over, that player the winner: play stops at the
  first line, so nobody moves on it (``player`` None, every column refused ``game_over``), and
  the drop that ended it was the winner's. That is all a referee is asked here — whose turn it
  is and what a drop does — and the answer is the same whoever moved last.
* The board is not searched for a history that reaches it. Some boards the checks above accept
  no game reaches: a line no single last drop could have completed (two disjoint lines, a line
  none of whose discs is the top of its column, or the loser holding the last disc by the
  counts), and, without lines, columns whose discs cannot be interleaved into alternating drops
  from the bottom (``O`` under ``X`` in the only column: X's first disc did not land first).
  Unlike tic-tac-toe's, Connect Four's reachability is not a property of the counts and lines
  alone but of the order of the discs in each column: deciding it means merging the columns'
  sequences into one alternating sequence of drops, a search whose cost a hostile board would
  choose. The contract's refusals are of boards whose answers are undefined (who is to move,
  who won) or that break gravity; every question asked of the boards above has one answer, so
  the referee answers it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from app.rules.errors import RuleError

Player = Literal[1, 2]
Winner = Literal[0, 1, 2]  # 0: nobody (yet), or a draw
Status = Literal["in_progress", "won", "draw"]
Reason = Literal["line", "board_full"]  # why a game ended by the rules
Refused = Literal["column_full", "game_over"]  # why a drop is refused, the stronger first
Cell = tuple[int, int]  # (row from the top, column), both 0-based

MIN_SIDE, MAX_SIDE = 4, 20
MIN_K = 3
WIDTH, HEIGHT, K = 7, 6, 4  # the standard game; K is also a posted board's default
PLAYERS: tuple[Player, Player] = (1, 2)
EMPTY = "."
LETTERS = "abcdefghijklmnopqrstuvwxyz"  # column letters: a is the leftmost column
MAX_DIGIT_WIDTH = 9  # a transcript writes columns as digits 1-9 only up to this width

_X_DIGITS = str.maketrans({"X": "1", "O": "0", EMPTY: "0"})
_O_DIGITS = str.maketrans({"X": "0", "O": "1", EMPTY: "0"})
_CELL_OF_DIGIT = str.maketrans({"0": EMPTY, "1": "X", "2": "O"})
_NOT_A_CELL = re.compile(r"[^XO.]")
_SPACE = frozenset(" \t\r\n")


class ColumnFull(RuleError):
    """A drop into a column that has no empty cell left."""

    code = "column_full"

    def __init__(self, column: int, height: int) -> None:
        self.column, self.height = column, height
        super().__init__(
            f"column {column_letter(column)} ({column}) is full: it holds {height} discs"
        )

    def details(self) -> dict[str, object]:
        return {"column": self.column}


class BoardError(ValueError):
    """A posted board refused: why (the message) and how, for a client to branch on (``type``:
    ``board_size``, ``board_not_rectangular``, ``board_cell``, ``k_range``, ``floating_disc``,
    ``bad_counts``, ``both_won``); ``row`` is the posted row it names, where it names one."""

    def __init__(self, type: str, message: str, row: int | None = None) -> None:
        super().__init__(message)
        self.type, self.row = type, row


class NotationError(ValueError):
    """A text that is not a column or a transcript: why, and ``index``, the 0-based offset of
    the character where it broke (the caller turns it into a line and column)."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.message, self.index = message, index


class Drop(NamedTuple):
    """A drop made: who, where, and the runs of k or more it completed (each one's cells,
    sorted; none for a drop that does not win)."""

    player: Player
    column: int
    row: int
    lines: tuple[tuple[Cell, ...], ...]

    @property
    def wins(self) -> bool:
        return bool(self.lines)


class ColumnCheck(NamedTuple):
    """A drop asked about, for the player to move: legal or why not, where the disc lands (row
    and square; None when the drop is refused) and whether it wins."""

    legal: bool
    reason: Refused | None
    row: int | None
    square: str | None
    wins: bool


def check_shape(width: int, height: int, k: int) -> None:
    """BoardError unless a ``width`` × ``height`` board with ``k`` in a row is one of the game's."""
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise BoardError(
            "board_size",
            f"a board is {MIN_SIDE} to {MAX_SIDE} columns wide and {MIN_SIDE} to {MAX_SIDE} rows "
            f"high; this one has {height} rows of {width} cells",
        )
    if not MIN_K <= k <= max(width, height):
        raise BoardError(
            "k_range",
            f"k is {MIN_K} to {max(width, height)} on a {width} × {height} board, not {k}",
        )


class Position:
    """One game's board: the discs, the player to move, how the game stands. Changed in place by
    ``drop`` and ``undo``; read by the rest."""

    __slots__ = ("discs", "height", "heights", "k", "lines", "moves", "reason", "width", "winner")

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, k: int = K) -> None:
        check_shape(width, height, k)
        self.width, self.height, self.k = width, height, k
        self.discs = [0, 0, 0]  # [unused, X's bitboard, O's bitboard]: indexed by player
        self.heights = [0] * width  # discs in each column
        self.moves = 0  # discs on the board
        self.winner: Winner = 0
        self.reason: Reason | None = None
        # Once won by a line, the winning runs: a drop's through its disc, a posted board's all.
        self.lines: tuple[tuple[Cell, ...], ...] = ()

    @property
    def player(self) -> Player | None:
        """Who drops next; None once the game is over."""
        if self.reason is not None:
            return None
        return 1 if self.moves % 2 == 0 else 2

    @property
    def over(self) -> bool:
        return self.reason is not None

    @property
    def status(self) -> Status:
        if self.reason is None:
            return "in_progress"
        return "won" if self.winner else "draw"

    def legal_columns(self) -> list[int]:
        """The columns the player to move may drop into, left to right."""
        if self.reason is not None:
            return []
        height = self.height
        return [column for column, discs in enumerate(self.heights) if discs < height]

    def refusal(self, column: int) -> Refused | None:
        """Why a drop into ``column`` (0-based, on the board) is refused, or None."""
        self._check_column(column)
        if self.reason is not None:
            return "game_over"
        if self.heights[column] == self.height:
            return "column_full"
        return None

    def landing_row(self, column: int) -> int | None:
        """The row (from the top) a disc dropped into ``column`` lands in; None if it is full."""
        self._check_column(column)
        free = self.height - 1 - self.heights[column]
        return free if free >= 0 else None

    def check(self, column: int) -> ColumnCheck:
        """A drop into ``column`` by the player to move, asked about: nothing changes."""
        reason = self.refusal(column)
        if reason is not None:
            return ColumnCheck(False, reason, None, None, False)
        row = self.height - 1 - self.heights[column]
        bit = self._bit(column)
        own = self.discs[1 if self.moves % 2 == 0 else 2] | bit
        wins = any(1 + sum(self._run(own, bit, s)) >= self.k for s in self._shifts())
        return ColumnCheck(True, None, row, square(row, column, self.height), wins)

    def drop(self, column: int) -> Drop:
        """Drop the player to move's disc into ``column`` and settle the game: won by a line
        through it, drawn by the last empty cell, or on. ``ColumnFull`` for a full column;
        ValueError after the game is over (a session refuses that first with its own
        ``game_over`` error, ``app.sessions.errors.GameOver``, the one the contract answers)."""
        reason = self.refusal(column)
        if reason == "game_over":
            raise ValueError("the game is over: no disc is dropped after it")
        if reason == "column_full":
            raise ColumnFull(column, self.height)
        player: Player = 1 if self.moves % 2 == 0 else 2
        bit = self._bit(column)
        row = self.height - 1 - self.heights[column]
        own = self.discs[player] = self.discs[player] | bit
        self.heights[column] += 1
        self.moves += 1
        lines = []
        for s in self._shifts():
            back, ahead = self._run(own, bit, s)
            if back + 1 + ahead >= self.k:
                index = bit.bit_length() - 1
                lines.append(self._cells(range(index - back * s, index + (ahead + 1) * s, s)))
        if lines:
            self.winner, self.reason, self.lines = player, "line", tuple(lines)
        elif self.moves == self.width * self.height:
            self.reason = "board_full"
        return Drop(player, column, row, tuple(lines))

    def undo(self, column: int) -> int:
        """Take back the last drop, into ``column`` (a takeback), and answer the row it freed.
        ValueError if the top disc of ``column`` is not the last mover's: no drop of the game
        can have been the last there. Removing a disc makes no line: the game is on again,
        unless a line it was not part of is still there (a posted board's)."""
        self._check_column(column)
        reason = self.reason
        player: Player = 1 if self.moves % 2 == 1 else 2
        bit = self._bit(column) >> 1  # the column's top disc
        if not self.heights[column] or not self.discs[player] & bit:
            raise ValueError(f"column {column}'s top disc is not player {player}'s last drop")
        self.discs[player] ^= bit
        self.heights[column] -= 1
        self.moves -= 1
        self.winner, self.reason, self.lines = 0, None, ()
        if reason == "line":  # a posted board's other line may still stand: look again
            for other in PLAYERS:
                lines = _lines(self.discs[other], self.height, self.k)
                if lines:
                    self.winner, self.reason, self.lines = other, "line", lines
        return self.height - 1 - self.heights[column]

    def owner(self, row: int, column: int) -> Player | None:
        """Whose disc is at (row from the top, column); None if the cell is empty."""
        bit = 1 << (column * (self.height + 1) + self.height - 1 - row)
        if self.discs[1] & bit:
            return 1
        return 2 if self.discs[2] & bit else None

    def rows(self) -> list[str]:
        """The board as rows of ``X``, ``O`` and ``.``, top to bottom. The bitboards' binary
        digits read as hex give one digit a cell (1 for X, 2 for O: they never share a cell),
        highest bit first; reversed, each column's cells are one slice, bottom to top."""
        size = self.height + 1
        digits = int(f"{self.discs[1]:b}", 16) + 2 * int(f"{self.discs[2]:b}", 16)
        cells = f"{digits:0{self.width * size}x}"[::-1].translate(_CELL_OF_DIGIT)
        height = self.height
        columns = [cells[c * size : c * size + height][::-1] for c in range(self.width)]
        return ["".join(row) for row in zip(*columns, strict=True)]

    @classmethod
    def from_rows(cls, rows: Sequence[str], k: int = K) -> Position:
        """The position a posted board shows (rows top to bottom); BoardError if it is refused
        (see the module's docs for what is and why)."""
        height = len(rows)
        width = len(rows[0]) if height else 0
        check_shape(width, height, MIN_K)  # the size first: k's range depends on it
        for index, row in enumerate(rows):
            if len(row) != width:
                raise BoardError(
                    "board_not_rectangular",
                    f"row {index} has {len(row)} cells but row 0 has {width}",
                    index,
                )
            bad = _NOT_A_CELL.search(row)
            if bad is not None:
                raise BoardError(
                    "board_cell",
                    f"row {index}, column {bad.start()}: {bad.group()!r} is not 'X', 'O' or '.'",
                    index,
                )
        check_shape(width, height, k)
        position = cls(width, height, k)
        columns = ["".join(cells) for cells in zip(*rows, strict=True)]  # each top to bottom
        for column, cells in enumerate(columns):
            upwards = cells[::-1]
            held = len(upwards) - len(upwards.lstrip("XO"))  # the discs resting on the bottom
            above = upwards[held:]
            if above.strip(EMPTY):  # a disc above the first empty cell: the lowest one is named
                disc = held + len(above) - len(above.lstrip(EMPTY))
                raise BoardError(
                    "floating_disc",
                    f"floating disc at {LETTERS[column]}{disc + 1}: the cell under it, "
                    f"{LETTERS[column]}{disc}, is empty",
                )
            position.heights[column] = held
        # Highest bit first: column by column from the right, each its spare bit then its
        # cells top to bottom.
        text = "".join(EMPTY + cells for cells in reversed(columns))
        x, o = int(text.translate(_X_DIGITS), 2), int(text.translate(_O_DIGITS), 2)
        xs, os = x.bit_count(), o.bit_count()
        if not (xs == os or xs == os + 1):
            raise BoardError(
                "bad_counts",
                f"X has {xs} discs and O {os}: X moves first and the players alternate, so X "
                "has as many as O or one more",
            )
        position.discs, position.moves = [0, x, o], xs + os
        x_lines, o_lines = _lines(x, height, k), _lines(o, height, k)
        if x_lines and o_lines:
            raise BoardError(
                "both_won", f"both X and O have {k} in a row: play stops at the first line"
            )
        if x_lines or o_lines:
            position.winner = 1 if x_lines else 2
            position.reason, position.lines = "line", x_lines or o_lines
        elif position.moves == width * height:
            position.reason = "board_full"
        return position

    def _check_column(self, column: int) -> None:
        if not 0 <= column < self.width:
            raise ValueError(f"column {column} is not on a board {self.width} columns wide")

    def _bit(self, column: int) -> int:
        """The bit of the lowest empty cell of ``column`` (its spare bit when it is full)."""
        return 1 << (column * (self.height + 1) + self.heights[column])

    def _shifts(self) -> tuple[int, int, int, int]:
        size = self.height + 1
        return (1, size, size + 1, size - 1)  # up a column, along a row, both diagonals

    def _run(self, own: int, bit: int, shift: int) -> tuple[int, int]:
        """How many of ``own``'s discs follow ``bit`` backwards and forwards along ``shift``,
        each counted up to ``k - 1`` (enough to say whether the run through ``bit`` wins)."""
        limit = self.k - 1
        back = ahead = 0
        step = bit >> shift
        while back < limit and own & step:
            back += 1
            step >>= shift
        step = bit << shift
        while ahead < limit and own & step:
            ahead += 1
            step <<= shift
        return back, ahead

    def _cells(self, indices: Iterable[int]) -> tuple[Cell, ...]:
        return _cells_of(indices, self.height)


def _windows(bits: int, shift: int, k: int) -> int:
    """The bits that start k discs in a row along ``shift``: bit i is set when bits i, i +
    shift, …, i + (k - 1) shift all are. Each step doubles the length read (never by more than
    it has), so it takes ``log2 k`` steps."""
    length = 1
    while length < k:
        step = min(length, k - length)
        bits &= bits >> (step * shift)
        length += step
    return bits


def _lines(bits: int, height: int, k: int) -> tuple[tuple[Cell, ...], ...]:
    """Every maximal run of k or more of one player's discs, each one's cells sorted."""
    size = height + 1
    runs = []
    for shift in (1, size, size + 1, size - 1):
        starts = _windows(bits, shift, k) & ~(bits << shift)  # a window no disc comes before
        while starts:
            low = starts & -starts
            starts ^= low
            index = end = low.bit_length() - 1
            while bits >> end & 1:
                end += shift
            runs.append(_cells_of(range(index, end, shift), height))
    return tuple(runs)


def _cells_of(indices: Iterable[int], height: int) -> tuple[Cell, ...]:
    size = height + 1
    return tuple(sorted((height - 1 - index % size, index // size) for index in indices))


# --- notation -----------------------------------------------------------------------------------


def column_letter(column: int) -> str:
    """The letter of a column (0-based): ``a`` is the leftmost."""
    return LETTERS[column]


def square(row: int, column: int, height: int) -> str:
    """The name of a cell (row from the top, 0-based): its column letter, then its row counted
    from the bottom, 1-based (``d1`` is the bottom of the fourth column)."""
    return f"{LETTERS[column]}{height - row}"


def parse_column(text: str, width: int) -> int:
    """The column (0-based) a letter names, in either case (``{"square": "d"}``); NotationError
    for anything else or a column the board does not have."""
    if len(text) != 1 or not (text.isascii() and text.isalpha()):
        raise NotationError(f"a column is one letter, a to {LETTERS[width - 1]}, not {text!r}", 0)
    column = LETTERS.index(text.lower())
    if column >= width:
        raise NotationError(
            f"{text!r} is not a column of a board {width} wide: its columns are a to "
            f"{LETTERS[width - 1]}",
            0,
        )
    return column


def read_transcript(text: str, width: int, max_moves: int) -> list[int]:
    """The columns (0-based) of a transcript as the community writes games: one character a
    move, column digits 1-9 (``"4453"``, boards up to 9 columns wide) or letters in either
    case (``"ddec"``, any width), all one or all the other; spaces and line breaks may stand
    between moves. NotationError at the first character that is not a move of this board, or
    at move ``max_moves + 1``."""
    columns: list[int] = []
    digits: bool | None = None  # how this transcript writes its columns, once it has said
    for index, char in enumerate(text):
        if char in _SPACE:
            continue
        if "0" <= char <= "9":  # ASCII only: "５" is a digit to str.isdigit, not here
            is_digit, column = True, ord(char) - ord("1")
        elif char.isascii() and char.isalpha():
            is_digit, column = False, LETTERS.index(char.lower())
        else:
            raise NotationError(
                f"{char!r} is not a column: a transcript is column digits (4453) or letters "
                "(ddec), one a move",
                index,
            )
        if digits is not None and is_digit != digits:
            raise NotationError(
                "a transcript writes every column the same way: all digits or all letters", index
            )
        digits = is_digit
        if is_digit and width > MAX_DIGIT_WIDTH:
            raise NotationError(
                f"a board {width} columns wide is written in letters (a to "
                f"{LETTERS[width - 1]}): digits go up to {MAX_DIGIT_WIDTH} columns",
                index,
            )
        if not 0 <= column < width:
            last = str(width) if is_digit else LETTERS[width - 1]
            raise NotationError(
                f"{char!r} is not a column of a board {width} wide: its columns are "
                f"{'1' if is_digit else 'a'} to {last}",
                index,
            )
        if len(columns) == max_moves:
            raise NotationError(f"a record has at most {max_moves} moves", index)
        columns.append(column)
    return columns


def write_transcript(columns: Iterable[int], width: int) -> str:
    """The transcript of ``columns`` (0-based) on a board ``width`` wide: digits 1-9 where it
    is at most 9 columns wide, else lower-case letters. ValueError for a column off the board."""
    alphabet = "123456789" if width <= MAX_DIGIT_WIDTH else LETTERS[:width]
    written = []
    for column in columns:
        if not 0 <= column < width:
            raise ValueError(f"column {column} is not on a board {width} columns wide")
        written.append(alphabet[column])
    return "".join(written)
