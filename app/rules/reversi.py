"""Reversi/Othello rules, for any rectangle from 1 × 1 to 32 × 32.

A move is legal when, in at least one of the 8 directions, the cells next to it are one or more
opponent stones followed directly by a stone of the mover's colour; those stones flip.

Two representations of a position, each computed from the other when first needed:

* **Rows** (strings over ``.BW``), as clients post them. One question about one cell is
  answered by walking the 8 directions from that cell: it touches a few cells and needs no
  conversion of the whole board.
* **Bitboards**, for questions about the whole board. Cell (r, c) is bit ``r * W + c`` with
  ``W = cols + 1``: every row carries one padding bit that is never set. A step in a direction
  is one shift by ``dr * W + dc``; a step off the left or right edge lands on padding (or off
  the int), and masking with the opponent's stones, which never include padding, discards it.
  No edge masks are needed, and Python's unbounded ints serve 8 × 8 and 32 × 32 alike.

  For all legal moves each colour is one int holding two *lanes*: the board in the low bits
  and, above a gap of zeros, the board rotated by 180°. Rotation turns a direction into its
  opposite, so one loop of left shifts floods a direction in the low lane and its opposite in
  the high lane: 4 loops instead of 8. The gap is wider than any step, so nothing crosses from
  one lane to the other, and the rotated lane's padding column is simply its first column.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from app.rules.errors import RuleError

Color = Literal["B", "W"]
Reason = Literal["occupied", "no_bracket"]
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


def opponent(color: Color) -> Color:
    """The other colour."""
    return WHITE if color == BLACK else BLACK


class IllegalMove(RuleError):
    """A move that is not legal for its colour on the posted board."""

    code = "illegal_move"

    def __init__(self, row: int, col: int, color: Color, reason: Reason) -> None:
        self.row, self.col, self.color, self.reason = row, col, color, reason
        why = "the cell is occupied" if reason == "occupied" else "it brackets no opponent stone"
        super().__init__(f"{color} cannot play ({row}, {col}): {why}")

    def details(self) -> dict[str, object]:
        return {"reason": self.reason, "row": self.row, "col": self.col, "color": self.color}


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
    return Geometry(rows, cols, width, cells, full, offset, both_full, EMPTY * gap, shifts)


class Board:
    """One Reversi position, readable as rows of text or as bitboards.

    Built from either form; the other is computed on first use and kept. Treat it as an
    immutable value: nothing changes a Board after it is built.
    """

    __slots__ = ("_lanes", "_text", "cols", "rows")

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        text: tuple[str, ...] | None = None,
        lanes: tuple[int, int] | None = None,
    ) -> None:
        if text is None and lanes is None:
            raise ValueError("a Board needs its rows or its bitboards")
        self.rows, self.cols = rows, cols
        self._text, self._lanes = text, lanes

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """From equal-length strings over ``.BW`` (the caller has checked them)."""
        if not (0 < len(rows) <= MAX_SIDE and 0 < len(rows[0]) <= MAX_SIDE):
            raise ValueError(f"board must be 1..{MAX_SIDE} × 1..{MAX_SIDE}")
        return cls(len(rows), len(rows[0]), text=tuple(rows))

    @classmethod
    def from_bitboards(cls, rows: int, cols: int, black: int, white: int) -> Board:
        geo = geometry(rows, cols)
        return cls(rows, cols, lanes=(geo.with_rotation(black), geo.with_rotation(white)))

    @property
    def geometry(self) -> Geometry:
        return geometry(self.rows, self.cols)

    def lanes(self) -> tuple[int, int]:
        """(black, white), each with the rotated board in its high lane."""
        if self._lanes is None:
            assert self._text is not None
            # Low lane: cell i at bit i, so its digits are written last and reversed. High
            # lane: the rotation puts cell i at its top minus i, so its digits read forwards.
            forward = EMPTY.join(self._text) + EMPTY
            both = forward + self.geometry.gap + forward[::-1]
            self._lanes = (
                int(both.translate(_BLACK_DIGITS), 2),
                int(both.translate(_WHITE_DIGITS), 2),
            )
        return self._lanes

    @property
    def black(self) -> int:
        return self.lanes()[0] & self.geometry.full

    @property
    def white(self) -> int:
        return self.lanes()[1] & self.geometry.full

    def stones(self, color: Color) -> tuple[int, int]:
        """(own, opponent) one-lane bitboards from ``color``'s point of view."""
        return (self.black, self.white) if color == BLACK else (self.white, self.black)

    def bit(self, row: int, col: int) -> int:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"({row}, {col}) is outside the {self.rows} × {self.cols} board")
        return 1 << (row * (self.cols + 1) + col)

    def cells(self, mask: int) -> list[tuple[int, int]]:
        """The (row, col) of every set bit of a one-lane ``mask``, in (row, col) order."""
        return [divmod(i, self.cols + 1) for i in _bit_indices(mask)]

    def text(self) -> tuple[str, ...]:
        """The rows as strings."""
        if self._text is None:
            width = self.cols + 1
            cells = bytearray(EMPTY.encode() * (self.rows * width))
            for i in _bit_indices(self.black):
                cells[i] = ord(BLACK)
            for i in _bit_indices(self.white):
                cells[i] = ord(WHITE)
            text = cells.decode()
            self._text = tuple(text[r * width : r * width + self.cols] for r in range(self.rows))
        return self._text

    def to_rows(self) -> list[str]:
        return list(self.text())

    def score(self) -> dict[Color, int]:
        return {BLACK: self.black.bit_count(), WHITE: self.white.bit_count()}


