"""Stateless Reversi/Othello endpoints: check a move, list legal moves, apply a move."""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import BeforeValidator, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from app.api.bodies import JsonBody, batch_limit, json_response
from app.api.problems import problem_responses
from app.api.routing import api_router
from app.api.work import answered_in_slices, meter_of
from app.contract.boards import ReversiBoard
from app.contract.fields import INTEGRAL, Body
from app.contract.problems import BODY_ERRORS
from app.contract.stateless import (
    ApplyMoveResponse,
    CheckMoveResponse,
    CheckMovesResponse,
    Color,
    LegalMovesResponse,
)
from app.rules import reversi

router = api_router("/v1/reversi", ["Reversi"])

Row = Annotated[
    int, Field(strict=True, ge=0, description="0-based; row 0 is the top row."), INTEGRAL
]
Col = Annotated[
    int, Field(strict=True, ge=0, description="0-based; column 0 is the left column."), INTEGRAL
]

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
}


class ReversiMoveRequest(Body):
    """A board, a cell and the colour that would play there."""

    board: ReversiBoard
    row: Row
    col: Col
    color: Color

    @field_validator("row", "col")
    @classmethod
    def _inside_board(cls, value: int, info: ValidationInfo) -> int:
        board: reversi.Board | None = info.data.get("board")
        if board is not None:  # else the board itself was refused; that error is enough
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


class MoveQuery(Body):
    """One question of a batch: may ``color`` play at (row, col)?"""

    row: Row
    col: Col
    color: Color


class CheckMovesRequest(Body):
    """One board and many questions about it."""

    board: ReversiBoard
    queries: Annotated[list[MoveQuery], BeforeValidator(batch_limit)] = Field(
        min_length=1, description="1 to `max_batch` (default 1000) questions."
    )

    def outside_board(self) -> list[dict[str, Any]]:
        """Validation errors for every query whose cell is not on the board."""
        errors = []
        for index, query in enumerate(self.queries):
            for field, value, size in (
                ("row", query.row, self.board.rows),
                ("col", query.col, self.board.cols),
            ):
                if value >= size:
                    errors.append(
                        {
                            "loc": ("body", "queries", index, field),
                            "msg": f"{field} must be less than {size}",
                            "type": "outside_board",
                        }
                    )
        return errors


class LegalMovesRequest(Body):
    board: ReversiBoard
    color: Color


def check_json(check: reversi.MoveCheck) -> CheckMoveResponse:
    return {"legal": check.legal, "reason": check.reason, "flips": check.flips}


def check_move_answer(move: ReversiMoveRequest) -> CheckMoveResponse:
    """The answer of ``check-move`` (and of ``adjudicator check reversi`` given a cell)."""
    return check_json(reversi.check_move(move.board, move.row, move.col, move.color))


def query_answer(board: reversi.Board, query: MoveQuery) -> CheckMoveResponse:
    """The answer to one query of ``check-moves``."""
    return check_json(reversi.check_move(board, query.row, query.col, query.color))


def check_moves_answer(batch: CheckMovesRequest) -> CheckMovesResponse:
    """The answer of ``check-moves``, at once (the route answers in slices)."""
    return {"results": [query_answer(batch.board, query) for query in batch.queries]}


def legal_moves_answer(query: LegalMovesRequest) -> LegalMovesResponse:
    """The answer of ``legal-moves`` (and of ``adjudicator check reversi`` without a cell)."""
    moves = reversi.legal_moves(query.board, query.color)
    return {
        "color": query.color,
        "moves": [{"row": m.row, "col": m.col, "flips": m.flips} for m in moves],
        "count": len(moves),
        "must_pass": not moves,
    }


MOVE_BODY = JsonBody(ReversiMoveRequest, MOVE_EXAMPLES)
CHECK_MOVES_BODY = JsonBody(
    CheckMovesRequest,
    {
        "opening": {
            "summary": "Standard opening: all four legal black moves and one illegal",
            "value": {
                "board": list(reversi.OPENING),
                "queries": [
                    {"row": 2, "col": 3, "color": "B"},
                    {"row": 3, "col": 2, "color": "B"},
                    {"row": 4, "col": 5, "color": "B"},
                    {"row": 5, "col": 4, "color": "B"},
                    {"row": 0, "col": 0, "color": "B"},
                ],
            },
        }
    },
)
LEGAL_MOVES_BODY = JsonBody(
    LegalMovesRequest,
    {
        "opening": {
            "summary": "Standard opening, black to move",
            "value": {"board": list(reversi.OPENING), "color": "B"},
        }
    },
)


