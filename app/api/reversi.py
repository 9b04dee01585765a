"""Stateless Reversi/Othello endpoints: the kind's questions (check a move, list legal moves,
apply a move: declared on its face, ``app.kinds.reversi.questions``) and their batch,
``check-moves``, mounted in that order."""

from __future__ import annotations

import functools
from typing import Annotated

from fastapi import Request, Response
from pydantic import BeforeValidator, Field

from app.api.bodies import JsonBody, json_response
from app.api.cells import read_query_cells
from app.api.problems import problem_responses
from app.api.questions import ask
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import answered_in_slices, meter_of
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


class MoveQuery(Body):
    """One question of a batch: may ``color`` play at (row, col), or at ``square``? Which
    cell it asks about, the batch reads on its board (``CheckMovesRequest.read_cells``)."""

    row: Row | None = Field(None, description=ROW_DOC)
    col: Col | None = Field(None, description=COL_DOC)
    square: Square | None = Field(None, description=SQUARE_DOC)
    color: Color


class CheckMovesRequest(Body):
    """One board and many questions about it."""

    board: ReversiBoard
    queries: Annotated[list[MoveQuery], BeforeValidator(batch_limit)] = Field(
        min_length=1, description="1 to `max_batch` (default 1000) questions."
    )

    def read_cells(self) -> None:
        """Each query's cell, read on the board (``app.api.cells.read_query_cells``)."""
        read_query_cells(self.queries, self.board.rows, self.board.cols, squares_of(self.board))


def query_answer(
    board: reversi.Board, squares: Squares | None, query: MoveQuery
) -> CheckMoveResponse:
    """The answer to one query of ``check-moves`` whose cell was read (``read_cells``)."""
    row, col = query.row, query.col
    assert row is not None, "resolved by read_cells"
    assert col is not None, "resolved by read_cells"
    return check_json(reversi.check_move(board, row, col, query.color), squares)


def check_moves_answer(batch: CheckMovesRequest) -> CheckMovesResponse:
    """The answer of ``check-moves``, at once (the route answers in slices)."""
    batch.read_cells()
    board, squares = batch.board, squares_of(batch.board)
    return {"results": [query_answer(board, squares, query) for query in batch.queries]}


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
        batch.read_cells()
    answer = functools.partial(query_answer, batch.board, squares_of(batch.board))
    results = await answered_in_slices(batch.queries, answer, meter)
    with meter:
        return json_response({"results": results})


ask(router, REVERSI, LEGAL_MOVES)
ask(router, REVERSI, APPLY_MOVE)
