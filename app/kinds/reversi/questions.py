"""Reversi's stateless questions, asked of a posted board (``QUESTIONS``, on the kind's face):
``check-move`` (is a move legal, what does it flip), ``legal-moves`` (every legal move of a
colour) and ``apply-move`` (the position after a move, or after a game's moves). The edge
mounts them under ``/v1/reversi`` beside its batch (``app.api.reversi``'s ``check-moves``,
which asks ``check-move`` of many cells); ``adjudicator check reversi`` asks the first two
offline."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

from app.contract.boards import ReversiBoard
from app.contract.bodies import BodyInvalid
from app.contract.fields import INTEGRAL, Body, Square, cell_error, cell_of
from app.contract.games import Question
from app.contract.squares import SquareError, Squares, check_syntax
from app.contract.stateless import (
    ApplyMoveResponse,
    CheckMoveResponse,
    LegalMove,
    LegalMovesResponse,
)
from app.kinds.reversi.moves import ROW_ONE, WrittenMoves
from app.records.errors import RecordError
from app.records.transcript import read_transcript
from app.rules import reversi
from app.rules.colors import Color

Row = Annotated[int, Field(strict=True, ge=0), INTEGRAL]
Col = Annotated[int, Field(strict=True, ge=0), INTEGRAL]
ROW_DOC = "0-based; row 0 is the top row. With `col`, unless `square` is given."
COL_DOC = "0-based; column 0 is the left column. With `row`, unless `square` is given."

# The classic "check if move is legal" board (LeetCode 1958, example 1): B at (4, 3) is legal.
CLASSIC_BOARD = [
    [".", ".", ".", "B", ".", ".", ".", "."],
    [".", ".", ".", "W", ".", ".", ".", "."],
    [".", ".", ".", "W", ".", ".", ".", "."],
    [".", ".", ".", "W", ".", ".", ".", "."],
    ["W", "B", "B", ".", "W", "W", "W", "B"],
    [".", ".", ".", "B", ".", ".", ".", "."],
    [".", ".", ".", "B", ".", ".", ".", "."],
    [".", ".", ".", "W", ".", ".", ".", "."],
]
MOVE_EXAMPLES: dict[str, Any] = {  # the first is what /docs fills in: the short form
    "opening": {
        "summary": "Standard opening (strings): B at (2, 3)",
        "value": {"board": list(reversi.OPENING), "row": 2, "col": 3, "color": "B"},
    },
    "classic": {
        "summary": "Classic board (lists of cells): B at (4, 3) flips 6 stones",
        "value": {"board": CLASSIC_BOARD, "row": 4, "col": 3, "color": "B"},
    },
    "by-square": {
        "summary": "Standard opening, B at f5 (row 4, col 5) by its square name",
        "value": {"board": list(reversi.OPENING), "square": "f5", "color": "B"},
    },
}
SQUARE_DOC = (
    "The cell by its square name instead of `row` and `col` (not with them): a column letter "
    "(`a` the left column) and a row number from 1, counted from the top row as Othello "
    "players write it (`f5` is row 4, col 5). Case-insensitive. Only on boards of at most 26 "
    "columns; a name the board does not have is 422 `validation_error`."
)


def squares_of(board: reversi.Board) -> Squares | None:
    """The square names of a posted board (None: wider than 26 columns, it has none)."""
    return Squares.of(board.rows, board.cols, ROW_ONE)


class ReversiMoveRequest(Body):
    """A board, a cell (`row` and `col`, or `square`) and the colour that would play there."""

    board: ReversiBoard
    row: Row | None = Field(None, description=ROW_DOC)
    col: Col | None = Field(None, description=COL_DOC)
    square: Square | None = Field(None, description=SQUARE_DOC)
    color: Color

    @model_validator(mode="after")
    def _one_cell(self) -> ReversiMoveRequest:
        self.read_cell()
        return self

    def read_cell(self) -> None:
        """The cell the body names, as ``row`` and ``col`` (a square read on the board)."""
        if self.square is None and self.row is not None and self.col is not None:
            return  # the usual body, a row and a col: nothing to read (nor to assign)
        self.row, self.col = cell_of(self.row, self.col, self.square, squares_of(self.board))

    @field_validator("row", "col")
    @classmethod
    def _inside_board(cls, value: int | None, info: ValidationInfo) -> int | None:
        board: reversi.Board | None = info.data.get("board")
        if board is not None and value is not None:  # else the board itself was refused
            size = board.rows if info.field_name == "row" else board.cols
            if value >= size:
                raise PydanticCustomError(
                    "outside_board",
                    "{field} must be less than {size}, the board's number of {what}",
                    {
                        "field": info.field_name,
                        "size": size,
                        "what": "rows" if info.field_name == "row" else "columns",
                    },
                )
        return value


class LegalMovesRequest(Body):
    board: ReversiBoard
    color: Color


def check_json(check: reversi.MoveCheck, squares: Squares | None) -> CheckMoveResponse:
    flips: list[Any] = check.flips
    if squares is None:
        return {"legal": check.legal, "reason": check.reason, "flips": flips}
    # Most questions of a batch flip nothing: no names to write, and the empty list of flips
    # is written again (a thousand lists fewer for the garbage collector to walk).
    named = squares.names(flips) if flips else flips
    return {"legal": check.legal, "reason": check.reason, "flips": flips, "flip_squares": named}


def check_move_answer(move: ReversiMoveRequest) -> CheckMoveResponse:
    """The answer of ``check-move`` (and of ``adjudicator check reversi`` given a cell)."""
    row, col = move.row, move.col
    assert row is not None, "resolved by _one_cell"
    assert col is not None, "resolved by _one_cell"
    return check_json(reversi.check_move(move.board, row, col, move.color), squares_of(move.board))


def legal_moves_answer(query: LegalMovesRequest) -> LegalMovesResponse:
    """The answer of ``legal-moves`` (and of ``adjudicator check reversi`` without a cell)."""
    moves = reversi.legal_moves(query.board, query.color)
    squares = squares_of(query.board)
    # Each move's cell (and square, where the board has names) and its flips: one loop, no
    # call a move but the name's.
    listed: list[LegalMove]
    if squares is None:
        listed = [{"row": row, "col": col, "flips": flips} for row, col, flips in moves]
    elif squares.table:
        table = squares.table
        listed = [
            {"row": row, "col": col, "square": table[row][col], "flips": flips}
            for row, col, flips in moves
        ]
    else:
        name = squares.name
        listed = [
            {"row": row, "col": col, "square": name(row, col), "flips": flips}
            for row, col, flips in moves
        ]
    return {"color": query.color, "moves": listed, "count": len(moves), "must_pass": not moves}


class FlipSquares(TypedDict, total=False):
    flip_squares: list[str]


MOVES_DOC = (
    'A game\'s moves instead of one move: a transcript (`"f5d6c3"`) or a list of squares '
    '(`["f5", "d6"]`), played one after another from `board` (the standard 8 × 8 start if '
    "not given), `color` first (`B` if not given), with passes inferred: a colour that has no "
    "legal move passes. The answer is the position after the last of them, as for one move. "
    "Not with `row`, `col` or `square`."
)


class ApplyMoveRequest(ReversiMoveRequest):
    """One move (`row` and `col`, or `square`, on a posted `board`, by `color`), or a game's
    `moves` played from a posted or the standard start."""

    board: ReversiBoard | None = Field(  # type: ignore[assignment]
        None, description="Required with one move; with `moves`, the standard start if not given."
    )
    color: Color | None = Field(  # type: ignore[assignment]
        None, description="Who plays the move; with `moves`, who moves first (`B` if not given)."
    )
    moves: WrittenMoves | None = Field(None, description=MOVES_DOC)

    def read_cell(self) -> None:
        """One move's cell, as ``check-move`` reads it; or, for ``moves``, no cell and the
        standard start's board and first colour where none is posted (the moves are read on
        the board by ``read_moves``)."""
        if self.moves is None:
            if self.board is None or self.color is None:
                missing = [field for field in ("board", "color") if getattr(self, field) is None]
                raise ValidationError.from_exception_data(
                    "cell",
                    [
                        InitErrorDetails(
                            type=PydanticCustomError(
                                "missing", f"{field} is required with one move (not moves)"
                            ),
                            loc=(field,),
                            input=None,
                        )
                        for field in missing
                    ],
                )
            super().read_cell()
            return
        given = [name for name in ("row", "col", "square") if getattr(self, name) is not None]
        if given:
            raise cell_error(
                given[0], "moves_and_cell", "give moves, or one move's cell, not both",
                getattr(self, given[0]),
            )  # fmt: skip
        if self.board is None:
            self.board = reversi.Board.from_rows(reversi.OPENING)
        if self.color is None:
            self.color = reversi.BLACK

    def read_moves(self, board: reversi.Board) -> tuple[list[str], list[tuple[int, int]]]:
        """The squares of ``moves`` (lower case) and their cells on ``board``; a
        BodyInvalid naming ``moves`` (or its item) where one is not a square of it.
        In the route, as ``CheckMovesRequest.read_cells``: a body of one move pays nothing for
        the moves it does not have."""
        assert self.moves is not None
        try:
            return _cells_of(self.moves, board)
        except ValidationError as error:
            raise BodyInvalid(
                [
                    {**e, "loc": ("body", *e["loc"])}
                    for e in error.errors(include_url=False, include_input=False)
                ]
            ) from None


def _cells_of(
    moves: str | list[str], board: reversi.Board
) -> tuple[list[str], list[tuple[int, int]]]:
    """The squares ``moves`` writes (lower case) and their cells on ``board``; the
    ValidationError naming the member (``moves``, or its item) that is not a square of it."""
    squares = squares_of(board)
    if squares is None:
        raise cell_error(
            "moves", "no_square_names",
            "this board has no square names (it is wider than 26 columns): play one move at a "
            "time by row and col",
            None,
        )  # fmt: skip
    bound = board.rows * board.cols  # every move fills a square
    if isinstance(moves, str):
        try:
            names = read_transcript(moves, bound)
        except RecordError as error:
            raise cell_error("moves", "transcript", str(error), None) from None
        if not names:
            raise cell_error("moves", "too_short", "the transcript names no move", None)
        cells = []
        for index, name in enumerate(names):
            try:
                cells.append(squares.parse(name))
            except SquareError as error:
                raise cell_error("moves", error.type, f"moves[{index}]: {error}", None) from None
        return names, cells
    if not moves:
        raise cell_error("moves", "too_short", "the list names no move", None)
    if len(moves) > bound:
        raise cell_error(
            "moves", "too_long",
            f"a game on this board has at most {bound} moves (one a square), not {len(moves)}",
            None,
        )  # fmt: skip
    names, cells = [], []
    for index, written in enumerate(moves):
        try:
            name = check_syntax(written)
            names.append(name)
            cells.append(squares.parse(name))
        except SquareError as error:
            raise cell_error(("moves", index), error.type, str(error), written) from None
    return names, cells


def apply_move_answer(move: ApplyMoveRequest) -> ApplyMoveResponse:
    """The answer of ``apply-move``: the position after one move, or after a game's moves;
    IllegalMove for an illegal move (naming its index among the moves)."""
    board, color = move.board, move.color
    assert board is not None, "resolved by _one_cell"
    assert color is not None, "resolved by _one_cell"
    if move.moves is not None:
        names, cells = move.read_moves(board)
        outcome = reversi.apply_moves(board, color, cells, names)
    else:
        row, col = move.row, move.col
        assert row is not None, "resolved by _one_cell"
        assert col is not None, "resolved by _one_cell"
        outcome = reversi.apply_move(board, row, col, color)
    squares = squares_of(board)
    named: FlipSquares = {} if squares is None else {"flip_squares": squares.names(outcome.flips)}
    final = outcome.final_score
    return {
        "board": outcome.board.to_rows(),
        "flips": outcome.flips,
        **named,  # beside the flips they name, where the board has names
        "next": outcome.next,
        "passed": outcome.passed,
        "game_over": outcome.game_over,
        "score": {"B": outcome.score["B"], "W": outcome.score["W"]},
        "winner": outcome.winner,
        "final_score": None if final is None else {"B": final["B"], "W": final["W"]},
    }


CHECK_MOVE = Question(
    path="/check-move",
    name="check_move",
    endpoint="check_move",
    body=ReversiMoveRequest,
    examples=MOVE_EXAMPLES,
    answer=check_move_answer,
    response_model=CheckMoveResponse,
    summary="Is a move legal, and which stones would it flip?",
    description=(
        "A move is legal when, in at least one of the 8 directions, the cells next to it are one "
        "or more opponent stones followed directly by a stone of `color`. The cell is `row` and "
        "`col`, or its `square` name instead (`f5`: rows counted from the top, on boards of at "
        "most 26 columns). Answers `legal`, the `reason` when not (`occupied`, `no_bracket`) "
        "and the `flips` (with their names, `flip_squares`, where the board has them). A cell "
        "outside the board, a square it does not have, or both a cell and a square is a 422 "
        "`validation_error`."
    ),
    offline=("row", "col", "square"),  # a body naming a cell asks whether it is a legal move
)
LEGAL_MOVES = Question(
    path="/legal-moves",
    name="legal_moves",
    endpoint="legal_moves",
    body=LegalMovesRequest,
    examples={
        "opening": {
            "summary": "Standard opening, black to move",
            "value": {"board": list(reversi.OPENING), "color": "B"},
        }
    },
    answer=legal_moves_answer,
    response_model=LegalMovesResponse,
    summary="All legal moves of a colour",
    description="Every legal move of `color`, sorted by (row, col), with its `square` name "
    "(where the board has at most 26 columns) and how many stones it flips. `must_pass` is "
    "true when there is none.",
    offline=(),  # any other body asks for the legal moves
)
APPLY_MOVE = Question(
    path="/apply-move",
    name="apply_move",
    endpoint="apply_move",
    body=ApplyMoveRequest,
    examples={
        **MOVE_EXAMPLES,
        "transcript": {
            "summary": "A game's moves as a transcript, from the standard start",
            "value": {"moves": "f5d6c3d3c4f4f6f3e6e7"},
        },
        "list": {
            "summary": "A game's moves as a list of squares, from a posted board, White first",
            "value": {"board": list(reversi.OPENING), "color": "W", "moves": ["f4", "f3"]},
        },
    },
    answer=apply_move_answer,
    response_model=ApplyMoveResponse,
    summary="Play a move, or a game's moves: the board after it, who moves next, the end",
    description="Plays a legal move (a cell's `row` and `col`, or its `square`, as for "
    "`check-move`). `next` is the opponent if it has a legal move, else "
    "`color` again with `passed: true`, else null with `game_over: true`, the `winner` by "
    "stone count and the `final_score` as the federation counts it (the empty squares to the "
    "winner). An illegal move is a 422 `illegal_move` whose body carries the `reason`.\n\n"
    "Or `moves`, a transcript or a list of squares, played from `board` (the standard start "
    "if not given), `color` first (`B` if not given), with passes inferred: the answer is the "
    "position after the last of them. The first illegal one is a 422 `illegal_move` naming its "
    "`index` (from 0) and `square`; a move after the end has `reason` `game_over`. A text that "
    "is not a transcript, or a square the board does not have, is a 422 `validation_error`.",
    refused=(reversi.IllegalMove,),
)
# In the order the edge mounts them (with its batch, ``check-moves``, after ``check-move``).
QUESTIONS = (CHECK_MOVE, LEGAL_MOVES, APPLY_MOVE)
