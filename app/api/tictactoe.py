"""Stateless tic-tac-toe: can this n × n position (k in a row) occur in a legal game? The
kind's question (``validate``, declared on its face: ``app.kinds.tictactoe``) and its batch."""

from __future__ import annotations

from typing import Annotated

from fastapi import Request, Response
from pydantic import BeforeValidator, Field

from app.api.batches import rendered, results_response
from app.api.bodies import JsonBody
from app.api.problems import problem_responses
from app.api.questions import ask
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import meter_of
from app.contract.bodies import batch_limit
from app.contract.fields import Body
from app.contract.problems import BODY_ERRORS
from app.contract.stateless import ValidateBatchResponse
from app.kinds.tictactoe import KIND as TICTACTOE
from app.kinds.tictactoe import VALIDATE, ValidateRequest, position_answer, validate_answer

router = api_router("/v1/tictactoe", ["Tic-tac-toe"])


class ValidateBatchRequest(Body):
    items: Annotated[list[ValidateRequest], BeforeValidator(batch_limit)] = Field(
        min_length=1, description="1 to `max_batch` (default 1000) positions."
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


def validate_batch_answer(batch: ValidateBatchRequest) -> ValidateBatchResponse:
    """The answer of ``validate-batch``, at once (the route answers in slices)."""
    return {"results": [validate_answer(item) for item in batch.items]}


ask(router, TICTACTOE, VALIDATE)


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
    positions = [(item.board, item.k) for item in batch.items]  # a position asked again: once
    return await results_response(positions, rendered(position_answer), meter)