def _bit_indices(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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


def flips_mask(board: Board, row: int, col: int, color: Color) -> int:
    """The opponent stones a move by ``color`` at (row, col) would flip (0 if none).

    Occupancy is not checked here; see ``check_move``.
    """
    own, opp = board.stones(color)
    move = board.bit(row, col)
    flips = 0
    for s in board.geometry.shifts:
        line, x = 0, move << s
        while x & opp:
            line |= x
            x <<= s
        if x & own:
            flips |= line
        line, x = 0, move >> s
        while x & opp:
            line |= x
            x >>= s
        if x & own:
            flips |= line
    return flips


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

    For one cell this beats converting the whole board to bitboards: it reads only the cells
    next to the move and the runs behind them, along precomputed rays (no bounds checks).
    """
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        raise IndexError(f"({row}, {col}) is outside the {board.rows} × {board.cols} board")
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


class LegalMove(NamedTuple):
    row: int
    col: int
    flips: int


def legal_moves(board: Board, color: Color) -> list[LegalMove]:
    """All legal moves of ``color`` in (row, col) order, each with how many stones it flips."""
    moves = []
    for row, col in board.cells(legal_moves_mask(board, color)):
        flips = walk_flips(board, row, col, color)
        assert flips  # every cell of the legal-move mask flips something
        moves.append(LegalMove(row, col, len(flips)))
    return moves


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    board: Board
    flips: list[tuple[int, int]]
    next: Color | None
    passed: bool
    game_over: bool
    score: dict[Color, int]
    winner: Winner | None


def _played(board: Board, row: int, col: int, color: Color, flips: list[tuple[int, int]]) -> Board:
    """The position after a legal move, built in both forms from what changed.

    Rows: only the rows holding the move or a flipped stone are rewritten. Bitboards: the
    move's bit and the flipped bits are set for the mover and cleared for the opponent, in both
    lanes (one bit reversal, of the changed cells only).
    """
    geo = board.geometry
    text = list(board.text())
    for r in {row} | {r for r, _ in flips}:
        cells = list(text[r])
        for fr, fc in flips:
            if fr == r:
                cells[fc] = color
        if r == row:
            cells[col] = color
        text[r] = "".join(cells)
    changed = 1 << (row * geo.width + col)
    for r, c in flips:
        changed |= 1 << (r * geo.width + c)
    changed = geo.with_rotation(changed)
    black, white = board.lanes()
    if color == BLACK:
        black, white = black | changed, white & ~changed
    else:
        black, white = black & ~changed, white | changed
    return Board(board.rows, board.cols, text=tuple(text), lanes=(black, white))


def apply_move(board: Board, row: int, col: int, color: Color) -> MoveOutcome:
    """Play a legal move and say who moves next.

    The opponent moves next if it has a legal move; otherwise it must pass and ``color`` moves
    again; if neither side can move the game is over and the side with more stones wins.
    Raises ``IllegalMove`` for an illegal move.
    """
    flips = walk_flips(board, row, col, color)
    if not flips:
        raise IllegalMove(row, col, color, "occupied" if flips is None else "no_bracket")
    after = _played(board, row, col, color, flips)
    other = opponent(color)
    next_color: Color | None
    if legal_moves_mask(after, other):
        next_color, passed = other, False
    elif legal_moves_mask(after, color):
        next_color, passed = color, True
    else:
        next_color, passed = None, False
    score = after.score()
    winner: Winner | None = None
    if next_color is None:
        black_count, white_count = score[BLACK], score[WHITE]
        winner = (
            BLACK if black_count > white_count else WHITE if white_count > black_count else "draw"
        )
    return MoveOutcome(after, flips, next_color, passed, next_color is None, score, winner)
