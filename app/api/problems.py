"""Where errors become HTTP: every error the app can raise answered as problem+json.

The problems are the one table of ``app.contract.problems`` (the app's own ``ProblemTable``, with
its kinds' refusals, is ``app.state.problems``): the handlers' answers, the OpenAPI responses of
every route (``problem_responses``) and ``/problems/{code}`` derive from it. Domain errors from
``rules``/``sessions`` are looked up by class; framework errors (validation, unknown path, wrong
method, oversize body, rate limit) have rows of their own, so no error leaves the app as
anything but ``application/problem+json``. A body the contract or the records refuse
(``app.contract.bodies.BodyInvalid``) is answered as the framework's validation error is.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from app.contract.bodies import BodyInvalid
from app.contract.problems import (
    INTERNAL_ERROR,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    PROBLEM_MEDIA_TYPE,
    RATE_LIMITED,
    SERVICE_PROBLEMS,
    VALIDATION_ERROR,
    Problem,
    ProblemTable,
    ProblemType,
    Refusal,
    problem_body,
    validation_problem_body,
)
from app.rules.errors import DomainError
from app.sessions.errors import CapacityExhausted, TooManyStreams, Unauthorized

logger = logging.getLogger("app.api.problems")


def _headers_of(exc: DomainError) -> dict[str, str] | None:
    if isinstance(exc, Unauthorized):
        return {"WWW-Authenticate": "Bearer"}
    if isinstance(exc, CapacityExhausted | TooManyStreams):
        return {"Retry-After": str(exc.retry_after)}
    if exc.replayed:
        return {"Idempotent-Replayed": "true"}
    return None


PROBLEM_BY_HTTP_STATUS = {
    problem.status: problem
    for problem in (NOT_FOUND, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, RATE_LIMITED)
}


def problem_response(
    problem: ProblemType,
    detail: str,
    *,
    headers: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | None = None,
) -> JSONResponse:
    """Render one problem as an ``application/problem+json`` response.

    ``extra`` adds members such as ``errors`` or a rule error's ``reason``.
    """
    return JSONResponse(
        problem_body(problem, detail, extra),
        status_code=problem.status,
        headers=headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


def validation_problem(
    errors: Sequence[Mapping[str, Any]], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """A 422 naming the failing fields (``validation_problem_body``)."""
    return JSONResponse(
        validation_problem_body(errors),
        status_code=VALIDATION_ERROR.status,
        headers=headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


def _counted(request: Request, response: JSONResponse, problem: ProblemType) -> JSONResponse:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.refusals.labels(problem.code).inc()
    return response


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    # The framework's refusal of a request (its own, or the edge's of a query) and the
    # contract's and records' of a body (``BodyInvalid``): one answer.
    assert isinstance(exc, RequestValidationError | BodyInvalid)
    return _counted(request, validation_problem(exc.errors()), VALIDATION_ERROR)


async def _on_http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:
        # FastAPI's answer to a body json.loads gave up on (e.g. nested past the recursion
        # limit): the same 422 as any other unparsable body.
        unparsable = {"loc": ["body"], "msg": "body is not parsable JSON", "type": "json_invalid"}
        return _counted(request, validation_problem([unparsable]), VALIDATION_ERROR)
    phrase = HTTPStatus(exc.status_code).phrase
    problem = PROBLEM_BY_HTTP_STATUS.get(exc.status_code) or ProblemType(
        f"http_{exc.status_code}", exc.status_code, phrase, phrase, "", phrase
    )
    headers = exc.headers
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": ", ".join(_allowed_methods(request))}
    detail = exc.detail if isinstance(exc.detail, str) else "request refused"
    if detail == phrase:  # Starlette's default: say what happened
        if exc.status_code == 404:
            detail = f"no resource at {request.url.path}"
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
    return _counted(request, problem_response(problem, detail, headers=headers), problem)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route offers at this path (a path may be served by several routes)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        regex = getattr(route, "path_regex", None)
        if regex is not None and regex.match(request.url.path):
            methods |= set(getattr(route, "methods", None) or ())
    methods.discard("HEAD")  # implied by GET, and not an operation of the API
    return sorted(methods)


async def _on_domain_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, DomainError)
    table: ProblemTable = request.app.state.problems
    problem = table.problem_of(type(exc))  # a LookupError here is a bug: answered 500, logged
    response = problem_response(problem, str(exc), headers=_headers_of(exc), extra=exc.details())
    return _counted(request, response, problem)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unhandled error on %s %s", request.method, request.url.path)
    response = problem_response(INTERNAL_ERROR, INTERNAL_ERROR.detail)
    return _counted(request, response, INTERNAL_ERROR)


# nginx's "client closed request": what the metrics and the access log record when the client
# went away (or the server closed on it, e.g. a body too slow) before its body was read.
CLIENT_CLOSED_REQUEST = 499


async def _on_client_disconnect(request: Request, exc: Exception) -> Response:
    # Nobody is left to answer: no problem body, no traceback.
    return Response(status_code=CLIENT_CLOSED_REQUEST)


def install_problem_handlers(app: FastAPI) -> None:
    """Route every error the app can raise to a problem+json answer."""
    app.add_exception_handler(ClientDisconnect, _on_client_disconnect)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(BodyInvalid, _on_validation_error)
    app.add_exception_handler(HTTPException, _on_http_exception)
    app.add_exception_handler(DomainError, _on_domain_error)
    app.add_exception_handler(Exception, _on_unexpected)


def problem_responses(
    *answers: ProblemType | Refusal | type[DomainError],
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for a route that may answer these problems.

    One entry per status; its description lists each problem's code and when it is answered, and
    each problem has its own example answer, straight from the problems' table.
    """
    problems = [_problem(answer) for answer in answers]
    by_status: dict[int, list[ProblemType]] = {}
    for problem in problems:
        listed = by_status.setdefault(problem.status, [])
        if problem not in listed:
            listed.append(problem)
    return {
        status: {
            "model": Problem,
            "description": " ".join(f"`{p.code}`: {p.when}." for p in listed),
            "content": {
                PROBLEM_MEDIA_TYPE: {
                    "examples": {p.code: {"summary": p.title, "value": p.example()} for p in listed}
                }
            },
        }
        for status, listed in sorted(by_status.items())
    }


def _problem(answer: ProblemType | Refusal | type[DomainError]) -> ProblemType:
    """A route's documented answer: a problem, a kind's refusal, or an error of the service."""
    if isinstance(answer, ProblemType):
        return answer
    if isinstance(answer, Refusal):
        return answer.problem
    return SERVICE_PROBLEMS.problem_of(answer)
