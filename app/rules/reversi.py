"""Reversi/Othello rules, for any rectangle from 1 × 1 to 32 × 32.

A move is legal when, in at least one of the 8 directions, the cells next to it are one or more
opponent stones followed directly by a stone of the mover's colour; those stones flip.

Three representations of a position, each computed from another when first needed:

* **Rows** (strings over ``.BW``), as clients post them. One question about one cell is
  answered by walking the 8 directions from that cell: it touches a few cells and needs no
  conversion of the whole board.
* **Bitboards**, one int per colour. Cell (r, c) is bit ``r * W + c`` with ``W = cols + 1``:
  every row carries one padding bit that is never set. A step in a direction is one shift by
  ``dr * W + dc``; a step off the left or right edge lands on padding (or off the int), and
  masking with the opponent's stones, which never include padding, discards it. No edge masks
  are needed, and Python's unbounded ints serve 8 × 8 and 32 × 32 alike. A move is played on
  these: its flips are walked out from its bit, the board after it is two ``|`` and ``&``, and
  whether a colour can move stops at the first direction that finds a move — so a game played
  move after move (a session, an audit) never converts a board, and its rows are written only
  when someone reads them.
* **Lanes**, for all legal moves at once: each colour is one int holding the board in the low
  bits and, above a gap of zeros, the board rotated by 180°. Rotation turns a direction into
  its opposite, so one loop of left shifts floods a direction in the low lane and its opposite
  in the high lane: 4 loops instead of 8. The gap is wider than any step, so nothing crosses
  from one lane to the other, and the rotated lane's padding column is simply its first column.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple, Protocol

from app.rules.colors import Color
from app.rules.errors import RuleError

Reason = Literal["occupied", "no_bracket"]
# Why a move of a game (a list of moves played one after another) is refused: a reason a cell
# is not a move, or the game having ended before it.
Refused = Reason | Literal["game_over"]
Winner = Literal["B", "W", "draw"]

MAX_SIDE = 32
BLACK: Color = "B"
WHITE: Color = "W"
EMPTY = "."

# The standard 8 × 8 starting position.
OPENING: tuple[str, ...] = (
    "........",
    "........",
    "........",
    "...WB...",
    "...BW...",
    "........",
    "........",
    "........",
)

# str.translate tables: a board string -> one binary digit per cell for one colour.
_BLACK_DIGITS = str.maketrans({"B": "1", "W": "0", ".": "0"})
_WHITE_DIGITS = str.maketrans({"B": "0", "W": "1", ".": "0"})
# And back: one hex digit per cell, 1 for Black and 2 for White (see ``_rows_of``).
_CELL_OF_DIGIT = str.maketrans({"0": EMPTY, "1": BLACK, "2": WHITE})


def opponent(color: Color) -> Color:
    """The other colour."""
    return WHITE if color == BLACK else BLACK


class IllegalMove(RuleError):
    """A move that is not legal for its colour on the posted board; in a list of moves played
    one after another (``apply_moves``), also its ``index`` and (where the caller names squares)
    its ``square``, and ``game_over`` for a move after the end (``color`` then null)."""

    code = "illegal_move"

    def __init__(
        self,
        row: int,
        col: int,
        color: Color | None,
        reason: Refused,
        index: int | None = None,
        square: str | None = None,
    ) -> None:
        self.row, self.col, self.color, self.reason = row, col, color, reason
        self.index, self.square = index, square
        why = {
            "occupied": "the cell is occupied",
            "no_bracket": "it brackets no opponent stone",
            "game_over": "the game is over: neither colour has a move",
        }[reason]
        move = f"({row}, {col})" if square is None else f"{square} ({row}, {col})"
        where = "" if index is None else f"moves[{index}]: "
        who = f"{move} cannot be played" if color is None else f"{color} cannot play {move}"
        super().__init__(f"{where}{who}: {why}")

    def details(self) -> dict[str, object]:
        details: dict[str, object] = {
            "reason": self.reason, "row": self.row, "col": self.col, "color": self.color
        }  # fmt: skip
        if self.index is not None:
            details["index"] = self.index
        if self.square is not None:
            details["square"] = self.square
        return details


DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

# Byte -> the same byte with its 8 bits in reverse order (for rotating a bitboard by 180°).
_REVERSED_BYTE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _reverse_bits(x: int, width: int) -> int:
    """``x`` with its lowest ``width`` bits in reverse order: bit i moves to ``width - 1 - i``.

    Whole bytes are reversed by a table in C (to_bytes, translate, from_bytes), then the result
    is shifted back into place.
    """
    size = (width + 7) // 8
    flipped = int.from_bytes(x.to_bytes(size, "little").translate(_REVERSED_BYTE), "big")
    return flipped >> (size * 8 - width)


@dataclass(frozen=True, slots=True)
class Geometry:
    """What depends only on the board's shape (computed once per shape)."""

    rows: int
    cols: int
    width: int  # cols + 1: the padding column
    cells: int  # rows * width: bits in one lane
    full: int  # every real cell of the low lane
    offset: int  # where the rotated lane starts
    both_full: int  # every real cell of both lanes
    gap: str  # the empty cells between the lanes, in text form
    # E, SW, S, SE as bit offsets; W, NE, N, NW are the same amounts shifted the other way.
    shifts: tuple[int, ...]
    # The eight cells around cell (1, 1), whose index is ``width + 1``: shifted up by a cell's
    # index and down by ``width + 1``, the cells around that cell (those off the board land on
    # padding or fall off the int, where no stone is).
    ring: int

    def with_rotation(self, bits: int) -> int:
        """A one-lane bitboard plus its 180° rotation in the high lane."""
        return bits | (_reverse_bits(bits, self.cells) << self.offset)


