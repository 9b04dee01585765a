"""RFC 9457 problem details: every problem the service answers with, as one table.

Each problem's ``code`` (for a domain error, the error class's own), HTTP status, title, when it
is answered and what a client does about it. The server's handlers, the OpenAPI responses of
every route and ``/problems/{code}`` derive from it; so does the Python client's exception class
of each code, through the OpenAPI document (which lists them all as ``/problems/{code}``'s
examples).
A game kind brings the refusals of its own rules (``GameKind.refusals``) as rows made here
(``refusal``); ``ProblemTable.of`` joins them to the service's own rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.rules.errors import DomainError
from app.rules.reversi import IllegalMove
from app.sessions.errors import (
    ActionNotAllowed,
    BoardTooLarge,
    CapacityExhausted,
    CellOccupied,
    ChallengeNotFound,
    GameNotFound,
    GameNotOver,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NothingToTakeBack,
    NotOrganiser,
    NotYourTurn,
    OutOfBounds,
    PlayerNotFound,
    PreconditionFailed,
    SeatTaken,
    SeekNotFound,
    StoreUnavailable,
    TooLateToAbort,
    TooManySpectators,
    TooManyStreams,
    TournamentNotFound,
    TournamentRefused,
    Unauthorized,
    WaitingForOpponent,
    WrongPlayer,
    WrongStep,
)

PROBLEM_MEDIA_TYPE = "application/problem+json"
# A validation problem lists at most this many errors (the first ones); ``error_count`` says how
# many there were.
MAX_REPORTED_ERRORS = 20


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
CORS_REFUSED = ProblemType(
    "cors_refused", 400, "Cross-origin request refused",
    "a browser's preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) asks "
    "for an origin, a method or a header the service does not allow (`ADJUDICATOR_CORS_ORIGINS`)",
    "serve the page from an allowed origin, or have the operator add yours; send only the "
    "methods and headers /openapi.json declares",
    "Disallowed CORS origin",
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


@dataclass(frozen=True, slots=True)
class Refusal:
    """A domain error class and the problem it is answered with."""

    error: type[DomainError]
    problem: ProblemType


def refusal(example: DomainError, status: int, title: str, when: str, todo: str) -> Refusal:
    """A domain error's row; its example is a real instance, so the example's ``detail`` and
    members are what the service answers."""
    problem = ProblemType(example.code, status, title, when, todo, str(example), example.details())
    return Refusal(type(example), problem)


ILLEGAL_MOVE = refusal(
    IllegalMove(0, 4, "W", "no_bracket"), 422, "Illegal move",
    "`apply-move` of an illegal move; `reason` says why",
    "play one of the moves `legal-moves` lists",
)  # fmt: skip


# A move the game's rules refuse in a session (409; the stateless ``apply-move``'s is 422,
# ``ILLEGAL_MOVE``): one row for every kind's rule of that code, told apart by ``reason``.
ILLEGAL_SESSION_MOVE = ProblemType(
    "illegal_move", 409, "Illegal move",
    "a session's move (or an audited record's) that the game's rules refuse; `reason` names "
    "the rule: `no_bracket` (Reversi: the stone brackets no opponent stone), "
    "`pass_with_moves` (an audited Othello record's written pass where the player has a legal "
    "move: Othello passes are inferred), `no_passes` (a pass in a gomoku game whose rule has "
    "none: only renju has passes)",
    "play a move the rules allow (`legal-moves` on the game lists them)",
    "(0, 0) brackets no opponent stone", {"reason": "no_bracket"},
)  # fmt: skip


UNAUTHORIZED = refusal(
    Unauthorized(), 401, "Missing or invalid token",
    "no bearer token, or not one of this game's (a private game's reads: neither a player's "
    "nor a spectator's)",
    "send `Authorization: Bearer <token>` with your seat's token from `POST /v1/games`",
)  # fmt: skip


WRONG_PLAYER = refusal(
    WrongPlayer(2, 1), 403, "Token is for the other player",
    "`player` contradicts the token, or the token is a spectator's (it never acts); or a "
    "player's key sent for another player's seek, challenge or event stream",
    "leave `player` out (the token says who moves) or send your own seat's number; act on "
    "your own seeks and challenges, follow your own stream",
)  # fmt: skip


GAME_NOT_FOUND = refusal(
    GameNotFound("-heRG8jEVeK2DVZG"), 404, "Game not found",
    "no such game: never created, deleted or expired",
    "create a new game; a game nobody touches for the idle time expires",
)  # fmt: skip


PLAYER_NOT_FOUND = refusal(
    PlayerNotFound("Xq3pV0aLm8TzR2kd"), 404, "Player not found",
    "no player with this id",
    "use an id from `POST /v1/players` (a player's key begins with its id)",
)  # fmt: skip


TOURNAMENT_NOT_FOUND = refusal(
    TournamentNotFound("Tq9aZ2xkPp0wL4nb"), 404, "Tournament not found",
    "no tournament with this id",
    "use an id from `POST /v1/tournaments`",
)  # fmt: skip


NOT_ORGANISER = refusal(
    NotOrganiser(), 403, "Not the organiser",
    "a tournament's round, entrant or withdrawal asked with a key other than its organiser's",
    "send the organiser's key (the one that made the tournament)",
)  # fmt: skip


TOURNAMENT_REFUSED = refusal(
    TournamentRefused("round 3 has an unfinished game"), 409, "Tournament refuses it now",
    "a round while a game of the round before is unfinished (or another request is pairing "
    "it), a round past the last, an entrant after round 1 (or entered already, or past "
    "`ADJUDICATOR_MAX_TOURNAMENT_PLAYERS`); `detail` says which",
    "wait for the round's games to end, or read the tournament (`GET /v1/tournaments/{id}`)",
)  # fmt: skip


SEEK_NOT_FOUND = refusal(
    SeekNotFound("Sk4pV0aLm8TzR2kd"), 404, "Seek not found",
    "no open seek with this id: matched (its game made), withdrawn, or never made",
    "list the open seeks (`GET /v1/seeks`); a matched seek's game is told on the player's "
    "stream (`GET /v1/players/{id}/events`)",
)  # fmt: skip


CHALLENGE_NOT_FOUND = refusal(
    ChallengeNotFound("Ch4pV0aLm8TzR2kd"), 404, "Challenge not found",
    "no open challenge with this id: accepted, declined, withdrawn, or never made",
    "list your open challenges (`GET /v1/challenges`)",
)  # fmt: skip


MOVE_NOT_FOUND = refusal(
    MoveNotFound("-heRG8jEVeK2DVZG", 12), 404, "Move not found",
    "the game has no move with this number",
    "ask for a `seq` from 1 to the game's `move_count`",
)  # fmt: skip


OUT_OF_BOUNDS = refusal(
    OutOfBounds(3, 0, 3), 422, "Cell outside the board", "`row` or `col` outside 0 … n−1",
    "send a `row` and `col` inside the board (0-based)",
)  # fmt: skip


NOT_YOUR_TURN = refusal(
    NotYourTurn(1, 2), 409, "Not your turn", "the other player moves next (`next_player`)",
    "wait for the other player's move: poll the game with `If-None-Match` or read its events",
)  # fmt: skip


WRONG_STEP = refusal(
    WrongStep("player 2 chooses now (a colour, or to place two more stones), not a stone",
              "choose"),
    409, "Not this step",
    "an opening rule's step takes another request (`step`: a swap2 opening's `place_three`, "
    "`choose`, `place_two` or `choose_color`; null once the colours are fixed, or in a game "
    "with no choices): a stone while a choice is due, a choice while stones are, or a choice "
    "the step does not offer",
    "read the game's `opening` (`step`, `to_act`) and send what it asks: stones on "
    "`…/moves`, a choice on `…/choice`",
)  # fmt: skip


WAITING_FOR_OPPONENT = refusal(
    WaitingForOpponent(2), 409, "Waiting for an opponent",
    "the game is open (`open_seat`): nobody has taken the other seat yet, so nobody moves",
    "wait until someone joins (`POST /v1/games/{id}/join`): poll the game or read its events "
    "for `event: join`; delete the game to call it off",
)  # fmt: skip


SEAT_TAKEN = refusal(
    SeatTaken(), 409, "No free seat",
    "a join of a game whose seats are both taken (it was never open, or someone joined first)",
    "list the open games (`GET /v1/games?open=true`) and join another, or create one",
)  # fmt: skip


ACTION_NOT_ALLOWED = refusal(
    ActionNotAllowed("takeback"), 409, "Action not allowed in this game",
    "the game was created with this action left out (`rules`: `action` names it)",
    "read the game's `rules`; play on without that action",
)  # fmt: skip


GAME_NOT_OVER = refusal(
    GameNotOver(), 409, "The game goes on",
    "a rematch offered before the game's end",
    "finish the game (or resign, or abort it), then offer the rematch",
)  # fmt: skip


TOO_LATE_TO_ABORT = refusal(
    TooLateToAbort(), 409, "Too late to abort",
    "an abort once the players have made two moves (an opening's posted stones are not theirs)",
    "resign (`POST …/resign`) or offer a draw instead",
)  # fmt: skip


NOTHING_TO_TAKE_BACK = refusal(
    NothingToTakeBack(1), 409, "Nothing to take back",
    "a takeback offered by a player who has made no move that can be taken back (none yet, or "
    "only the opening's: posted stones and a swap2 opening stay)",
    "make a move first; a takeback is offered after one's own move",
)  # fmt: skip


TOO_MANY_SPECTATORS = refusal(
    TooManySpectators(50), 409, "Too many spectator tokens",
    "the game has issued its most spectator tokens (`limit`: the `game_spectators` setting)",
    "share a spectator token already made: any number of readers may use one",
)  # fmt: skip


CELL_OCCUPIED = refusal(
    CellOccupied(1, 0), 409, "Cell occupied", "the cell already holds a mark",
    "play an empty cell (`…/board` shows them)",
)  # fmt: skip


GAME_OVER = refusal(
    GameOver("won", 1, "timeout"), 409, "Game over",
    "the game is won or drawn (`game_status`, `winner`, `reason`)",
    "read the game's final state; start a new game to play again",
)  # fmt: skip


BOARD_TOO_LARGE = refusal(
    BoardTooLarge(2000, 1000), 422, "Board too large to render",
    "`…/board` of a board too large to render", "read the game's moves (`…/moves`) instead",
)  # fmt: skip


PRECONDITION_FAILED = refusal(
    PreconditionFailed(7), 412, "The game has moved on",
    "`If-Match` names another version of the game (`version`)",
    "read the game again, decide with its new state, and send its new `ETag` in `If-Match`",
)  # fmt: skip


IDEMPOTENCY_KEY_REUSED = refusal(
    IdempotencyKeyReused(), 422, "Idempotency-Key reused with a different body",
    "an `Idempotency-Key` sent again with a different move or action",
    "send a new `Idempotency-Key` with each new move or action; reuse one only to retry",
)  # fmt: skip


CAPACITY_EXHAUSTED = refusal(
    CapacityExhausted(10000, 30), 503, "Too many live games",
    "the store is full, or the client that created the game (for a new game: this one) "
    "holds its share of the store's games or moves (`ADJUDICATOR_CLIENT_SHARE`; see "
    "`Retry-After`)",
    "wait the `Retry-After` seconds, then create the game (or send the move) again",
)  # fmt: skip


STORE_UNAVAILABLE = refusal(
    StoreUnavailable(), 503, "Game store unavailable",
    "the game store (Redis) does not answer; a request that changes a game says whether it "
    "may have been applied all the same (`may_have_been_applied`)",
    "retry later; a request that may have been applied, send again with the same "
    "`Idempotency-Key`: it is applied at most once, and the retry gets its answer",
)  # fmt: skip


TOO_MANY_STREAMS = refusal(
    TooManyStreams("this game", 50, 5), 503, "Too many event streams",
    "this client address has its most open event streams, or this process (or this game) "
    "has its most and no client holds more than its share of them (see `Retry-After`); "
    "also the `error` event that ends a stream whose place went to another client's",
    "close the streams you no longer read, or poll with `If-None-Match`; retry after "
    "`Retry-After`",
)  # fmt: skip

# The refusals of a move's rules that every kind placing on cells shares; a kind lists those it
# gives (``GameKind.refusals``), with its own.
CELL_REFUSALS = (OUT_OF_BOUNDS, NOT_YOUR_TURN, CELL_OCCUPIED)
# The domain errors the service itself answers with, whatever kinds it serves: the sessions'
# (tokens, versions, receipts, availability) and the stateless questions'.
SERVICE_REFUSALS = (
    ILLEGAL_MOVE, UNAUTHORIZED, WRONG_PLAYER, GAME_NOT_FOUND, MOVE_NOT_FOUND, PLAYER_NOT_FOUND,
    TOURNAMENT_NOT_FOUND, NOT_ORGANISER, TOURNAMENT_REFUSED, SEEK_NOT_FOUND, CHALLENGE_NOT_FOUND,
    GAME_OVER,
    BOARD_TOO_LARGE, PRECONDITION_FAILED, WRONG_STEP, WAITING_FOR_OPPONENT, SEAT_TAKEN,
    ACTION_NOT_ALLOWED, TOO_LATE_TO_ABORT, TOO_MANY_SPECTATORS, GAME_NOT_OVER,
    NOTHING_TO_TAKE_BACK,
    IDEMPOTENCY_KEY_REUSED, CAPACITY_EXHAUSTED, STORE_UNAVAILABLE, TOO_MANY_STREAMS,
)  # fmt: skip
FRAMEWORK_PROBLEMS = (
    VALIDATION_ERROR, PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_ENCODING, NOT_FOUND,
    METHOD_NOT_ALLOWED, CORS_REFUSED, RATE_LIMITED, INTERNAL_ERROR,
)  # fmt: skip


class Refuses(Protocol):
    """What a game kind says of its refusals (``GameKind``, as far as this table needs it)."""

    @property
    def refusals(self) -> tuple[Refusal, ...]: ...


@dataclass(frozen=True)
class ProblemTable:
    """Every problem one service answers with: its own and those of the kinds it serves.

    A code may be answered with two statuses (a rule broken in a session is 409, the same rule
    in a stateless question 422: ``illegal_move``), never with two titles; a domain error class
    has one row.
    """

    domain: Mapping[type[DomainError], ProblemType]
    all: tuple[ProblemType, ...]
    by_code: Mapping[str, list[ProblemType]] = field(repr=False)  # every entry of the code

    @classmethod
    def of(cls, kinds: Iterable[Refuses] = ()) -> ProblemTable:
        domain: dict[type[DomainError], ProblemType] = {}
        for row in (*SERVICE_REFUSALS, *(r for kind in kinds for r in kind.refusals)):
            if domain.setdefault(row.error, row.problem) is not row.problem:
                raise ValueError(f"{row.error.__name__} has two rows in the problem table")
        rows = {id(problem): problem for problem in domain.values()}  # a row once, in order
        problems = (*FRAMEWORK_PROBLEMS, *CONNECTION_PROBLEMS, *rows.values())
        by_code: dict[str, list[ProblemType]] = {}
        for problem in problems:
            entries = by_code.setdefault(problem.code, [])
            if entries and entries[0].title != problem.title:
                raise ValueError(f"{problem.code} has two titles: {entries[0].title!r}, …")
            entries.append(problem)
        return cls(domain, problems, by_code)

    def problem_of(self, error: type[DomainError]) -> ProblemType:
        """The problem a domain error is answered with (its class, or the nearest one listed)."""
        for cls in error.__mro__:
            if cls in self.domain:
                return self.domain[cls]
        raise LookupError(f"{error.__name__} has no row in the problem table")


# The service's own rows, whatever kinds it serves.
SERVICE_PROBLEMS = ProblemTable.of()


# What any endpoint that takes a JSON body can answer: an oversize body, a schema mismatch, a
# client that has used its share of the time bodies take to parse.
BODY_ERRORS = (PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_ENCODING, VALIDATION_ERROR, RATE_LIMITED)


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


def validation_problem_body(errors: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The 422 problem naming the failing fields of a request (pydantic's errors, located from
    ``body``, ``query``, …): the first ``MAX_REPORTED_ERRORS``, and counting them all; ``detail``
    names the first one."""
    issues = [_issue(error) for error in errors[:MAX_REPORTED_ERRORS]]
    first = issues[0] if issues else {"loc": ["body"], "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"])
    more = f" (and {len(errors) - 1:,} more)" if len(errors) > 1 else ""
    extra = {"errors": issues, "error_count": len(errors)}
    return problem_body(VALIDATION_ERROR, f"{where}: {first['msg']}{more}", extra)


def problem_json(problem: Mapping[str, Any]) -> bytes:
    """A problem's body as the edge writes it (Starlette's ``JSONResponse``: compact UTF-8
    JSON), for the commands that answer offline."""
    return json.dumps(
        problem, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode()
