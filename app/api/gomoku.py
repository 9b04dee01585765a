"""Stateless gomoku and renju endpoints: check a move under a rule, renju's forbidden points, and
a batch of checks about one board (API.md part 2, "Five in a row as its players play it").

The rules are ``app/rules/gomoku.py``'s, the engine the gomoku sessions play by. A posted board
is square, of the rule's sizes (renju 15 × 15; the other rules 5 to ``MAX_SIDE`` a side), with
``B``, ``W`` and ``.`` cells; square names count rows from the bottom, as gomoku and renju
players write them (``h8`` is the centre of 15 × 15).
"""

from __future__ import annotations

import functools
from typing import Annotated, Literal, Required

from fastapi import Request, Response
from pydantic import BeforeValidator, ConfigDict, Field, model_validator, with_config
from typing_extensions import TypedDict

from app.api.batches import rendered, results_response
from app.api.bodies import JsonBody
from app.api.cells import Asked, read_query_cells
from app.api.problems import problem_responses
from app.api.questions import question
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import meter_of
from app.contract.boards import GomokuBoard
from app.contract.bodies import batch_limit
from app.contract.fields import INTEGRAL, Body, Square, cell_error, cell_of
from app.contract.problems import BODY_ERRORS
from app.contract.squares import Squares
from app.contract.stateless import LineOut, lines_out
from app.kinds.gomoku.answers import RULE_DOC
from app.rules import gomoku
from app.rules.colors import Color

router = api_router("/v1/gomoku", ["Gomoku"])

Row = Annotated[int, Field(strict=True, ge=0), INTEGRAL]
Col = Annotated[int, Field(strict=True, ge=0), INTEGRAL]
ROW_DOC = "0-based; row 0 is the top row. With `col`, unless `square` is given."
COL_DOC = "0-based; column 0 is the left column. With `row`, unless `square` is given."
SQUARE_DOC = (
    "The cell by its square name instead of `row` and `col` (not with them): a column letter "
    "(`a` the left column) and a row number from 1, counted from the bottom row as gomoku and "
    "renju players write it (`h8` is the centre of 15 × 15). Case-insensitive; on boards of at "
    "most 26 columns."
)
RENJU: Literal["renju"] = "renju"


def squares_of(board: gomoku.RowsBoard) -> Squares | None:
    """The square names of a posted board (None: wider than 26 columns)."""
    return Squares.of(board.size, board.size, "bottom")


def _board_fits_rule(board: gomoku.RowsBoard | None, rule: gomoku.Rule) -> None:
    """A ValidationError naming ``board`` if its size is not one the rule is played on."""
    if board is None:
        return
    if rule == RENJU and board.size != gomoku.RENJU_SIZE:
        raise cell_error(
            "board", "board_size",
            f"renju is played on 15 × 15; this board is {board.size} × {board.size}", None,
        )  # fmt: skip
    if board.size < gomoku.MIN_SIZE:
        raise cell_error(
            "board", "board_size",
            f"five in a row needs a board of at least {gomoku.MIN_SIZE} × {gomoku.MIN_SIZE}; "
            f"this one is {board.size} × {board.size}",
            None,
        )  # fmt: skip


class GomokuMoveRequest(Body):
    """A board, a rule, a cell (`row` and `col`, or `square`) and the colour that would play."""

    board: GomokuBoard
    row: Row | None = Field(None, description=ROW_DOC)
    col: Col | None = Field(None, description=COL_DOC)
    square: Square | None = Field(None, description=SQUARE_DOC)
    color: Color
    rule: gomoku.Rule = Field("freestyle", description=RULE_DOC)

    @model_validator(mode="after")
    def _one_cell_on_the_board(self) -> GomokuMoveRequest:
        _board_fits_rule(self.board, self.rule)
        self.row, self.col = cell_of(self.row, self.col, self.square, squares_of(self.board))
        size = self.board.size
        for field, value in (("row", self.row), ("col", self.col)):
            if value >= size:
                raise cell_error(
                    field, "outside_board",
                    f"{field} must be less than {size}, the board's side", value,
                )  # fmt: skip
        return self


