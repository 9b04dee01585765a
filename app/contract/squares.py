"""Square names: a cell as the game's players write it (``f5``), where its board has them.

A name is a lower-case column letter (``a`` is the leftmost column, ``z`` the 26th) followed by
a row number counted from 1, in decimal, without leading zeros (``a10``). Which row is row 1 is
the kind's (``Face.row_one``): Othello's players count from the **top** (WTHOR, GGF, Othello
transcripts: ``a1`` is row 0, col 0), tic-tac-toe's, gomoku's and renju's from the **bottom**
(RIF, RenjuNet: on 15 × 15, ``a1`` is row 14, col 0 and ``h8`` the centre). A board wider than
26 columns has no names. Names are read case-insensitively (``F5`` is ``f5``) and written in
lower case.

Everything about names is here, once: ``name`` writes one, ``parse`` reads one back against a
board's size (``SquareError`` says why a text names none of its cells), and ``Squares`` binds
both to one board. Nothing here knows JSON, HTTP or a game: the edge turns a ``SquareError``
into a 422 naming the field (``app.contract.fields``), and renders names from row and col.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

# Which row a kind numbers 1: the top row (Othello) or the bottom row (tic-tac-toe, gomoku).
RowOne = Literal["top", "bottom"]

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_COLUMNS = len(LETTERS)  # a board wider than this has no square names
# A letter, then a row number from 1, ASCII only ("５" is a digit to ``str.isdigit``, not here).
PATTERN = "^[A-Za-z][1-9][0-9]*$"
_NAME = re.compile("[A-Za-z][1-9][0-9]*")
# No board has a row number of more than 7 digits (sides are at most 1,000,000): a longer text
# is refused before it is looked at.
MAX_LENGTH = 8
# A board of ``Squares.of`` with at most this many cells keeps every cell's name, written once
# (every board that has names today: 26 × 26 tic-tac-toe, 32 × 26 Reversi); a larger one writes
# each name when it is asked.
TABLE_CELLS = 1024


class SquareError(ValueError):
    """A text that names no square of the board. ``type`` says how, for a client to branch
    on: ``square_syntax`` (not a letter and a row number), ``no_square_names`` (the board is
    wider than 26 columns), ``outside_board`` (a column or row the board does not have)."""

    def __init__(self, type: str, message: str) -> None:
        super().__init__(message)
        self.type = type


def has_names(width: int) -> bool:
    """Whether a board this many columns wide has square names."""
    return width <= MAX_COLUMNS


def check_syntax(text: str) -> str:
    """``text`` as a name is written (lower case), if it has a name's shape; else SquareError."""
    if len(text) > MAX_LENGTH or not _NAME.fullmatch(text):
        raise SquareError(
            "square_syntax",
            "a square is a column letter and a row number from 1, such as f5 or h10",
        )
    return text.lower()


def name(row: int, col: int, height: int, width: int, from_bottom: bool) -> str:
    """The name of the cell (``row``, ``col``; 0-based, row 0 the top row) of a board of
    ``height`` × ``width`` whose row 1 is the bottom row if ``from_bottom``, else the top row.
    ValueError for a cell outside the board or a board without names."""
    if not has_names(width):
        raise ValueError(f"a board {width} columns wide has no square names")
    if not (0 <= row < height and 0 <= col < width):
        raise ValueError(f"({row}, {col}) is not a cell of a {height} × {width} board")
    return Squares(height, width, from_bottom).name(row, col)


def parse(text: str, height: int, width: int, from_bottom: bool) -> tuple[int, int]:
    """The cell (row, col; 0-based, row 0 the top row) that ``text`` names on a board of
    ``height`` × ``width`` (row 1 at the bottom if ``from_bottom``, else at the top);
    SquareError if it names none."""
    written = check_syntax(text)
    if not has_names(width):
        raise SquareError(
            "no_square_names",
            f"this board is {width} columns wide and square names go up to {MAX_COLUMNS} "
            "columns: give row and col",
        )
    col, number = LETTERS.index(written[0]), int(written[1:])
    if col >= width or number > height:
        last = LETTERS[width - 1]
        raise SquareError(
            "outside_board",
            f"{written} is not a square of this {height} × {width} board: its columns are "
            f"a to {last} and its rows 1 to {height}",
        )
    return (height - number if from_bottom else number - 1), col


@dataclass(frozen=True, slots=True)
class Squares:
    """The square names of one board: ``height`` × ``width`` cells, at most 26 columns, row 1
    at the bottom if ``from_bottom``."""

    height: int
    width: int
    from_bottom: bool
    # Every cell's name, ``table[row][col]``, where the board keeps them (``of``): what
    # ``names`` reads. Empty: each name is written when it is asked.
    table: tuple[tuple[str, ...], ...] = field(default=(), repr=False, compare=False)

    @staticmethod
    def of(height: int, width: int, row_one: RowOne) -> Squares | None:
        """The names of a board of this size whose row 1 is ``row_one``; None for a board
        without names (wider than 26 columns). The same value for the same board, made once:
        every request and answer of a game asks for it."""
        # ``has_names(width)``, inline: every request on a board with names asks.
        return _named(height, width, row_one == "bottom") if width <= MAX_COLUMNS else None

    def name(self, row: int, col: int) -> str:
        # The hot path of rendering: no checks beyond the letter's index (the cell is the
        # board's, as the rules accepted it).
        table = self.table
        if table:
            return table[row][col]
        return f"{LETTERS[col]}{self.height - row if self.from_bottom else row + 1}"

    def names(self, cells: Iterable[Sequence[int]]) -> list[str]:
        """The names of ``[row, col]`` pairs, in their order (a move's ``flips``; cells of the
        board, as the rules gave them)."""
        table = self.table
        if table:
            return [table[row][col] for row, col in cells]
        return [self.name(row, col) for row, col in cells]

    def parse(self, text: str) -> tuple[int, int]:
        return parse(text, self.height, self.width, self.from_bottom)


# The boards with names are at most 26 columns wide and few in practice (a kind's sizes); the
# bound keeps a client that posts boards of every size from growing the cache (at most 64
# tables of at most TABLE_CELLS names: a few MB).
@lru_cache(maxsize=64)
def _named(height: int, width: int, from_bottom: bool) -> Squares:
    board = Squares(height, width, from_bottom)  # no table: its names are the formula's
    if height * width > TABLE_CELLS:
        return board
    table = tuple(tuple(board.name(row, col) for col in range(width)) for row in range(height))
    return Squares(height, width, from_bottom, table)
