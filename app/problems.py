"""RFC 9457 problem details: the one shape of every error answer, and where errors become HTTP.

Clients branch on ``code``. Domain errors from ``rules``/``sessions`` carry their code; the table
``STATUS_BY_RULE_ERROR`` gives their HTTP status. Framework errors (validation, unknown path,
wrong method, oversize body) are mapped here too, so no error leaves the app as anything but
``application/problem+json``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from app.rules.errors import RuleError
from app.rules.reversi import IllegalMove
from app.sessions.errors import (
    BoardTooLarge,
    CapacityExhausted,
    CellOccupied,
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NotYourTurn,
    OutOfBounds,
    PreconditionFailed,
    StoreUnavailable,
    Unauthorized,
    WrongPlayer,
)

PROBLEM_MEDIA_TYPE = "application/problem+json"
logger = logging.getLogger("app.problems")


class ValidationIssue(BaseModel):
    """One reason a request was refused by the schema: where, what, and a stable type."""

    loc: list[str | int] = Field(examples=[["body", "board", 3]])
    msg: str = Field(examples=["character 'x' at column 5 is not one of '.', 'B', 'W'"])
    type: str = Field(examples=["board_cell"])


class Problem(BaseModel):
    """An error answer (RFC 9457). ``code`` is stable; ``title`` and ``detail`` are for people."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description="A URI reference naming the problem type: `/problems/{code}`.")
    title: str
    status: int
    detail: str
    code: str = Field(description="Stable snake_case identifier; branch on this.")
    errors: list[ValidationIssue] | None = Field(
        None, description="Only for `validation_error`: every field that failed and why."
    )


# Every code the service answers with: (status, title). The README's error table mirrors it.
PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    "validation_error": (422, "Request does not match the schema"),
    "payload_too_large": (413, "Request body too large"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "illegal_move": (422, "Illegal move"),
    "game_not_found": (404, "Game not found"),
    "move_not_found": (404, "Move not found"),
    "unauthorized": (401, "Missing or invalid token"),
    "wrong_player": (403, "Token is for the other player"),
    "out_of_bounds": (422, "Cell outside the board"),
    "not_your_turn": (409, "Not your turn"),
    "cell_occupied": (409, "Cell occupied"),
    "game_over": (409, "Game over"),
    "board_too_large": (422, "Board too large to render"),
    "capacity_exhausted": (503, "Too many live games"),
    "store_unavailable": (503, "Game store unavailable"),
    "precondition_failed": (412, "The game has moved on"),
    "idempotency_key_reused": (422, "Idempotency-Key reused with a different body"),
    "rate_limited": (429, "Too many requests"),
    "internal_error": (500, "Internal server error"),
}

STATUS_BY_RULE_ERROR: dict[type[RuleError], int] = {
    IllegalMove: 422,
    GameNotFound: 404,
    MoveNotFound: 404,
    Unauthorized: 401,
    WrongPlayer: 403,
    OutOfBounds: 422,
    NotYourTurn: 409,
    CellOccupied: 409,
    GameOver: 409,
    BoardTooLarge: 422,
    CapacityExhausted: 503,
    StoreUnavailable: 503,
    PreconditionFailed: 412,
    IdempotencyKeyReused: 422,
}


def _rule_error_headers(exc: RuleError) -> dict[str, str] | None:
    if isinstance(exc, Unauthorized):
        return {"WWW-Authenticate": "Bearer"}
    if isinstance(exc, CapacityExhausted):
        return {"Retry-After": str(exc.retry_after)}
    return None


CODE_BY_HTTP_STATUS = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    429: "rate_limited",
}


def problem_response(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    headers: Mapping[str, str] | None = None,
    extra: Mapping[str, object] | None = None,
) -> JSONResponse:
    """Render one problem as an ``application/problem+json`` response.

    ``extra`` adds members such as ``errors`` or a rule error's ``reason``.
    """
    body: dict[str, Any] = {
        "type": f"/problems/{code}",
        "title": title or PROBLEM_TYPES.get(code, (status, "Error"))[1],
        "status": status,
        "detail": detail,
        "code": code,
    }
    for key, value in (extra or {}).items():
        body.setdefault(key, value)  # an extra member never replaces a standard one
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_MEDIA_TYPE)


def _issue(error: Mapping[str, Any]) -> dict[str, Any]:
    msg = str(error["msg"])
    reason = (error.get("ctx") or {}).get("error")
    if error["type"] == "json_invalid" and reason:
        msg = f"{msg}: {reason}"  # say what the parser tripped on, e.g. a missing comma
    return {"loc": list(error["loc"]), "msg": msg, "type": str(error["type"])}


def validation_problem(errors: Sequence[Mapping[str, Any]]) -> JSONResponse:
    """A 422 naming every failing field; ``detail`` names the first one."""
    issues = [_issue(error) for error in errors]
    first = issues[0] if issues else {"loc": ["body"], "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"])
    more = f" (and {len(issues) - 1} more)" if len(issues) > 1 else ""
    return problem_response(
        422, "validation_error", f"{where}: {first['msg']}{more}", extra={"errors": issues}
    )


def _counted(request: Request, response: JSONResponse, code: str) -> JSONResponse:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.refusals.labels(code).inc()
    return response


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return _counted(request, validation_problem(exc.errors()), "validation_error")


async def _on_http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:
        # FastAPI's answer to a body json.loads gave up on (e.g. nested past the recursion
        # limit): the same 422 as any other unparsable body.
        unparsable = {"loc": ["body"], "msg": "body is not parsable JSON", "type": "json_invalid"}
        return _counted(request, validation_problem([unparsable]), "validation_error")
    code = CODE_BY_HTTP_STATUS.get(exc.status_code, f"http_{exc.status_code}")
    headers = exc.headers
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": ", ".join(_allowed_methods(request))}
    detail = exc.detail if isinstance(exc.detail, str) else "request refused"
    if detail == HTTPStatus(exc.status_code).phrase:  # Starlette's default: say what happened
        if exc.status_code == 404:
            detail = f"no resource at {request.url.path}"
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
    return _counted(request, problem_response(exc.status_code, code, detail, headers=headers), code)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route offers at this path (a path may be served by several routes)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        regex = getattr(route, "path_regex", None)
        if regex is not None and regex.match(request.url.path):
            methods |= set(getattr(route, "methods", None) or ())
    methods.discard("HEAD")  # implied by GET, and not an operation of the API
    return sorted(methods)


async def _on_rule_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RuleError)
    status = next(
        (STATUS_BY_RULE_ERROR[cls] for cls in type(exc).__mro__ if cls in STATUS_BY_RULE_ERROR),
        409,
    )
    response = problem_response(
        status,
        exc.code,
        str(exc),
        title=exc.title,
        headers=_rule_error_headers(exc),
        extra=exc.details(),
    )
    return _counted(request, response, exc.code)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unhandled error on %s %s", request.method, request.url.path)
    response = problem_response(500, "internal_error", "the server failed to answer this request")
    return _counted(request, response, "internal_error")


def install_problem_handlers(app: FastAPI) -> None:
    """Route every error the app can raise to a problem+json answer."""
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(HTTPException, _on_http_exception)
    app.add_exception_handler(RuleError, _on_rule_error)
    app.add_exception_handler(Exception, _on_unexpected)
