"""Reversi/Othello rules on bitboards, for any rectangle from 1 × 1 to 32 × 32.

A position is two ints, one bit per cell for each colour. Cell (r, c) is bit ``r * W + c`` where
``W = cols + 1``: every row carries one padding bit that is never set. Moving one step in a
direction is then a single shift by ``dr * W + dc``, and a step that walks off the left or right
edge lands on a padding bit (or off the int), so masking with the opponent's stones — which never
include padding — discards it. No per-direction edge masks are needed, and Python's unbounded ints
make the same code serve 8 × 8 and 32 × 32.

A move is legal when, in at least one of the 8 directions, the cells next to it are one or more
opponent stones followed directly by a stone of the mover's colour; those stones flip.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

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
    title = "Illegal move"

    def __init__(self, row: int, col: int, color: Color, reason: Reason) -> None:
        self.row, self.col, self.color, self.reason = row, col, color, reason
        why = "the cell is occupied" if reason == "occupied" else "it brackets no opponent stone"
        super().__init__(f"{color} cannot play ({row}, {col}): {why}")

    def details(self) -> dict[str, object]:
        return {"reason": self.reason, "row": self.row, "col": self.col, "color": self.color}


@dataclass(frozen=True, slots=True)
class Geometry:
    """What depends only on the board's shape: padded width, cell mask, direction shifts."""

    rows: int
    cols: int
    width: int
    full: int
    # Steps of +1 row or +1 column are left shifts; their mirror images are right shifts.
    up_shifts: tuple[int, ...]
    down_shifts: tuple[int, ...]


@lru_cache(maxsize=MAX_SIDE * MAX_SIDE)
def geometry(rows: int, cols: int) -> Geometry:
    """The shape data for a ``rows`` × ``cols`` board (computed once per shape)."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"board must be 1..{MAX_SIDE} × 1..{MAX_SIDE}, got {rows} × {cols}")
    width = cols + 1
    row_mask = (1 << cols) - 1
    full = 0
    for r in range(rows):
        full |= row_mask << (r * width)
    # E, SW, S, SE as positive bit offsets; W, NE, N, NW are the same amounts shifted right.
    shifts = (1, width - 1, width, width + 1)
    return Geometry(rows, cols, width, full, shifts, shifts)


@dataclass(frozen=True, slots=True)
class Board:
    """A Reversi position: the shape and one bitboard per colour."""

    rows: int
    cols: int
    black: int
    white: int

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """Build from equal-length strings over ``.BW`` (the caller has checked them)."""
        n_rows, n_cols = len(rows), len(rows[0])
        geometry(n_rows, n_cols)  # validates the shape
        # Each row plus one padding cell, reversed so that cell index 0 is the lowest bit.
        text = (EMPTY.join(rows) + EMPTY)[::-1]
        black = int(text.translate(_BLACK_DIGITS), 2)
        white = int(text.translate(_WHITE_DIGITS), 2)
        return cls(n_rows, n_cols, black, white)

    @property
    def geometry(self) -> Geometry:
        return geometry(self.rows, self.cols)

    def stones(self, color: Color) -> tuple[int, int]:
        """(own, opponent) bitboards from ``color``'s point of view."""
        return (self.black, self.white) if color == BLACK else (self.white, self.black)

    def with_stones(self, color: Color, own: int, opp: int) -> Board:
        black, white = (own, opp) if color == BLACK else (opp, own)
        return Board(self.rows, self.cols, black, white)

    def bit(self, row: int, col: int) -> int:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"({row}, {col}) is outside the {self.rows} × {self.cols} board")
        return 1 << (row * (self.cols + 1) + col)

    def cells(self, mask: int) -> list[tuple[int, int]]:
        """The (row, col) of every set bit of ``mask``, in ascending (row, col) order."""
        return [divmod(i, self.cols + 1) for i in _bit_indices(mask)]

    def to_rows(self) -> list[str]:
        width = self.cols + 1
        cells = bytearray(EMPTY.encode() * (self.rows * width))
        for i in _bit_indices(self.black):
            cells[i] = ord(BLACK)
        for i in _bit_indices(self.white):
            cells[i] = ord(WHITE)
        text = cells.decode()
        return [text[r * width : r * width + self.cols] for r in range(self.rows)]

    def score(self) -> dict[Color, int]:
        return {BLACK: self.black.bit_count(), WHITE: self.white.bit_count()}