@with_config(ConfigDict(extra="forbid", hide_input_in_errors=True))  # as ``Body``'s
class GomokuQuery(TypedDict, total=False):
    """One question of a batch: may ``color`` play at (row, col), or at ``square``?"""

    # A TypedDict, as Reversi's ``MoveQuery`` (``app.api.cells``).
    row: Annotated[Row | None, Field(None, description=ROW_DOC)]
    col: Annotated[Col | None, Field(None, description=COL_DOC)]
    square: Annotated[Square | None, Field(None, description=SQUARE_DOC)]
    color: Required[Color]


class GomokuCheckMovesRequest(Body):
    """One board, one rule and many questions about it."""

    board: GomokuBoard
    rule: gomoku.Rule = Field("freestyle", description=RULE_DOC)
    queries: Annotated[list[GomokuQuery], BeforeValidator(batch_limit)] = Field(
        min_length=1, description="1 to `max_batch` (default 1000) questions."
    )

    @model_validator(mode="after")
    def _board_of_the_rule(self) -> GomokuCheckMovesRequest:
        _board_fits_rule(self.board, self.rule)
        return self

    def read_cells(self) -> list[Asked]:
        """Each query's question, its cell read on the board (``app.api.cells``)."""
        size = self.board.size
        return read_query_cells(self.queries, size, size, squares_of(self.board))


class ForbiddenPointsRequest(Body):
    """A renju position: where may Black not play?"""

    board: GomokuBoard
    rule: Literal["renju"] = Field(
        RENJU, description="`renju`: the only rule with forbidden points."
    )

    @model_validator(mode="after")
    def _renju_board(self) -> ForbiddenPointsRequest:
        _board_fits_rule(self.board, self.rule)
        return self


class GomokuCheckOut(TypedDict):
    legal: bool
    reason: Annotated[
        Literal["occupied", "forbidden"] | None, Field(description="Why not, when illegal.")
    ]
    forbidden: Annotated[
        gomoku.Forbidden | None,
        Field(description="Renju, Black: `overline`, `double_four` or `double_three`."),
    ]
    wins: Annotated[bool, Field(description="The move wins under the rule.")]
    lines: Annotated[
        list[LineOut],
        Field(
            description="The shapes that decide the answer: the five (or overline) that wins, "
            "or the fours, threes or overline that make the move forbidden."
        ),
    ]


class GomokuCheckMovesOut(TypedDict):
    results: Annotated[list[GomokuCheckOut], Field(description="One answer per query, in order.")]


class ForbiddenPointOut(TypedDict):
    row: int
    col: int
    square: str
    forbidden: gomoku.Forbidden


class ForbiddenPointsOut(TypedDict):
    points: Annotated[
        list[ForbiddenPointOut], Field(description="Every point Black may not play, by (row, col).")
    ]
    count: int


def check_json(check: gomoku.MoveCheck, squares: Squares | None) -> GomokuCheckOut:
    return {
        "legal": check.legal,
        "reason": check.reason,
        "forbidden": check.forbidden,
        "wins": check.wins,
        "lines": lines_out(check.lines, squares),
    }


def check_move_answer(move: GomokuMoveRequest) -> GomokuCheckOut:
    row, col = move.row, move.col
    assert row is not None, "resolved by _one_cell_on_the_board"
    assert col is not None, "resolved by _one_cell_on_the_board"
    board = move.board
    check = gomoku.check_move(board, board.size, row, col, move.color, move.rule)
    return check_json(check, squares_of(board))


def question_answer(
    board: gomoku.RowsBoard, rule: gomoku.Rule, squares: Squares | None, asked: Asked
) -> GomokuCheckOut:
    """The answer to one question of ``check-moves`` (a query whose cell was read)."""
    row, col, color = asked
    return check_json(gomoku.check_move(board, board.size, row, col, color, rule), squares)


def check_moves_answer(batch: GomokuCheckMovesRequest) -> GomokuCheckMovesOut:
    board, squares = batch.board, squares_of(batch.board)
    asked = batch.read_cells()
    return {"results": [question_answer(board, batch.rule, squares, a) for a in asked]}