@lru_cache(maxsize=MAX_SIDE * MAX_SIDE)
def geometry(rows: int, cols: int) -> Geometry:
    """The shape data for a ``rows`` × ``cols`` board."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"board must be 1..{MAX_SIDE} × 1..{MAX_SIDE}, got {rows} × {cols}")
    width = cols + 1
    cells = rows * width
    row_mask = (1 << cols) - 1
    full = 0
    for r in range(rows):
        full |= row_mask << (r * width)
    gap = width + 1  # more than the longest step, so no shift crosses between the lanes
    offset = cells + gap
    both_full = full | (_reverse_bits(full, cells) << offset)
    shifts = (1, width - 1, width, width + 1)
    ring = 0
    for step in shifts:  # (one column wide, a step south-west is a step east: or, not sum)
        ring |= 1 << (width + 1 + step) | 1 << (width + 1 - step)
    return Geometry(rows, cols, width, cells, full, offset, both_full, EMPTY * gap, shifts, ring)


class Board:
    """One Reversi position, readable as rows of text, as bitboards or as lanes.

    Built from rows or from bitboards; the other forms are computed on first use and kept.
    Treat it as an immutable value: nothing changes a Board after it is built.
    """

    __slots__ = ("_bits", "_lanes", "_text", "cols", "geometry", "rows")

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        text: tuple[str, ...] | None = None,
        lanes: tuple[int, int] | None = None,
        bits: tuple[int, int] | None = None,
        geo: Geometry | None = None,
    ) -> None:
        if text is None and lanes is None and bits is None:
            raise ValueError("a Board needs its rows or its bitboards")
        self.rows, self.cols = rows, cols
        self._text, self._lanes, self._bits = text, lanes, bits
        self.geometry: Geometry = geometry(rows, cols) if geo is None else geo

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """From equal-length strings over ``.BW`` (the caller has checked them). Built without
        ``__init__``, as ``_played`` is: a posted board is built a request."""
        height, width = len(rows), len(rows[0]) if rows else 0
        if not (0 < height <= MAX_SIDE and 0 < width <= MAX_SIDE):
            raise ValueError(f"board must be 1..{MAX_SIDE} × 1..{MAX_SIDE}")
        board = object.__new__(cls)
        board.rows, board.cols, board.geometry = height, width, geometry(height, width)
        board._text, board._bits, board._lanes = tuple(rows), None, None
        return board

    @classmethod
    def from_bitboards(cls, rows: int, cols: int, black: int, white: int) -> Board:
        return cls(rows, cols, bits=(black, white))

    @classmethod
    def _played(cls, geo: Geometry, black: int, white: int) -> Board:
        """A board a move made: its bitboards only. Built without ``__init__`` (its keywords
        and checks cost as much as playing the move's bits did)."""
        board = object.__new__(cls)
        board.rows, board.cols, board.geometry = geo.rows, geo.cols, geo
        board._bits, board._text, board._lanes = (black, white), None, None
        return board

    def bits(self) -> tuple[int, int]:
        """(black, white) as one-lane bitboards."""
        if self._bits is None:
            if self._lanes is not None:
                full = self.geometry.full
                self._bits = (self._lanes[0] & full, self._lanes[1] & full)
            else:
                assert self._text is not None
                # Cell i at bit i: the digits of the rows (and padding) are written reversed.
                digits = (EMPTY.join(self._text) + EMPTY)[::-1]
                self._bits = (
                    int(digits.translate(_BLACK_DIGITS), 2),
                    int(digits.translate(_WHITE_DIGITS), 2),
                )
        return self._bits

    def lanes(self) -> tuple[int, int]:
        """(black, white), each with the rotated board in its high lane."""
        if self._lanes is None:
            geo = self.geometry
            if self._bits is not None:
                black, white = self._bits
                self._lanes = (geo.with_rotation(black), geo.with_rotation(white))
            else:
                assert self._text is not None
                # Low lane: cell i at bit i, so its digits are written last and reversed. High
                # lane: the rotation puts cell i at its top minus i, so its digits read forwards.
                forward = EMPTY.join(self._text) + EMPTY
                both = forward + geo.gap + forward[::-1]
                self._lanes = (
                    int(both.translate(_BLACK_DIGITS), 2),
                    int(both.translate(_WHITE_DIGITS), 2),
                )
        return self._lanes

    @property
    def black(self) -> int:
        return self.bits()[0]

    @property
    def white(self) -> int:
        return self.bits()[1]

    def stones(self, color: Color) -> tuple[int, int]:
        """(own, opponent) one-lane bitboards from ``color``'s point of view."""
        black, white = self.bits()
        return (black, white) if color == BLACK else (white, black)

    def cells(self, mask: int) -> list[tuple[int, int]]:
        """The (row, col) of every set bit of a one-lane ``mask``, in (row, col) order (a bit's
        index grows with its row, then its column)."""
        width = self.cols + 1
        cells = []
        while mask:
            low = mask & -mask
            cells.append(divmod(low.bit_length() - 1, width))
            mask ^= low
        return cells

    def cell_lists(self, mask: int) -> list[list[int]]:
        """``cells(mask)`` as ``[row, col]`` lists, the shape move records carry them in, made
        in the same pass (a list a cell, no tuple between)."""
        width = self.cols + 1
        cells = []
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            cells.append([index // width, index % width])
            mask ^= low
        return cells

    def text(self) -> tuple[str, ...]:
        """The rows as strings."""
        if self._text is None:
            self._text = _rows_of(self.rows, self.cols, *self.bits())
        return self._text

    def to_rows(self) -> list[str]:
        return list(self.text())

    def counts(self) -> tuple[int, int]:
        """(black, white): each colour's stones."""
        black, white = self.bits()
        return black.bit_count(), white.bit_count()

    def score(self) -> dict[Color, int]:
        black, white = self.counts()
        return {BLACK: black, WHITE: white}


def _outside(board: Board, row: int, col: int) -> IndexError:
    return IndexError(f"({row}, {col}) is outside the {board.rows} × {board.cols} board")


def _rows_of(rows: int, cols: int, black: int, white: int) -> tuple[str, ...]:
    """The rows of one-lane bitboards, without a loop over cells: the binary digits of ``black``
    read as hex give one hex digit per cell, 1 where Black has a stone; ``white``'s, doubled,
    2 where White has one. The colours never share a cell, so their sum has one digit per cell,
    0, 1 or 2 (highest cell first), and ``str.translate`` makes them ``.BW``."""
    width = cols + 1
    digits = int(f"{black:b}", 16) + 2 * int(f"{white:b}", 16)
    text = f"{digits:0{rows * width}x}"[::-1].translate(_CELL_OF_DIGIT)
    return tuple(text[r * width : r * width + cols] for r in range(rows))


def legal_moves_mask(board: Board, color: Color) -> int:
    """Every cell where ``color`` may play, as a one-lane bitboard.

    For each direction, flood from the mover's stones through contiguous opponent stones; a
    cell reached directly after at least one opponent stone is a move if it is empty. Each loop
    runs once per opponent stone in the longest run, and covers a direction in the low lane and
    its opposite in the rotated high lane.
    """
    geo = board.geometry
    black, white = board.lanes()
    own, opp = (black, white) if color == BLACK else (white, black)
    reached = 0
    for s in geo.shifts:
        run = (own << s) & opp
        while run:
            run <<= s
            reached |= run
            run &= opp
    moves = reached & geo.both_full & ~(own | opp)
    return (moves & geo.full) | _reverse_bits(moves >> geo.offset, geo.cells)


def has_legal_move(board: Board, color: Color) -> bool:
    """Whether ``color`` may play anywhere: ``legal_moves_mask(board, color) != 0``, answered
    on the one-lane bitboards and stopping at the first move found."""
    own, opp = board.stones(color)
    return _can_move(own, opp, board.geometry.full & ~(own | opp), board.geometry.shifts)


def _can_move(own: int, opp: int, empty: int, shifts: tuple[int, ...]) -> bool:
    """Whether the player of ``own`` has a move against ``opp``.

    First every direction one step deep (an empty cell right behind one opponent stone next to
    one of ours: most positions have such a move, found in a few operations); only if none is,
    the full flood, direction by direction, each one's runs followed to their ends. A full
    board (most games' end) has no move, and no flood is needed to say so.
    """
    if not empty:
        return False
    for s in shifts:
        if ((((own << s) & opp) << s) | (((own >> s) & opp) >> s)) & empty:
            return True
    for s in shifts:
        reached = 0
        run = (own << s) & opp
        while run:
            run <<= s
            reached |= run
            run &= opp
        run = (own >> s) & opp
        while run:
            run >>= s
            reached |= run
            run &= opp
        if reached & empty:
            return True
    return False


def _near(geo: Geometry, at: int, opp: int) -> int:
    """The stones of ``opp`` on the cells around the cell of index ``at``."""
    return ((geo.ring << at) >> (geo.width + 1)) & opp


def _flips(own: int, opp: int, move: int, near: int) -> int:
    """The stones of ``opp`` bracketed by the stone ``move`` and ``own``. ``near``: the stones
    of ``opp`` next to ``move`` (``_near``). Each is the first of a run in
    its own direction (the step from ``move`` to it, up the bits or down), which flips if a
    stone of ``own`` closes it: only the directions that start with an opponent stone are
    walked (most have none)."""
    flips, at = 0, move.bit_length()
    while near:
        x = near & -near
        near ^= x
        line = x
        step = x.bit_length() - at
        if step > 0:
            x <<= step
            while x & opp:
                line |= x
                x <<= step
        else:
            step = -step
            x >>= step
            while x & opp:
                line |= x
                x >>= step
        if x & own:
            flips |= line
    return flips


def move_flips(board: Board, row: int, col: int, color: Color) -> int | None:
    """The stones a move by ``color`` at (row, col) flips, as a one-lane bitboard: None if the
    cell is occupied, 0 if the move brackets nothing (it is illegal), else the move is legal.

    The bitboard twin of ``walk_flips``, for a board a move made (its bitboards are at hand).
    """
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        raise _outside(board, row, col)
    at = row * board.geometry.width + col
    black, white = board.bits()
    move = 1 << at
    if (black | white) & move:
        return None
    if color == BLACK:
        return _flips(black, white, move, _near(board.geometry, at, white))
    return _flips(white, black, move, _near(board.geometry, at, black))


@lru_cache(maxsize=4096)
def _rays(rows: int, cols: int, row: int, col: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """From (row, col), the cells of each direction up to the edge (those with at least two
    cells: a bracket needs an opponent stone and one of ours). Depends only on the shape."""
    rays = []
    for dr, dc in DIRECTIONS:
        ray = []
        r, c = row + dr, col + dc
        while 0 <= r < rows and 0 <= c < cols:
            ray.append((r, c))
            r, c = r + dr, c + dc
        if len(ray) >= 2:
            rays.append(tuple(ray))
    return tuple(rays)


def walk_flips(board: Board, row: int, col: int, color: Color) -> list[tuple[int, int]] | None:
    """The stones a move at (row, col) flips, walking out from that cell; None if occupied.

    For one cell of a posted board this beats converting the whole board to bitboards: it
    reads only the cells next to the move and the runs behind them, along precomputed rays (no
    bounds checks). A board a move made has bitboards and no rows yet: see ``move_flips``.
    """
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        raise _outside(board, row, col)
    grid = board.text()
    if grid[row][col] != EMPTY:
        return None
    other = WHITE if color == BLACK else BLACK
    flips: list[tuple[int, int]] = []
    for ray in _rays(board.rows, board.cols, row, col):
        r, c = ray[0]
        if grid[r][c] != other:
            continue  # most directions end here: no opponent stone next to the move
        for steps, (r, c) in enumerate(ray):
            cell = grid[r][c]
            if cell != other:
                if cell == color:  # the run is closed by our own stone: it flips
                    flips += ray[:steps]
                break
    flips.sort()
    return flips


class MoveCheck(NamedTuple):
    legal: bool
    reason: Reason | None
    flips: list[tuple[int, int]]


def check_move(board: Board, row: int, col: int, color: Color) -> MoveCheck:
    """Whether ``color`` may play at (row, col), why not, and which stones it flips."""
    flips = walk_flips(board, row, col, color)
    if flips is None:
        return MoveCheck(False, "occupied", [])
    if not flips:
        return MoveCheck(False, "no_bracket", [])
    return MoveCheck(True, None, flips)


class BoardChecks:
    """``check_move`` of many cells of one board (a batch's questions): each colour's legal moves
    are found once, as a bitboard (``legal_moves_mask``), and each cell is then answered by its
    bit: occupied, no bracket, or a legal move and its flips, walked out on the bitboards."""

    __slots__ = ("_board", "_cols", "_legal", "_rows", "_taken", "_width")

    def __init__(self, board: Board) -> None:
        black, white = board.bits()
        self._board, self._taken = board, black | white
        self._rows, self._cols, self._width = board.rows, board.cols, board.geometry.width
        self._legal: dict[Color, int] = {}  # by colour, when first asked

    def check(self, row: int, col: int, color: Color) -> MoveCheck:
        """``check_move(board, row, col, color)``."""
        if not (0 <= row < self._rows and 0 <= col < self._cols):
            raise _outside(self._board, row, col)
        move = 1 << (row * self._width + col)
        if self._taken & move:
            return _OCCUPIED
        legal = self._legal.get(color)
        if legal is None:
            legal = self._legal[color] = legal_moves_mask(self._board, color)
        if not legal & move:
            return _NO_BRACKET
        board = self._board
        own, opp = board.stones(color)
        near = _near(board.geometry, row * self._width + col, opp)
        return MoveCheck(True, None, board.cells(_flips(own, opp, move, near)))


# The answers of every illegal move: one value each (their empty flips are never changed).
_OCCUPIED = MoveCheck(False, "occupied", [])
_NO_BRACKET = MoveCheck(False, "no_bracket", [])


class LegalMove(NamedTuple):
    row: int
    col: int
    flips: int


def legal_moves(board: Board, color: Color) -> list[LegalMove]:
    """All legal moves of ``color`` in (row, col) order, each with how many stones it flips."""
    mask = legal_moves_mask(board, color)  # first: the lanes give the bitboards too
    own, opp = board.stones(color)
    geo = board.geometry
    width, ring, down = geo.width, geo.ring, geo.width + 1
    moves: list[LegalMove] = []
    # The mask's bits walked here, lowest first (a bit's index grows with its row, then its
    # column), each move's ``_near`` inline and its tuple made without ``LegalMove``'s
    # ``__new__`` (a Python function): legal-moves asks for this once a request.
    while mask:
        move = mask & -mask
        mask ^= move
        at = move.bit_length() - 1
        flips = _flips(own, opp, move, ((ring << at) >> down) & opp)
        assert flips  # every cell of the legal-move mask flips something
        moves.append(_new_tuple(LegalMove, (*divmod(at, width), flips.bit_count())))
    return moves


_new_tuple = tuple.__new__


# The position after a move, who moves next -- the opponent, or (``passed``: the opponent has
# no move) the mover again, or nobody (None: the game is over) -- and ``passed``. A plain
# tuple: a NamedTuple's ``__new__`` is a Python function, called once a move.
Turn = tuple[Board, Color | None, bool]


def after_move(board: Board, row: int, col: int, color: Color, flips: int) -> Turn:
    """Play a legal move whose flips are known (``move_flips``'s answer, not 0) and say who
    moves next: the opponent if it has a legal move; otherwise it must pass and ``color`` moves
    again; if neither side can move the game is over.

    Only the bitboards are built (the move's bit and the flips set for the mover, the flips
    cleared for the opponent: ``^``, as they are all its stones); the rows follow when read.
    """
    geo = board.geometry
    black, white = board.bits()
    move = 1 << (row * geo.width + col)
    empty = geo.full & ~(black | white | move)  # the same for both colours' question
    if color == BLACK:
        own, opp = black | flips | move, white ^ flips
        after = Board._played(geo, own, opp)
    else:
        own, opp = white | flips | move, black ^ flips
        after = Board._played(geo, opp, own)
    if _can_move(opp, own, empty, geo.shifts):
        return after, WHITE if color == BLACK else BLACK, False
    if _can_move(own, opp, empty, geo.shifts):
        return after, color, True
    return after, None, False


def undo_move(
    board: Board, row: int, col: int, color: Color, flips: Iterable[Sequence[int]]
) -> Board:
    """The board before ``color``'s move at (row, col) that flipped ``flips`` (its cells), the
    board after it being ``board``: the stone lifted, the flips turned back (a takeback)."""
    geo = board.geometry
    black, white = board.bits()
    move = 1 << (row * geo.width + col)
    mask = 0
    for r, c in flips:
        mask |= 1 << (r * geo.width + c)
    if color == BLACK:
        return Board._played(geo, black & ~(mask | move), white | mask)
    return Board._played(geo, black | mask, white & ~(mask | move))


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    board: Board
    flips: list[tuple[int, int]]
    next: Color | None
    passed: bool
    game_over: bool
    score: dict[Color, int]
    winner: Winner | None
    final_score: dict[Color, int] | None  # once the game is over: ``federation_score``


def federation_score(black: int, white: int, squares: int) -> tuple[int, int]:
    """Black's and White's score of a game played out (neither colour can move) as the World
    Othello Federation counts it, and the WTHOR database stores it: each colour's stones, and
    the empty squares to the winner (the colour with more stones); on a draw they are split
    equally, an odd one left over given to nobody."""
    empty = squares - black - white
    if black > white:
        return black + empty, white
    if white > black:
        return black, white + empty
    return black + empty // 2, white + empty // 2


def apply_move(board: Board, row: int, col: int, color: Color) -> MoveOutcome:
    """Play a legal move and say who moves next (``after_move``), which stones flipped, the
    score, and once the game is over the winner (the side with more stones) and the final score
    (``federation_score``).

    Raises ``IllegalMove`` for an illegal move.
    """
    flips = move_flips(board, row, col, color)
    if not flips:
        raise IllegalMove(row, col, color, "occupied" if flips is None else "no_bracket")
    return _outcome(board, row, col, color, flips)


def _outcome(board: Board, row: int, col: int, color: Color, flips: int) -> MoveOutcome:
    after, next_color, passed = after_move(board, row, col, color, flips)
    black, white = after.counts()
    winner: Winner | None = None
    final: dict[Color, int] | None = None
    if next_color is None:
        winner = BLACK if black > white else WHITE if white > black else "draw"
        final_black, final_white = federation_score(black, white, board.rows * board.cols)
        final = {BLACK: final_black, WHITE: final_white}
    return MoveOutcome(
        after,
        board.cells(flips),
        next_color,
        passed,
        next_color is None,
        {BLACK: black, WHITE: white},
        winner,
        final,
    )


def apply_moves(
    board: Board, color: Color, cells: Sequence[tuple[int, int]], names: Sequence[str] = ()
) -> MoveOutcome:
    """Play ``cells`` one after another from ``board``, ``color`` first, with passes inferred:
    a colour that has no legal move passes, so each move is played by the colour ``after_move``
    names (and the first by ``color``, or by its opponent if ``color`` has no move). The
    outcome is the last move's, as ``apply_move`` gives it.

    Raises ``IllegalMove`` for the first move that is not legal, with its index in ``cells``
    (and its name in ``names``, if given): ``game_over`` for a move after the end.
    """
    if not cells:
        raise ValueError("no moves to play")
    to_move: Color | None = color
    if not has_legal_move(board, color):
        to_move = opponent(color) if has_legal_move(board, opponent(color)) else None
    last = len(cells) - 1
    for index, (row, col) in enumerate(cells):
        name = names[index] if names else None
        if to_move is None:
            raise IllegalMove(row, col, None, "game_over", index, name)
        flips = move_flips(board, row, col, to_move)
        if not flips:
            why: Reason = "occupied" if flips is None else "no_bracket"
            raise IllegalMove(row, col, to_move, why, index, name)
        if index == last:
            return _outcome(board, row, col, to_move, flips)
        board, to_move, _ = after_move(board, row, col, to_move, flips)
    raise AssertionError("unreachable: the last move returns")


# Why ``play_through`` stopped at a cell: it is no move of the player to move (outside the
# board, occupied, bracketing nothing), or the game ended before it.
Stop = Literal["outside", "occupied", "no_bracket", "game_over"]


@dataclass(frozen=True, slots=True)
class Through:
    """Moves played one after another (``play_through``): the board after those played, the
    colour to move after them (None: the game is over), each one's flips (one-lane bitboards,
    in order: as many as were played), the indices in ``flips`` of the moves after which the
    opponent had no move and passed (the mover moved again), and where it stopped: the index
    of the cell that was refused and why, with the colour that was to move there (None if
    every cell was played)."""

    board: Board
    next: Color | None
    flips: list[int]
    passes: list[int]
    stopped: tuple[int, Stop, Color | None] | None


class Cell(Protocol):
    """A cell of a board, as a caller holds it (a session's ``Placement``): its row and column."""

    @property
    def row(self) -> int: ...

    @property
    def col(self) -> int: ...


def play_through(board: Board, color: Color | None, cells: Iterable[Cell]) -> Through:
    """Play ``cells`` one after another from ``board``, ``color`` to move (a colour that has a
    legal move there, or None: the game is over), each by the colour to move, passes inferred
    (``after_move``'s rule): the same moves as ``after_move`` played cell after cell, for a
    whole game at once (an audit's replay).

    Whether the opponent of the last mover must pass is asked only where it matters: a cell it
    can play proves it has a move, so the question (``_can_move``, the costliest part of
    ``after_move``) is asked only before a cell it cannot play, and after the last cell. Stops
    at the first cell the colour to move cannot play (``Through.stopped``)."""
    geo = board.geometry
    rows, cols, width, full, shifts = geo.rows, geo.cols, geo.width, geo.full, geo.shifts
    ring, reach = geo.ring, width + 1  # the cells around a cell (``_near``), inline
    black, white = board.bits()
    black_first = color != WHITE  # whose stones ``own`` are at first (when nobody moves: unused)
    own, opp = (black, white) if black_first else (white, black)  # the colour to move's first
    flips_of: list[int] = []
    played = flips_of.append
    passes: list[int] = []
    settled = 0  # the moves played when the colour of ``own`` was last known to have a move
    over = color is None
    stopped: tuple[int, Stop, Color | None] | None = None
    for cell in cells:  # (after the end no cell flips anything: each goes the slow way)
        row, col = cell.row, cell.col
        if 0 <= row < rows and 0 <= col < cols:
            at = row * width + col
            move = 1 << at
            if not (own | opp) & move:
                flips = _flips(own, opp, move, ((ring << at) >> reach) & opp)
                if flips:  # a move of the colour expected: it had one, and it is played
                    own, opp = opp ^ flips, own | flips | move
                    played(flips)
                    continue
        # Not a move of the colour expected, which may have none: then it passes.
        index = len(flips_of)
        if over:
            stopped = (index, "game_over", None)
            break
        inside = 0 <= row < rows and 0 <= col < cols
        move = 1 << (row * width + col) if inside else 0
        if settled != index:
            settled = index
            empty = full & ~(own | opp)
            if not _can_move(own, opp, empty, shifts):
                if not _can_move(opp, own, empty, shifts):
                    stopped, over = (index, "game_over", None), True
                    break
                passes.append(index - 1)
                own, opp = opp, own
                if inside and not (own | opp) & move:
                    at = row * width + col
                    flips = _flips(own, opp, move, ((ring << at) >> reach) & opp)
                    if flips:
                        own, opp = opp ^ flips, own | flips | move
                        played(flips)
                        continue
        black_moves = black_first == ((index + len(passes)) % 2 == 0)
        why: Stop = "outside" if not inside else "occupied" if (own | opp) & move else "no_bracket"
        stopped = (index, why, BLACK if black_moves else WHITE)
        break
    count = len(flips_of)
    if not over and settled != count:  # after the last move: who moves, as ``after_move`` says
        empty = full & ~(own | opp)
        if not _can_move(own, opp, empty, shifts):
            if _can_move(opp, own, empty, shifts):
                passes.append(count - 1)
                own, opp = opp, own
            else:
                over = True
    black_moves = black_first == ((count + len(passes)) % 2 == 0)
    black, white = (own, opp) if black_moves else (opp, own)
    after = Board._played(geo, black, white) if flips_of else board
    to_move = None if over else BLACK if black_moves else WHITE
    return Through(after, to_move, flips_of, passes, stopped)


def standard_start(height: int, width: int) -> list[str]:
    """The four start stones in the centre: ``WB`` over ``BW``."""
    rows = [[EMPTY] * width for _ in range(height)]
    top, left = height // 2 - 1, width // 2 - 1
    rows[top][left], rows[top][left + 1] = WHITE, BLACK
    rows[top + 1][left], rows[top + 1][left + 1] = BLACK, WHITE
    return ["".join(row) for row in rows]