def _bit_indices(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def legal_moves_mask(board: Board, color: Color) -> int:
    """Every cell where ``color`` may play, as a bitboard.

    For each direction, flood from the mover's stones through contiguous opponent stones; an
    empty cell reached directly after at least one opponent stone is a move. The loop runs once
    per opponent stone in the longest run, not once per cell.
    """
    own, opp = board.stones(color)
    geo = board.geometry
    empty = geo.full & ~(own | opp)
    moves = 0
    for s in geo.up_shifts:
        run = (own << s) & opp
        while run:
            run <<= s
            moves |= run & empty
            run &= opp
    for s in geo.down_shifts:
        run = (own >> s) & opp
        while run:
            run >>= s
            moves |= run & empty
            run &= opp
    return moves


def flips_mask(board: Board, row: int, col: int, color: Color) -> int:
    """The opponent stones a move by ``color`` at (row, col) would flip (0 if none).

    Occupancy is not checked here; see ``check_move``.
    """
    own, opp = board.stones(color)
    move = board.bit(row, col)
    flips = 0
    for s in board.geometry.up_shifts:
        line, x = 0, move << s
        while x & opp:
            line |= x
            x <<= s
        if x & own:
            flips |= line
    for s in board.geometry.down_shifts:
        line, x = 0, move >> s
        while x & opp:
            line |= x
            x >>= s
        if x & own:
            flips |= line
    return flips


@dataclass(frozen=True, slots=True)
class MoveCheck:
    legal: bool
    reason: Reason | None
    flips: list[tuple[int, int]]


def _flips_or_reason(board: Board, row: int, col: int, color: Color) -> tuple[int, Reason | None]:
    """The flips of a move, or why it is illegal (flips 0 then)."""
    if (board.black | board.white) & board.bit(row, col):
        return 0, "occupied"
    flips = flips_mask(board, row, col, color)
    return flips, None if flips else "no_bracket"


def check_move(board: Board, row: int, col: int, color: Color) -> MoveCheck:
    """Whether ``color`` may play at (row, col), why not, and which stones it flips."""
    flips, reason = _flips_or_reason(board, row, col, color)
    return MoveCheck(reason is None, reason, board.cells(flips))


@dataclass(frozen=True, slots=True)
class LegalMove:
    row: int
    col: int
    flips: int


def legal_moves(board: Board, color: Color) -> list[LegalMove]:
    """All legal moves of ``color`` in (row, col) order, each with how many stones it flips."""
    moves = []
    for row, col in board.cells(legal_moves_mask(board, color)):
        moves.append(LegalMove(row, col, flips_mask(board, row, col, color).bit_count()))
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


def apply_move(board: Board, row: int, col: int, color: Color) -> MoveOutcome:
    """Play a legal move and say who moves next.

    The opponent moves next if it has a legal move; otherwise it must pass and ``color`` moves
    again; if neither side can move the game is over and the side with more stones wins.
    Raises ``IllegalMove`` for an illegal move.
    """
    flips, reason = _flips_or_reason(board, row, col, color)
    if reason is not None:
        raise IllegalMove(row, col, color, reason)
    own, opp = board.stones(color)
    after = board.with_stones(color, own | flips | board.bit(row, col), opp & ~flips)
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
        black, white = score[BLACK], score[WHITE]
        winner = BLACK if black > white else WHITE if white > black else "draw"
    return MoveOutcome(
        after, board.cells(flips), next_color, passed, next_color is None, score, winner
    )