def forbidden_points_answer(query: ForbiddenPointsRequest) -> ForbiddenPointsOut:
    board = query.board
    squares = squares_of(board)
    assert squares is not None, "a renju board is 15 × 15: it has names"
    points: list[ForbiddenPointOut] = [
        {
            "row": row,
            "col": col,
            "square": squares.name(row, col),
            "forbidden": kind,
        }
        for row, col, kind in gomoku.forbidden_points(board, board.size)
    ]
    return {"points": points, "count": len(points)}


# A renju position (Black to move) whose point h8 is a double-three: a black stone there makes
# the open threes f8–h8 and h8–h10 at once; and a freestyle four that h8 makes five.
_EMPTY = "." * 15
DOUBLE_THREE = [
    *[_EMPTY] * 5,
    ".......B.......",  # row 5: h10
    ".......B.......",  # row 6: h9
    ".....BB........",  # row 7: f8, g8
    *[_EMPTY] * 7,
]
FIVE = [_EMPTY] * 7 + ["...BBBB........"] + [_EMPTY] * 7
MOVE_BODY = JsonBody(
    GomokuMoveRequest,
    {
        "freestyle-five": {
            "summary": "Freestyle: Black's fifth stone in a row wins",
            "value": {"board": FIVE, "square": "h8", "color": "B", "rule": "freestyle"},
        },
        "renju-double-three": {
            "summary": "Renju: Black may not make two open threes at once",
            "value": {"board": DOUBLE_THREE, "square": "h8", "color": "B", "rule": "renju"},
        },
    },
)
CHECK_MOVES_BODY = JsonBody(
    GomokuCheckMovesRequest,
    {
        "renju": {
            "summary": "Renju: three questions about one position",
            "value": {
                "board": DOUBLE_THREE,
                "rule": "renju",
                "queries": [
                    {"square": "h8", "color": "B"},
                    {"square": "h8", "color": "W"},
                    {"row": 0, "col": 0, "color": "B"},
                ],
            },
        }
    },
)
FORBIDDEN_BODY = JsonBody(
    ForbiddenPointsRequest,
    {
        "double-three": {
            "summary": "Renju: Black's forbidden points of a position",
            "value": {"board": DOUBLE_THREE, "rule": "renju"},
        }
    },
)


question(
    router,
    "/check-move",
    "gomoku_check_move",
    MOVE_BODY,
    check_move_answer,
    summary="May this stone be played under this rule, and does it win?",
    description="Answers `legal`, the `reason` when not (`occupied`, or `forbidden` with the "
    "`forbidden` kind: renju's `overline`, `double_four`, `double_three`, for Black only), "
    "whether the move `wins`, and the `lines` that decide it (the five, or the shapes that "
    "make it forbidden). A five that is exactly five wins even where it also makes a forbidden "
    "shape. The board is square: renju 15 × 15, the other rules 5 × 5 up to the board limit.",
    response_model=GomokuCheckOut,
)


@router.post(
    "/check-moves",
    summary="Batch: many check-move questions about one board under one rule",
    description="Answers each `{row, col, color}` (or `{square, color}`) query like "
    "`check-move`, in request order. 1 to `max_batch` (default 1000) queries; one bad query "
    "makes the whole request a 422 whose `errors[].loc` names its index.",
    response_model=GomokuCheckMovesOut,
    responses={
        200: CHECK_MOVES_BODY.answers(check_moves_answer),
        **problem_responses(*BODY_ERRORS),
    },
    openapi_extra=resend(Resend.ALWAYS, CHECK_MOVES_BODY.openapi),
)
async def gomoku_check_moves(request: Request) -> Response:
    meter = meter_of(request)
    batch = await CHECK_MOVES_BODY.parse(request, meter)
    with meter:
        asked = batch.read_cells()
    answer = functools.partial(question_answer, batch.board, batch.rule, squares_of(batch.board))
    return await results_response(asked, rendered(answer), meter)


question(
    router,
    "/forbidden-points",
    "gomoku_forbidden_points",
    FORBIDDEN_BODY,
    forbidden_points_answer,
    summary="Renju: every point where Black may not play",
    description="Every empty point of a 15 × 15 renju position where a black stone would be "
    "forbidden (`overline`, `double_four`, `double_three`; a point where Black makes exactly "
    "five is never forbidden), sorted by (row, col), with its square name.",
    response_model=ForbiddenPointsOut,
)
