"""Stateless tic-tac-toe: can this n × n position (k in a row) occur in a legal game?"""

from __future__ import annotations

from typing import Annotated

from fastapi import Request, Response
from pydantic import BeforeValidator, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from app.api.bodies import JsonBody, json_response
from app.api.problems import problem_responses
from app.api.questions import question
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import answered_in_slices, meter_of
from app.contract.boards import TicTacToeBoard
from app.contract.bodies import batch_limit
from app.contract.fields import INTEGRAL, Body
from app.contract.problems import BODY_ERRORS
from app.contract.stateless import ValidateBatchResponse, ValidateResponse
from app.rules import tictactoe

router = api_router("/v1/tictactoe", ["Tic-tac-toe"])


class ValidateRequest(Body):
    board: TicTacToeBoard
    k: Annotated[int, Field(strict=True, ge=1), INTEGRAL] | None = Field(
        None, description="Marks in a row that win, 1 ≤ k ≤ n; default n."
    )

    @field_validator("k")
    @classmethod
    def _at_most_n(cls, value: int | None, info: ValidationInfo) -> int | None:
        board: tuple[str, ...] | None = info.data.get("board")
        if value is not None and board is not None and value > len(board):
            raise PydanticCustomError("k_too_large", "k must be at most n = {n}", {"n": len(board)})
        return value


class ValidateBatchRequest(Body):
    items: Annotated[list[ValidateRequest], BeforeValidator(batch_limit)] = Field(
        min_length=1, description="1 to `max_batch` (default 1000) positions."
    )


VALIDATE_BODY = JsonBody(
    ValidateRequest,
    {
        "classic": {
            "summary": "Classic 3 × 3: valid, X to move",
            "value": {"board": ["XOX", "O O", "XOX"]},
        },
        "five_in_a_row": {
            "summary": "5 × 5 board, 3 in a row wins",
            "value": {"board": ["XXX..", "OO...", ".....", ".....", "....."], "k": 3},
        },
    },
)


VALIDATE_BATCH_BODY = JsonBody(
    ValidateBatchRequest,
    {
        "three": {
            "summary": "Three positions: valid, invalid, and 3 in a row on 5 × 5",
            "value": {
                "items": [
                    {"board": ["XOX", "O O", "XOX"]},
                    {"board": ["XXX", "OO.", "O.."]},
                    {"board": ["XXX..", "OO...", ".....", ".....", "....."], "k": 3},
                ]
            },
        }
    },
)


def verdict_json(verdict: tictactoe.Verdict) -> ValidateResponse:
    return {
        "valid": verdict.valid,
        "reason": verdict.reason,
        "status": verdict.status,
        "next": verdict.next,
        "winner": verdict.winner,
        "counts": {"X": verdict.x_count, "O": verdict.o_count},
    }


def validate_answer(query: ValidateRequest) -> ValidateResponse:
    """The answer of ``validate`` (and of ``adjudicator check tictactoe``)."""
    return verdict_json(tictactoe.check_position(query.board, query.k))


def validate_batch_answer(batch: ValidateBatchRequest) -> ValidateBatchResponse:
    """The answer of ``validate-batch``, at once (the route answers in slices)."""
    return {"results": [validate_answer(item) for item in batch.items]}


question(
    router,
    "/validate",
    "validate_position",
    VALIDATE_BODY,
    validate_answer,
    summary="Can this position occur in a legal game? Whose turn is it?",
    description="X moves first, players alternate, play stops at the first k in a row (row, "
    "column or diagonal) or a full board. Closed-form check, no search: fine up to 100 × 100.",
    response_model=ValidateResponse,
)


@router.post(
    "/validate-batch",
    summary="Batch: check many positions",
    description="Answers each `{board, k}` item like `validate`, in request order. 1 to "
    "`max_batch` (default 1000) items; one bad item makes the whole request a 422 whose "
    "`errors[].loc` names its index.",
    response_model=ValidateBatchResponse,
    responses={
        200: VALIDATE_BATCH_BODY.answers(validate_batch_answer),
        **problem_responses(*BODY_ERRORS),
    },
    openapi_extra=resend(Resend.ALWAYS, VALIDATE_BATCH_BODY.openapi),
)
async def validate_positions(request: Request) -> Response:
    meter = meter_of(request)
    batch = await VALIDATE_BATCH_BODY.parse(request, meter)
    results = await answered_in_slices(batch.items, validate_answer, meter)
    with meter:
        return json_response({"results": results})
