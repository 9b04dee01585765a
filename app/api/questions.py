"""A stateless question's route, declared once: its body parsed and its one answer written under
the client's CPU meter (``work.meter_of``), its OpenAPI answers those of its body's examples.

A question with one answer per body (check-move, legal-moves, apply-move, validate,
forbidden-points) is this and nothing more; batches answer in slices (``app.api.batches``)
and declare their own routes. A kind may declare its questions on its face (``Face.questions``):
``kind_router`` mounts them under ``/v1/<kind>``, or, for a kind whose questions come with
batches the edge declares (Reversi's ``check-moves``, tic-tac-toe's ``validate-batch``), its own
router mounts each (``ask``) beside its batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.api.bodies import JsonBody, json_response
from app.api.problems import problem_responses
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import meter_of
from app.contract.games import Kind, Question
from app.contract.problems import BODY_ERRORS
from app.rules.errors import DomainError

ModelT = TypeVar("ModelT", bound=BaseModel)


def question(
    router: APIRouter,
    path: str,
    name: str,
    body: JsonBody[ModelT],
    answer: Callable[[ModelT], object],
    *,
    summary: str,
    description: str,
    response_model: Any,
    refused: Iterable[type[DomainError]] = (),
) -> None:
    """Declare ``POST path`` on ``router``: ``answer`` of the parsed ``body``. ``name`` is the
    endpoint's, from which its operation id derives; ``refused`` are the domain errors the
    answer may raise besides the body's own problems."""

    def respond(asked: ModelT) -> Response:
        return json_response(answer(asked))

    async def endpoint(request: Request) -> Response:
        return await body.answer(request, respond, meter_of(request))

    endpoint.__name__ = endpoint.__qualname__ = name
    router.post(
        path,
        name=name,
        summary=summary,
        description=description,
        response_model=response_model,
        responses={200: body.answers(answer), **problem_responses(*BODY_ERRORS, *refused)},
        openapi_extra=resend(Resend.ALWAYS, body.openapi),
    )(endpoint)


def ask(router: APIRouter, kind: Kind, asked: Question) -> None:
    """Declare on ``router`` the route of a question ``kind`` declares (``Face.questions``):
    ``POST <router's prefix><path>``, tagged as the router is."""
    question(
        router,
        asked.path,
        asked.endpoint or f"{kind.name}_{asked.name}",
        JsonBody(asked.body, dict(asked.examples)),
        asked.answer,
        summary=asked.summary,
        description=asked.description,
        response_model=asked.response_model,
        refused=asked.refused,
    )


def kind_router(kind: Kind) -> APIRouter:
    """The routes of the stateless questions ``kind`` declares (``Face.questions``), under
    ``/v1/<kind>`` and tagged with its title."""
    face = kind.face
    router = api_router(f"/v1/{kind.name}", [face.title])
    for asked in face.questions:
        ask(router, kind, asked)
    return router
