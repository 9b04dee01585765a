"""Board fields: JSON in either accepted form, out as the engine's own board type.

A board arrives as a list of strings (``["..B", …]``) or as a list of lists of one-character
strings (``[[".", ".", "B"], …]``). It is checked once here — size, shape, characters — with
errors that name the row (``loc: [..., "board", 3]``), and turned into the engine's type, so the
rules never see raw JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from app.rules import gomoku, reversi, tictactoe

BoardT = TypeVar("BoardT")


@dataclass(frozen=True, eq=False)  # hashed by identity: it has a dict, and may be in a Union
class BoardField(Generic[BoardT]):
    """A Pydantic marker describing one kind of board.

    ``cells`` maps every accepted character to the one the engine uses (so ``" "`` can mean
    ``"."``); ``square`` demands n × n; ``build`` makes the engine's board from clean rows.
    """

    name: str
    cells: dict[str, str]
    max_side: int
    square: bool
    build: Callable[[list[str]], BoardT]
    example: list[str]
    # A board holds no object members (``bodies.most_members``): rows of cells.
    members: ClassVar[int] = 0

    def _row(self, value: Any) -> str:
        if isinstance(value, str):
            text = value
        elif isinstance(value, list):
            for col, cell in enumerate(value):
                if not isinstance(cell, str) or len(cell) != 1:
                    raise PydanticCustomError(
                        "board_cell",
                        "cell {col} must be a one-character string",
                        {"col": col},
                    )
            text = "".join(value)
        else:
            raise PydanticCustomError(
                "board_row", "a row must be a string or a list of one-character strings"
            )
        if not 1 <= len(text) <= self.max_side:
            raise PydanticCustomError(
                "board_row_length",
                "a row must have 1 to {max} cells, this one has {length}",
                {"max": self.max_side, "length": len(text)},
            )
        if text.translate(self._strip_allowed):  # anything left is a bad character
            col = next(i for i, char in enumerate(text) if char not in self.cells)
            raise PydanticCustomError(
                "board_cell",
                "character {char} at column {col} is not one of {allowed}",
                {"char": repr(text[col]), "col": col, "allowed": self._allowed()},
            )
        return text.translate(self._normalise)

    def _allowed(self) -> str:
        return ", ".join(repr(c) for c in self.cells)

    @cached_property
    def _normalise(self) -> dict[int, str]:
        return str.maketrans(self.cells)

    @cached_property
    def _strip_allowed(self) -> dict[int, None]:
        return dict.fromkeys(map(ord, self.cells))

    def _shape(self, rows: list[str]) -> BoardT:
        width = len(rows[0])
        for index, row in enumerate(rows):
            if len(row) != width:
                raise PydanticCustomError(
                    "board_not_rectangular",
                    "row {index} has {length} cells but row 0 has {width}",
                    {"index": index, "length": len(row), "width": width},
                )
        if self.square and width != len(rows):
            raise PydanticCustomError(
                "board_not_square",
                "the board must be n × n; it has {rows} rows of {cols} cells",
                {"rows": len(rows), "cols": width},
            )
        return self.build(rows)

    def _too_many_rows(self, value: Any) -> Any:
        # Checked before the rows are validated one by one, so a huge list costs nothing.
        if isinstance(value, list) and len(value) > self.max_side:
            raise PydanticCustomError(
                "board_too_large",
                "a board has at most {max} rows, this one has {rows}",
                {"max": self.max_side, "rows": len(value)},
            )
        return value

    def _fast(self, value: Any, detailed: core_schema.ValidatorFunctionWrapHandler) -> BoardT:
        """Accept a clean list-of-strings board in one step; anything else goes the long way.

        The common case costs one call and a few C-level string operations. Only a board that
        fails here (another form, or a mistake) is validated row by row by ``detailed``, whose
        errors name the row (``loc: [..., "board", 3]``).
        """
        if type(value) is list and 0 < len(value) <= self.max_side:
            try:
                text = "".join(value)  # C checks that every row is a string
            except TypeError:
                text = ""  # a row of another type: the long way says which
            width = len(value[0]) if text else 0
            if (
                0 < width <= self.max_side
                and (not self.square or width == len(value))
                and len(set(map(len, value))) == 1  # rows of one width
                and not text.translate(self._strip_allowed)
            ):
                if not self._normalised and text.translate(self._normalise) != text:
                    value = [row.translate(self._normalise) for row in value]
                return self.build(value)
        board: BoardT = detailed(value)
        return board

    @cached_property
    def _normalised(self) -> bool:
        """Whether every accepted character is the engine's own (nothing to normalise)."""
        return all(char == cell for char, cell in self.cells.items())

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # The first bad row is the board's error: a batch of boards of bad rows makes an error
        # a board, not one a row.
        rows = core_schema.list_schema(
            core_schema.no_info_plain_validator_function(self._row), min_length=1, fail_fast=True
        )
        detailed = core_schema.no_info_before_validator_function(
            self._too_many_rows,
            core_schema.no_info_after_validator_function(self._shape, rows),
        )
        return core_schema.no_info_wrap_validator_function(self._fast, detailed)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        chars = "".join(self.cells)
        pattern = "^[" + "".join("\\" + c if c in "\\]^-" else c for c in chars) + "]+$"
        return {
            "title": self.name,
            "description": (
                f"{'n × n' if self.square else 'Rectangular'} board, 1 to {self.max_side} cells "
                f"a side, row 0 on top. Each row is a string, or a list of one-character strings. "
                f"Cells: {self._allowed()}."
            ),
            "type": "array",
            "minItems": 1,
            "maxItems": self.max_side,
            "items": {
                "anyOf": [
                    {
                        "type": "string",
                        "pattern": pattern,
                        "minLength": 1,
                        "maxLength": self.max_side,
                    },
                    {
                        "type": "array",
                        "items": {"type": "string", "enum": list(self.cells)},
                        "minItems": 1,
                        "maxItems": self.max_side,
                    },
                ]
            },
            "example": self.example,
        }


ReversiBoard = Annotated[
    reversi.Board,
    BoardField(
        name="ReversiBoard",
        cells={".": ".", "B": "B", "W": "W"},
        max_side=reversi.MAX_SIDE,
        square=False,
        build=reversi.Board.from_rows,
        example=list(reversi.OPENING),
    ),
]


TicTacToeBoard = Annotated[
    tuple[str, ...],
    BoardField(
        name="TicTacToeBoard",
        cells={"X": "X", "O": "O", ".": ".", " ": "."},
        max_side=tictactoe.MAX_SIDE,
        square=True,
        build=tuple,
        example=["XOX", "O O", "XOX"],
    ),
]


# A posted gomoku or renju board: square, ``B``, ``W`` and ``.``; at most the tic-tac-toe check's
# side (a position a client posts whole; sessions go far larger, keeping only their stones). A
# rule's own sizes (renju 15 × 15, five cells at least) are its body's to check.
GomokuBoard = Annotated[
    gomoku.RowsBoard,
    BoardField(
        name="GomokuBoard",
        cells={".": ".", "B": "B", "W": "W"},
        max_side=tictactoe.MAX_SIDE,
        square=True,
        build=gomoku.RowsBoard,
        example=["." * 15] * 7 + ["." * 7 + "B" + "." * 7] + ["." * 15] * 7,
    ),
]