@router.post(
    "/check-move",
    summary="Is a move legal, and which stones would it flip?",
    description=(
        "A move is legal when, in at least one of the 8 directions, the cells next to it are one "
        "or more opponent stones followed directly by a stone of `color`. Answers `legal`, the "
        "`reason` when not (`occupied`, `no_bracket`) and the `flips`. A cell outside the board "
        "is a 422 `validation_error`."
    ),
    response_model=CheckMoveResponse,
    responses={200: MOVE_BODY.answers(check_move_answer), **problem_responses(*BODY_ERRORS)},
    openapi_extra=MOVE_BODY.openapi,
)
async def check_move(request: Request) -> Response:
    meter = meter_of(request)
    move = await MOVE_BODY.parse(request, meter)
    with meter:
        return json_response(check_move_answer(move))


@router.post(
    "/check-moves",
    summary="Batch: many check-move questions about one board",
    description="Answers each `{row, col, color}` query like `check-move`, in request order. "
    "1 to `max_batch` (default 1000) queries; one bad query makes the whole request a 422 "
    'whose `errors[].loc` names its index, e.g. `["body", "queries", 3, "row"]`.',
    response_model=CheckMovesResponse,
    responses={
        200: CHECK_MOVES_BODY.answers(check_moves_answer),
        **problem_responses(*BODY_ERRORS),
    },
    openapi_extra=CHECK_MOVES_BODY.openapi,
)
async def check_moves(request: Request) -> Response:
    meter = meter_of(request)
    batch = await CHECK_MOVES_BODY.parse(request, meter)
    if errors := batch.outside_board():
        raise RequestValidationError(errors)
    results = await answered_in_slices(
        batch.queries, functools.partial(query_answer, batch.board), meter
    )
    with meter:
        return json_response({"results": results})


@router.post(
    "/legal-moves",
    summary="All legal moves of a colour",
    description="Every legal move of `color`, sorted by (row, col), with how many stones each "
    "flips. `must_pass` is true when there is none.",
    response_model=LegalMovesResponse,
    responses={
        200: LEGAL_MOVES_BODY.answers(legal_moves_answer),
        **problem_responses(*BODY_ERRORS),
    },
    openapi_extra=LEGAL_MOVES_BODY.openapi,
)
async def legal_moves(request: Request) -> Response:
    meter = meter_of(request)
    query = await LEGAL_MOVES_BODY.parse(request, meter)
    with meter:
        return json_response(legal_moves_answer(query))


def apply_move_answer(move: ReversiMoveRequest) -> ApplyMoveResponse:
    """The answer of ``apply-move``; IllegalMove for an illegal move."""
    outcome = reversi.apply_move(move.board, move.row, move.col, move.color)
    return {
        "board": outcome.board.to_rows(),
        "flips": outcome.flips,
        "next": outcome.next,
        "passed": outcome.passed,
        "game_over": outcome.game_over,
        "score": {"B": outcome.score["B"], "W": outcome.score["W"]},
        "winner": outcome.winner,
    }


@router.post(
    "/apply-move",
    summary="Play a move: the board after it, who moves next, and the end of the game",
    description="Plays a legal move. `next` is the opponent if it has a legal move, else "
    "`color` again with `passed: true`, else null with `game_over: true` and the `winner` by "
    "stone count. An illegal move is a 422 `illegal_move` whose body carries the `reason`.",
    response_model=ApplyMoveResponse,
    responses={
        200: MOVE_BODY.answers(apply_move_answer),
        **problem_responses(*BODY_ERRORS, reversi.IllegalMove),
    },
    openapi_extra=MOVE_BODY.openapi,
)
async def apply_move(request: Request) -> Response:
    meter = meter_of(request)
    move = await MOVE_BODY.parse(request, meter)
    with meter:
        return json_response(apply_move_answer(move))
