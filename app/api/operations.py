"""Operational routes: liveness and readiness probes, metrics, and the problem types."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from fastapi import Request, Response
from fastapi.responses import PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from app.api.params import Param, anything
from app.api.problems import problem_responses
from app.api.routing import api_router
from app.contract.problems import NOT_FOUND, ProblemTable
from app.contract.problems import ProblemType as ProblemEntry
from app.sessions.errors import StoreUnavailable

router = api_router(tags=["Operations"])


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    status: Literal["ready"]


HEALTHY = b'{"status":"ok"}'
READY = b'{"status":"ready"}'


@router.get(
    "/healthz",
    summary="Liveness",
    description="200 while the process runs.",
    response_model=Health,
)
async def get_health(request: Request) -> Response:
    return Response(HEALTHY, media_type="application/json")


@router.get(
    "/readyz",
    summary="Readiness",
    description="200 when the service can answer requests, including its game store (which "
    "takes a write of the service's own); 503 `store_unavailable` while the store does not "
    "answer, or refuses writes.",
    response_model=Readiness,
    responses=problem_responses(StoreUnavailable),
)
async def get_readiness(request: Request) -> Response:
    if not await request.app.state.store.ready():
        raise StoreUnavailable()
    return Response(READY, media_type="application/json")


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    description="Requests by route and status, latency histogram, moves adjudicated, refusals "
    "by problem code, games ended by reason, live games. Per process.",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
async def get_metrics(request: Request) -> Response:
    registry = request.app.state.metrics
    registry.live_games.set(await request.app.state.store.live_games())
    archiver = request.app.state.archiver
    if archiver is not None:
        registry.archived_games.set(archiver.size)
        registry.archive_written.set(archiver.written)
        waiting, lag = await archiver.lag()
        registry.archive_waiting.set(waiting)
        registry.archive_lag.set(lag)
    return Response(generate_latest(registry.registry), media_type=CONTENT_TYPE_LATEST)


class ProblemDescription(BaseModel):
    code: str
    status: int = Field(description="The HTTP status it is answered with (the first, for a code "
                        "answered with two: `statuses` lists them).")  # fmt: skip
    statuses: list[int]
    title: str
    when: str = Field(description="When the service answers it.")
    todo: str = Field(description="What a client does about it.")
    example: dict[str, Any] = Field(description="A realistic answer.")


CODE = Param[str](
    "code", "path", {"type": "string"}, "A problem's `code`, e.g. `cell_occupied`.", anything, ""
)


@router.get(
    "/problems/{code}",
    summary="Describe an error code",
    description="The `type` of every error answer points here: the code's status, title, when "
    "it is answered, what to do about it, and an example answer.",
    response_model=ProblemDescription,
    responses=problem_responses(NOT_FOUND),
    openapi_extra={"parameters": [CODE.openapi]},
)
async def get_problem_type(request: Request) -> ProblemDescription:
    code = CODE.read(request)
    table: ProblemTable = request.app.state.problems
    entries = table.by_code.get(code)
    if entries is None:
        raise HTTPException(404, f"no problem type {code!r}")
    return describe(code, entries)


def describe(code: str, entries: Sequence[ProblemEntry]) -> ProblemDescription:
    """What ``/problems/{code}`` answers: the code's entries in the table, as one description."""
    first = entries[0]

    def each(text: Callable[[ProblemEntry], str]) -> str:
        if len(entries) == 1:
            return text(first)
        return " ".join(f"{entry.status}: {text(entry)}." for entry in entries)

    return ProblemDescription(
        code=code,
        status=first.status,
        statuses=[entry.status for entry in entries],
        title=first.title,
        when=each(lambda entry: entry.when),
        todo=each(lambda entry: entry.todo),
        example=first.example(),
    )


def document_problem_types(schema: dict[str, Any], table: ProblemTable) -> None:
    """Every problem code the service answers with, as an example of ``/problems/{code}``'s
    answer: the OpenAPI document carries the whole table (code, statuses, title, when, what to
    do), /docs lists it, and the clients generated from the document read it
    (clients/python/generate.py)."""
    answer = schema["paths"]["/problems/{code}"]["get"]["responses"]["200"]
    answer["content"]["application/json"]["examples"] = {
        code: {"summary": entries[0].title, "value": describe(code, entries).model_dump()}
        for code, entries in table.by_code.items()
    }
