"""Stateless Reversi/Othello endpoints: the kind's questions (check a move, list legal moves,
apply a move: declared on its face, ``app.kinds.reversi.questions``) and their batch,
``check-moves``, mounted in that order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Required, get_args

from fastapi import Request, Response
from pydantic import BeforeValidator, ConfigDict, Field, with_config
from pydantic_core import to_json
from typing_extensions import TypedDict

from app.api.batches import results_response
from app.api.bodies import JsonBody
from app.api.cells import Asked, read_query_cells
from app.api.problems import problem_responses
from app.api.questions import ask
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import meter_of
from app.contract.boards import ReversiBoard
from app.contract.bodies import batch_limit
from app.contract.fields import Body, Square
from app.contract.problems import BODY_ERRORS
from app.contract.squares import Squares
from app.contract.stateless import CheckMoveResponse, CheckMovesResponse
from app.kinds.reversi import KIND as REVERSI
from app.kinds.reversi.questions import (
    APPLY_MOVE,
    CHECK_MOVE,
    COL_DOC,
    LEGAL_MOVES,
    ROW_DOC,
    SQUARE_DOC,
    Col,
    Row,
    check_json,
    squares_of,
)
from app.rules import reversi
from app.rules.colors import Color

router = api_router("/v1/reversi", ["Reversi"])


@with_config(ConfigDict(extra="forbid", hide_input_in_errors=True))  # as ``Body``'s
class MoveQuery(TypedDict, total=False):
    """One question of a batch: may ``color`` play at (row, col), or at ``square``? Which
    cell it asks about, the batch reads on its board (``CheckMovesRequest.read_cells``)."""

    # A TypedDict, not a model: pydantic-core reads a thousand of them into plain dicts, no
    # object and no Python call a query (its schema is the model's it was, default and all).
    row: Annotated[Row | None, Field(None, description=ROW_DOC)]
    col: Annotated[Col | None, Field(None, description=COL_DOC)]
    square: Annotated[Square | None, Field(None, description=SQUARE_DOC)]
    color: Required[Color]


class CheckMovesRequest(Body):
    """One board and many questions about it."""

    board: ReversiBoard
    queries: Annotated[list[MoveQuery], BeforeValidator(batch_limit)] = Field(
        min_length=1, description="1 to `max_batch` (default 1000) questions."
    )

    def read_cells(self) -> list[Asked]:
        """Each query's question, its cell read on the board (``app.api.cells``)."""
        board = self.board
        return read_query_cells(self.queries, board.rows, board.cols, squares_of(board))


def question_answer(
    checks: reversi.BoardChecks, squares: Squares | None, asked: Asked
) -> CheckMoveResponse:
    """The answer to one question of ``check-moves`` (a query whose cell was read)."""
    return check_json(checks.check(*asked), squares)


def question_renderer(board: reversi.Board, squares: Squares | None) -> Callable[[Asked], bytes]:
    """Each question's answer on ``board``, rendered (``question_answer``'s, byte for byte):
    the board's legal moves found once a colour (``reversi.BoardChecks``), and the two answers
    of an illegal move, the most of any batch, written once."""
    checks = reversi.BoardChecks(board)
    illegal = {
        reason: to_json(check_json(reversi.MoveCheck(False, reason, []), squares))
        for reason in get_args(reversi.Reason)
    }

    def render(asked: Asked) -> bytes:
        check = checks.check(*asked)
        if check.reason is None:
            return to_json(check_json(check, squares))
        return illegal[check.reason]

    return render


def check_moves_answer(batch: CheckMovesRequest) -> CheckMovesResponse:
    """The answer of ``check-moves``, at once (the route renders it as one array, in slices:
    ``app.api.batches``)."""
    checks, squares = reversi.BoardChecks(batch.board), squares_of(batch.board)
    return {"results": [question_answer(checks, squares, asked) for asked in batch.read_cells()]}


CHECK_MOVES_BODY = JsonBody(
    CheckMovesRequest,
    {
        "opening": {
            "summary": "Standard opening: all four legal black moves (one by its square "
            "name, e6) and one illegal",
            "value": {
                "board": list(reversi.OPENING),
                "queries": [
                    {"row": 2, "col": 3, "color": "B"},
                    {"row": 3, "col": 2, "color": "B"},
                    {"row": 4, "col": 5, "color": "B"},
                    {"square": "e6", "color": "B"},
                    {"row": 0, "col": 0, "color": "B"},
                ],
            },
        }
    },
)


ask(router, REVERSI, CHECK_MOVE)


@router.post(
    "/check-moves",
    summary="Batch: many check-move questions about one board",
    description="Answers each `{row, col, color}` (or `{square, color}`) query like "
    "`check-move`, in request order. 1 to `max_batch` (default 1000) queries; one bad query "
    "makes the whole request a 422 whose `errors[].loc` names its index, e.g. "
    '`["body", "queries", 3, "row"]` or `["body", "queries", 3, "square"]`.',
    response_model=CheckMovesResponse,
    responses={
        200: CHECK_MOVES_BODY.answers(check_moves_answer),
        **problem_responses(*BODY_ERRORS),
    },
    openapi_extra=resend(Resend.ALWAYS, CHECK_MOVES_BODY.openapi),
)
async def check_moves(request: Request) -> Response:
    meter = meter_of(request)
    batch = await CHECK_MOVES_BODY.parse(request, meter)
    with meter:
        asked = batch.read_cells()
    return await results_response(
        asked, question_renderer(batch.board, squares_of(batch.board)), meter
    )


ask(router, REVERSI, LEGAL_MOVES)
ask(router, REVERSI, APPLY_MOVE)
