"""RFC 9457 problem details: every problem the service answers with, and where errors become HTTP.

``PROBLEM_TYPES`` is the one table of problems: each one's ``code`` (for a domain error, the
error class's own), HTTP status, title and when it is answered. Everything else derives from
it: the handlers' answers, the OpenAPI responses of every route (``problem_responses``) and
``/problems/{code}``. Domain errors from ``rules``/``sessions`` are looked up by class; framework
errors (validation, unknown path, wrong method, oversize body, rate limit) have entries of their
own, so no error leaves the app as anything but ``application/problem+json``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from app.rules.errors import DomainError
from app.rules.reversi import IllegalMove
from app.sessions.errors import (
    BoardTooLarge,
    CapacityExhausted,
    CellOccupied,
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NoBracket,
    NotYourTurn,
    OutOfBounds,
    PreconditionFailed,
    StoreUnavailable,
    TooManyStreams,
    Unauthorized,
    WrongPlayer,
)

PROBLEM_MEDIA_TYPE = "application/problem+json"
# A validation problem lists at most this many errors (the first ones); ``error_count`` says how
# many there were.
MAX_REPORTED_ERRORS = 20
logger = logging.getLogger("app.api.problems")


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
        None,
        description="Only for `validation_error`: the fields that failed and why, the first "
        f"{MAX_REPORTED_ERRORS} of them.",
    )
    error_count: int | None = Field(
        None, description="Only for `validation_error`: how many fields failed in all."
    )


@dataclass(frozen=True, slots=True)
class ProblemType:
    """One kind of error answer: its stable code, HTTP status and title, when it is given, what
    a client does about it, and a realistic answer's ``detail`` and extra members (the example
    of every route that answers it, in /docs)."""

    code: str
    status: int
    title: str
    when: str  # for people: the docs of every route that answers it, and /problems/{code}
    todo: str
    detail: str
    extra: Mapping[str, object] = field(default_factory=dict)

    def example(self) -> dict[str, Any]:
        """The whole answer, as the service would send it."""
        return problem_body(self, self.detail, self.extra)


VALIDATION_ERROR = ProblemType(
    "validation_error", 422, "Request does not match the schema",
    "the body is not JSON or fails the schema (wrong types, unknown fields, a ragged board, a "
    "coordinate outside a posted board, a batch too long), or a header, path or query "
    "parameter is malformed; `errors` names each one",
    "fix each field `errors` names (`loc` is its path); /openapi.json declares what it takes",
    "body.k: k must be at most n = 15",
    {"errors": [{"loc": ["body", "k"], "msg": "k must be at most n = 15", "type": "k_over_n"}],
     "error_count": 1},
)  # fmt: skip
PAYLOAD_TOO_LARGE = ProblemType(
    "payload_too_large", 413, "Request body too large",
    "the body is larger than the configured limit; refused while reading",
    "send a smaller body: split a batch into several requests",
    "request body exceeds the limit of 1048576 bytes",
)  # fmt: skip
UNSUPPORTED_CONTENT_ENCODING = ProblemType(
    "unsupported_content_encoding", 415, "Content encoding not supported",
    "the request has a `Content-Encoding` (a compressed body): bodies are read as sent, never "
    "decompressed (see `Accept-Encoding`)",
    "send the body uncompressed, without `Content-Encoding`",
    "the body must not be encoded; got Content-Encoding b'gzip'",
)  # fmt: skip
NOT_FOUND = ProblemType(
    "not_found", 404, "Not found", "no resource at this path",
    "check the path against /openapi.json (paths have no trailing slash)",
    "no resource at /v1/game",
)  # fmt: skip
METHOD_NOT_ALLOWED = ProblemType(
    "method_not_allowed", 405, "Method not allowed",
    "the path does not take this method (see `Allow`)",
    "use one of the methods the `Allow` header lists",
    "GET is not allowed on /v1/reversi/check-move",
)  # fmt: skip
RATE_LIMITED = ProblemType(
    "rate_limited", 429, "Too many requests",
    "this client address creates games too fast, has sent too many wrong tokens, has read "
    "too many moves of games' move lists, or has used its share of the service's time (its "
    "bodies parsed, its stateless questions answered) (see `Retry-After`)",
    "wait the `Retry-After` seconds, then send the request again",
    "too many games created from this address; retry in 2 s",
)  # fmt: skip
# Refusals of the connection itself (app/server.py), answered before the app sees a request.
MALFORMED_HTTP = ProblemType(
    "malformed_http", 400, "Malformed HTTP request",
    "the bytes sent are not an HTTP/1.1 request; the connection is closed",
    "send a well-formed HTTP/1.1 request on a new connection",
    "the request is not valid HTTP/1.1",
)  # fmt: skip
REQUEST_TIMEOUT = ProblemType(
    "request_timeout", 408, "Request not sent in time",
    "the request head or body did not arrive within the server's timeout; the connection is "
    "closed",
    "send the whole request at once, on a new connection",
    "the request body did not arrive within 10 s",
)  # fmt: skip
URL_TOO_LONG = ProblemType(
    "url_too_long", 414, "URL too long", "the URL is longer than the server's limit",
    "shorten the URL: the API's paths and query parameters are short",
    "the URL is longer than 8192 bytes",
)  # fmt: skip
HEADERS_TOO_LARGE = ProblemType(
    "headers_too_large", 431, "Request header fields too large",
    "the request has more header fields, or more header bytes, than the server's limits",
    "send fewer or shorter header fields",
    "the request has more than 100 header fields",
)  # fmt: skip
TRANSFER_CODING_NOT_IMPLEMENTED = ProblemType(
    "transfer_coding_not_implemented", 501, "Transfer coding not implemented",
    "the request's `Transfer-Encoding` names a coding other than `chunked` (RFC 9112 §6.1); the "
    "connection is closed",
    "send the body as it is, with a `Content-Length`, or `Transfer-Encoding: chunked` alone",
    "the only transfer coding taken is chunked, not b'gzip, chunked'",
)  # fmt: skip
TOO_MANY_CONNECTIONS = ProblemType(
    "too_many_connections", 503, "Too many connections",
    "the server has its most connections open, each busy with a request (see `Retry-After`)",
    "wait the `Retry-After` seconds; keep one connection open and reuse it",
    "the server has its most connections open, each busy with a request; retry",
)  # fmt: skip
CONNECTION_PROBLEMS = (
    MALFORMED_HTTP, REQUEST_TIMEOUT, URL_TOO_LONG, HEADERS_TOO_LARGE,
    TRANSFER_CODING_NOT_IMPLEMENTED, TOO_MANY_CONNECTIONS,
)  # fmt: skip
INTERNAL_ERROR = ProblemType(
    "internal_error", 500, "Internal server error", "a bug: never expected",
    "report it with the answer's `X-Request-ID`; a move sent with an `Idempotency-Key` can be "
    "sent again safely",
    "the server failed to answer this request",
)  # fmt: skip


def _refusal(
    example: DomainError, status: int, title: str, when: str, todo: str
) -> tuple[type[DomainError], ProblemType]:
    """A domain error's problem; its example is a real instance, so the example's ``detail``
    and members are what the service answers."""
    return type(example), ProblemType(
        example.code, status, title, when, todo, str(example), example.details()
    )


# Domain errors by class. The code is the class's own.
DOMAIN_PROBLEMS: dict[type[DomainError], ProblemType] = dict([
    _refusal(
        IllegalMove(0, 4, "W", "no_bracket"), 422, "Illegal move",
        "`apply-move` of an illegal move; `reason` says why",
        "play one of the moves `legal-moves` lists",
    ),
    _refusal(
        NoBracket(0, 0), 409, "Illegal move",
        "a Reversi session's move that brackets no opponent stone (`reason`: `no_bracket`)",
        "play a cell that brackets an opponent stone (`legal-moves` on the game's board)",
    ),
    _refusal(
        Unauthorized(), 401, "Missing or invalid token",
        "no bearer token, or not one of this game's",
        "send `Authorization: Bearer <token>` with your seat's token from `POST /v1/games`",
    ),
    _refusal(
        WrongPlayer(2, 1), 403, "Token is for the other player", "`player` contradicts the token",
        "leave `player` out (the token says who moves) or send your own seat's number",
    ),
    _refusal(
        GameNotFound("-heRG8jEVeK2DVZG"), 404, "Game not found",
        "no such game: never created, deleted or expired",
        "create a new game; a game nobody touches for the idle time expires",
    ),
    _refusal(
        MoveNotFound("-heRG8jEVeK2DVZG", 12), 404, "Move not found",
        "the game has no move with this number",
        "ask for a `seq` from 1 to the game's `move_count`",
    ),
    _refusal(
        OutOfBounds(3, 0, 3), 422, "Cell outside the board", "`row` or `col` outside 0 … n−1",
        "send a `row` and `col` inside the board (0-based)",
    ),
    _refusal(
        NotYourTurn(1, 2), 409, "Not your turn", "the other player moves next (`next_player`)",
        "wait for the other player's move: poll the game with `If-None-Match` or read its events",
    ),
    _refusal(
        CellOccupied(1, 0), 409, "Cell occupied", "the cell already holds a mark",
        "play an empty cell (`…/board` shows them)",
    ),
    _refusal(
        GameOver("won", 1, "timeout"), 409, "Game over",
        "the game is won or drawn (`game_status`, `winner`, `reason`)",
        "read the game's final state; start a new game to play again",
    ),
    _refusal(
        BoardTooLarge(2000, 1000), 422, "Board too large to render",
        "`…/board` of a board too large to render", "read the game's moves (`…/moves`) instead",
    ),
    _refusal(
        PreconditionFailed(7), 412, "The game has moved on",
        "`If-Match` names another version of the game (`version`)",
        "read the game again, decide with its new state, and send its new `ETag` in `If-Match`",
    ),
    _refusal(
        IdempotencyKeyReused(), 422, "Idempotency-Key reused with a different body",
        "an `Idempotency-Key` sent again with a different move or action",
        "send a new `Idempotency-Key` with each new move or action; reuse one only to retry",
    ),
    _refusal(
        CapacityExhausted(10000, 30), 503, "Too many live games",
        "the store is full, or the client that created the game (for a new game: this one) "
        "holds its share of the store's games or moves (`ADJUDICATOR_CLIENT_SHARE`; see "
        "`Retry-After`)",
        "wait the `Retry-After` seconds, then create the game (or send the move) again",
    ),
    _refusal(
        StoreUnavailable(), 503, "Game store unavailable",
        "the game store (Redis) does not answer; a request that changes a game says whether it "
        "may have been applied all the same (`may_have_been_applied`)",
        "retry later; a request that may have been applied, send again with the same "
        "`Idempotency-Key`: it is applied at most once, and the retry gets its answer",
    ),
    _refusal(
        TooManyStreams("this game", 50, 5), 503, "Too many event streams",
        "this client address has its most open event streams, or this process (or this game) "
        "has its most and no client holds more than its share of them (see `Retry-After`); "
        "also the `error` event that ends a stream whose place went to another client's",
        "close the streams you no longer read, or poll with `If-None-Match`; retry after "
        "`Retry-After`",
    ),
])  # fmt: skip
FRAMEWORK_PROBLEMS = (
    VALIDATION_ERROR, PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_ENCODING, NOT_FOUND,
    METHOD_NOT_ALLOWED, RATE_LIMITED, INTERNAL_ERROR,
)  # fmt: skip
# Every problem; a code may be answered with two statuses (a rule broken in a session is 409,
# the same rule in a stateless question 422: `illegal_move`), never with two titles.
ALL_PROBLEMS = (*FRAMEWORK_PROBLEMS, *CONNECTION_PROBLEMS, *DOMAIN_PROBLEMS.values())
# By code, for /problems/{code}: every entry of the code (two for `illegal_move`).
PROBLEM_TYPES: dict[str, list[ProblemType]] = {}
for _problem in ALL_PROBLEMS:
    PROBLEM_TYPES.setdefault(_problem.code, []).append(_problem)


def problem_of(error: type[DomainError]) -> ProblemType:
    """The problem a domain error is answered with (its class, or the nearest one listed)."""
    for cls in error.__mro__:
        if cls in DOMAIN_PROBLEMS:
            return DOMAIN_PROBLEMS[cls]
    raise LookupError(f"{error.__name__} has no entry in api/problems.py")


def _headers_of(exc: DomainError) -> dict[str, str] | None:
    if isinstance(exc, Unauthorized):
        return {"WWW-Authenticate": "Bearer"}
    if isinstance(exc, CapacityExhausted | TooManyStreams):
        return {"Retry-After": str(exc.retry_after)}
    if exc.replayed:
        return {"Idempotent-Replayed": "true"}
    return None


# What any endpoint that takes a JSON body can answer: an oversize body, a schema mismatch, a
# client that has used its share of the time bodies take to parse.
BODY_ERRORS = (PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_ENCODING, VALIDATION_ERROR, RATE_LIMITED)

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


def problem_body(
    problem: ProblemType, detail: str, extra: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """The members of one problem (RFC 9457), as answers and event streams send it."""
    body: dict[str, Any] = {
        "type": f"/problems/{problem.code}",
        "title": problem.title,
        "status": problem.status,
        "detail": detail,
        "code": problem.code,
    }
    for key, value in (extra or {}).items():
        body.setdefault(key, value)  # an extra member never replaces a standard one
    return body


def _issue(error: Mapping[str, Any]) -> dict[str, Any]:
    msg = str(error["msg"])
    reason = (error.get("ctx") or {}).get("error")
    if error["type"] == "json_invalid" and reason and str(reason) not in msg:
        msg = f"{msg}: {reason}"  # say what the parser tripped on, e.g. a missing comma
    return {"loc": list(error["loc"]), "msg": msg, "type": str(error["type"])}


def validation_problem(
    errors: Sequence[Mapping[str, Any]], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """A 422 naming the failing fields (the first ``MAX_REPORTED_ERRORS``) and counting them all;
    ``detail`` names the first one."""
    issues = [_issue(error) for error in errors[:MAX_REPORTED_ERRORS]]
    first = issues[0] if issues else {"loc": ["body"], "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"])
    more = f" (and {len(errors) - 1:,} more)" if len(errors) > 1 else ""
    return problem_response(
        VALIDATION_ERROR,
        f"{where}: {first['msg']}{more}",
        extra={"errors": issues, "error_count": len(errors)},
        headers=headers,
    )


def _counted(request: Request, response: JSONResponse, problem: ProblemType) -> JSONResponse:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.refusals.labels(problem.code).inc()
    return response


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
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
    problem = problem_of(type(exc))  # a LookupError here is a bug: answered 500, and logged
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
    app.add_exception_handler(HTTPException, _on_http_exception)
    app.add_exception_handler(DomainError, _on_domain_error)
    app.add_exception_handler(Exception, _on_unexpected)


def problem_responses(
    *answers: ProblemType | type[DomainError],
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for a route that may answer these problems.

    One entry per status; its description lists each problem's code and when it is answered, and
    each problem has its own example answer, straight from the problems' table.
    """
    problems = [a if isinstance(a, ProblemType) else problem_of(a) for a in answers]
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
