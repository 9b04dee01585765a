"""A typed Python client of the service, on httpx: ``Client`` (sync) and ``AsyncClient`` (async).

    from app.client import Client, GameOver

    with Client("http://127.0.0.1:8000") as api:
        game = api.create_game(n=3)
        api.make_move(game["id"], game["tokens"]["1"], 1, 1)

* One method per operation of ``/openapi.json``, named after its operation id in snake_case
  (``createGame`` → ``create_game``); answers are the service's own response types (the
  TypedDicts of ``app.contract`` and of the kinds' faces). It imports nothing of the server's
  edge (FastAPI, Starlette): only ``app.contract`` and the kind registry.
* A problem answer raises ``ProblemError``, or rather the subclass of its ``code``, made from
  the service's table of problems (``app.contract.problems``, with the registry's kinds):
  ``GameOver``, ``NotYourTurn``, ``ValidationError``, … — each carrying the whole problem body.
* Retries: a move, a resignation and a draw offer carry an ``Idempotency-Key`` (one per call
  unless given) and are sent again with the same key after a connection error or a 503 with
  ``Retry-After`` (``Retries``: a bounded number of attempts and a bounded wait), so a retried
  move is applied once. Reads and the stateless questions are retried likewise; creating and
  deleting a game only when the connection failed before the request left.
* ``poll_game`` polls with ``If-None-Match`` (unchanged: ``Polled.state`` is None), and
  ``game_events`` iterates over the game's event stream, resuming with ``Last-Event-ID`` after
  a dropped connection, until the game's ``end``.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, Generic, Literal, ParamSpec, TypeVar, cast

import httpx
from typing_extensions import TypedDict

from app.contract.events import KEEP_ALIVE_SECONDS, stream_read_timeout
from app.contract.games import MoveOut, etag
from app.contract.problems import ProblemTable
from app.contract.stateless import (
    ApplyMoveResponse,
    CheckMoveResponse,
    CheckMovesResponse,
    LegalMovesResponse,
    ValidateBatchResponse,
    ValidateResponse,
)
from app.sessions.kind import Winner
from app.sessions.kinds import KINDS
from app.sessions.kinds.reversi import (
    CreatedReversiOut,
    ReversiBoardOut,
    ReversiGameOut,
    ReversiMoveOut,
)
from app.sessions.kinds.tictactoe import CreatedTicTacToeOut, TicTacToeBoardOut, TicTacToeGameOut

T = TypeVar("T")
P = ParamSpec("P")

# The shapes of the registry's kinds (``app.sessions.kinds.KINDS``: tests/client checks that
# these unions are exactly its faces'), as static types for a type checker.
Game = TicTacToeGameOut | ReversiGameOut
CreatedGame = CreatedTicTacToeOut | CreatedReversiOut
AnyMoveOut = MoveOut | ReversiMoveOut
BoardOut = TicTacToeBoardOut | ReversiBoardOut
Color = Literal["B", "W"]
Board = Sequence[str] | Sequence[Sequence[str]]


class MoveResultOut(TypedDict):
    """The answer to a move: the winner so far, the move's record, the state after it."""

    winner: Winner
    move: AnyMoveOut
    state: Game


class MovesPage(TypedDict):
    moves: list[AnyMoveOut]
    version: int


# --- problems ---------------------------------------------------------------------------------


class ProblemError(Exception):
    """An answer of the service that is a problem (RFC 9457): ``code`` is stable, branch on it
    (or catch its class); ``body`` is the whole answer."""

    code: str = ""

    def __init__(self, status: int, body: Mapping[str, Any], headers: Mapping[str, str]):
        self.status = status
        self.body = dict(body)
        self.title = str(body.get("title", ""))
        self.detail = str(body.get("detail", ""))
        self.headers = dict(headers)
        if not self.code:  # a code this client has no class of (a kind it was not written for)
            self.code = str(self.body.get("code", ""))
        super().__init__(f"{status} {self.body.get('code', '')}: {self.detail or self.title}")

    @property
    def retry_after(self) -> float | None:
        """The seconds ``Retry-After`` asks to wait, if the answer has one."""
        value = self.headers.get("retry-after", "")
        return float(value) if value.isdigit() else None


def _class_name(code: str) -> str:
    return "".join(part.capitalize() for part in code.split("_"))


# The problems of the service serving the registry's kinds.
PROBLEM_TABLE = ProblemTable.of(kind.face for kind in KINDS)


def _problem_class(code: str) -> type[ProblemError]:
    problems = PROBLEM_TABLE.by_code[code]
    statuses = ", ".join(str(problem.status) for problem in problems)
    doc = f"{problems[0].title} ({statuses} ``{code}``): {problems[0].when}. {problems[0].todo}."
    return type(_class_name(code), (ProblemError,), {"code": code, "__doc__": doc})


# One class per problem code of the service, named after it: ``game_over`` → ``GameOver``.
PROBLEMS: dict[str, type[ProblemError]] = {
    code: _problem_class(code) for code in PROBLEM_TABLE.by_code
}
_BY_NAME = {cls.__name__: cls for cls in PROBLEMS.values()}


def __getattr__(name: str) -> type[ProblemError]:
    """``from app.client import GameOver``: the problem classes, by name."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def problem_error(response: httpx.Response) -> ProblemError:
    """The exception a problem answer stands for (a plain ``ProblemError`` for a code this
    client does not know, or an answer that is not a problem)."""
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    cls = PROBLEMS.get(str(body.get("code")), ProblemError)
    return cls(response.status_code, body, response.headers)


# --- requests ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Retries:
    """When a request is sent again: at most ``attempts`` sends in all; after a connection error
    (at once, then backing off) or a 503 whose ``Retry-After`` is at most ``max_wait`` seconds."""

    attempts: int = 3
    max_wait: float = 5.0
    backoff: float = 0.1  # seconds before the second send after a connection error, doubling

    def wait(self, attempt: int, answer: httpx.Response | None) -> float | None:
        """Seconds to wait before send number ``attempt + 1``, or None: do not send again."""
        if attempt >= self.attempts:
            return None
        if answer is None:
            return float(self.backoff * 2 ** (attempt - 1))
        after = answer.headers.get("retry-after", "")
        if answer.status_code == 503 and after.isdigit() and int(after) <= self.max_wait:
            return float(after)
        return None


# How safe a request is to send again: ``always`` (it changes nothing, or it carries an
# Idempotency-Key), or only when the connection failed before it left (``unsent``).
Resend = Literal["always", "unsent"]
UNSENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


@dataclass(frozen=True)
class Call(Generic[T]):
    """One operation's request, and how its answer is read."""

    method: str
    path: str
    read: Callable[[httpx.Response], T]
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    resend: Resend = "always"
    ok: tuple[int, ...] = (200,)

    def request(self, client: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        content = None if self.body is None else json.dumps(self.body).encode()
        headers = dict(self.headers)
        if content is not None:
            headers["Content-Type"] = "application/json"
        params = {name: value for name, value in self.params.items() if value is not None}
        return client.build_request(
            self.method, self.path, content=content, headers=headers, params=params
        )

    def answer(self, response: httpx.Response) -> T:
        if response.status_code not in self.ok:
            raise problem_error(response)
        return self.read(response)


def _json(response: httpx.Response) -> Any:
    return response.json()


def _text(response: httpx.Response) -> str:
    return response.text


def _nothing(response: httpx.Response) -> None:
    return None


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _game(game_id: str, suffix: str = "") -> str:
    return f"/v1/games/{game_id}{suffix}"


def _acting(
    game_id: str, token: str, if_match: int | None, idempotency_key: str | None
) -> dict[str, str]:
    """The headers of a move or an action: the player's token, an Idempotency-Key (a new one
    unless given, the same on every retry), and If-Match for a version, if asked."""
    headers = {**_bearer(token), "Idempotency-Key": idempotency_key or uuid.uuid4().hex}
    if if_match is not None:
        headers["If-Match"] = etag(game_id, if_match)
    return headers


def _board(board: Board) -> list[str] | list[list[str]]:
    return [row if isinstance(row, str) else list(row) for row in board]  # type: ignore[return-value]


def _omit_none(**fields: Any) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value is not None}


# Each operation once, as a Call; the clients send them (their methods are these, bound).


def check_move(board: Board, row: int, col: int, color: Color) -> Call[CheckMoveResponse]:
    """Is the move legal, and which stones does it flip (Reversi)."""
    body = {"board": _board(board), "row": row, "col": col, "color": color}
    return Call("POST", "/v1/reversi/check-move", _json, body)


def check_moves(board: Board, queries: Sequence[Mapping[str, Any]]) -> Call[CheckMovesResponse]:
    """Many moves on one board (``queries``: ``{"row", "col", "color"}`` each)."""
    body = {"board": _board(board), "queries": list(queries)}
    return Call("POST", "/v1/reversi/check-moves", _json, body)


def legal_moves(board: Board, color: Color) -> Call[LegalMovesResponse]:
    """Every legal move of ``color``, with how many stones each flips."""
    return Call("POST", "/v1/reversi/legal-moves", _json, {"board": _board(board), "color": color})


def apply_move(board: Board, row: int, col: int, color: Color) -> Call[ApplyMoveResponse]:
    """The board after a legal move, who moves next, and whether the game is over."""
    body = {"board": _board(board), "row": row, "col": col, "color": color}
    return Call("POST", "/v1/reversi/apply-move", _json, body)


def validate_position(board: Board, k: int | None = None) -> Call[ValidateResponse]:
    """Can this tic-tac-toe position occur in a legal game; whose turn; is it over."""
    return Call("POST", "/v1/tictactoe/validate", _json, _omit_none(board=_board(board), k=k))


def validate_positions(items: Sequence[Mapping[str, Any]]) -> Call[ValidateBatchResponse]:
    """Many positions (``items``: ``{"board", "k"?}`` each)."""
    return Call("POST", "/v1/tictactoe/validate-batch", _json, {"items": list(items)})


def create_game(
    *,
    game: str | None = None,
    n: int | None = None,
    k: int | None = None,
    height: int | None = None,
    width: int | None = None,
    board: Board | None = None,
    next: Color | None = None,
    clock: tuple[int, int] | None = None,
    **params: Any,
) -> Call[CreatedGame]:
    """A new game: tic-tac-toe (``n``, ``k``), or ``game="reversi"`` (``height``/``width``, or a
    posted ``board`` and ``next``); ``clock`` is (initial seconds, increment seconds). A kind
    this client was not written for takes its parameters as ``params`` (its creation body's
    members). The named parameters are the registry's kinds' (tests/client checks them)."""
    timing = None if clock is None else {"initial_seconds": clock[0], "increment_seconds": clock[1]}
    body = _omit_none(
        game=game, n=n, k=k, height=height, width=width, next=next, clock=timing,
        board=None if board is None else _board(board), **params,
    )  # fmt: skip
    return Call("POST", "/v1/games", _json, body, resend="unsent", ok=(201,))


def get_game(game_id: str) -> Call[Game]:
    """The game's state now."""
    return Call("GET", _game(game_id), _json)


def make_move(
    game_id: str,
    token: str,
    row: int | None = None,
    col: int | None = None,
    *,
    move: Mapping[str, Any] | None = None,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[MoveResultOut]:
    """A move of the token's player: on the cell (``row``, ``col``), or a ``move`` of another
    shape the game's kind takes (``{"pass": True}``); ``if_match``: only if the game is still at
    that version."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(row=row, col=col, player=player, **(move or {}))
    return Call("POST", _game(game_id, "/moves"), _json, body, headers, ok=(201,))


def resign(
    game_id: str,
    token: str,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[Game]:
    """The token's player resigns: the other player wins."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    return Call("POST", _game(game_id, "/resign"), _json, _omit_none(player=player), headers)


def offer_draw(
    game_id: str,
    token: str,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[Game]:
    """The token's player offers a draw, or accepts the other player's standing offer."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    return Call("POST", _game(game_id, "/draw-offer"), _json, _omit_none(player=player), headers)


def list_moves(game_id: str, since: int = 0, limit: int | None = None) -> Call[MovesPage]:
    """The moves after move ``since``, at most ``limit``."""
    return Call("GET", _game(game_id, "/moves"), _json, params={"since": since, "limit": limit})


def get_move(game_id: str, seq: int) -> Call[AnyMoveOut]:
    """Move number ``seq`` (1 for the first)."""
    return Call("GET", _game(game_id, f"/moves/{seq}"), _json)


def get_board(game_id: str) -> Call[BoardOut]:
    """The board as rows of text."""
    return Call("GET", _game(game_id, "/board"), _json)


def delete_game(game_id: str, token: str) -> Call[None]:
    """Delete the game (either player's token)."""
    return Call("DELETE", _game(game_id), _nothing, headers=_bearer(token), resend="unsent",
                ok=(204,))  # fmt: skip


def get_health() -> Call[dict[str, str]]:
    return Call("GET", "/healthz", _json)


def get_readiness() -> Call[dict[str, str]]:
    """Ready (200), or a ``StoreUnavailable`` problem while the store cannot be reached."""
    return Call("GET", "/readyz", _json)


def get_metrics() -> Call[str]:
    """The Prometheus text."""
    return Call("GET", "/metrics", _text)


def get_problem_type(code: str) -> Call[dict[str, Any]]:
    """What a problem code means: title, statuses, when it happens and what to do."""
    return Call("GET", f"/problems/{code}", _json)


# --- polling and events -----------------------------------------------------------------------


@dataclass(frozen=True)
class Polled:
    """An answer to ``poll_game``: the state if it changed since ``etag`` was given (else None),
    and the ETag to send next time."""

    state: Game | None
    etag: str


def _poll(game_id: str, etag_seen: str | None) -> Call[Polled]:
    headers = {"If-None-Match": etag_seen} if etag_seen else {}

    def read(response: httpx.Response) -> Polled:
        tag = response.headers.get("etag", etag_seen or "")
        if response.status_code == 304:
            return Polled(None, tag)
        return Polled(cast(Game, response.json()), tag)

    return Call("GET", _game(game_id), read, headers=headers, ok=(200, 304))


@dataclass(frozen=True)
class MoveEvent:
    """A move was accepted (``event: move``): the move and the state after it."""

    id: int
    move: AnyMoveOut
    state: Game


@dataclass(frozen=True)
class OfferEvent:
    """A draw offer stands (``event: offer``)."""

    id: int
    state: Game


@dataclass(frozen=True)
class EndEvent:
    """The game is over (``event: end``), by a move or otherwise (a flag fall, a resignation,
    an agreed draw); the stream ends after it."""

    id: int | None
    state: Game


GameEvent = MoveEvent | OfferEvent | EndEvent


class _Sse:
    """Server-Sent Events from lines: fields gathered until a blank line; comments skipped."""

    def __init__(self) -> None:
        self.kind = "message"
        self.data: list[str] = []
        self.id: str | None = None
        self.last_id: str | None = None  # the last event id seen: where a new stream resumes

    def feed(self, line: str) -> GameEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self.kind = value
        elif name == "data":
            self.data.append(value)
        elif name == "id":
            self.id = value
        return None

    def _dispatch(self) -> GameEvent | None:
        kind, data, event_id = self.kind, "\n".join(self.data), self.id
        self.kind, self.data, self.id = "message", [], None
        if event_id is not None:
            self.last_id = event_id
        if not data:
            return None
        body = json.loads(data)
        number = int(event_id) if event_id and event_id.isdigit() else None
        if kind == "move":
            return MoveEvent(number or 0, body["move"], body["state"])
        if kind == "offer":
            return OfferEvent(number or 0, body)
        if kind == "end":
            return EndEvent(number, body)
        return None


def _events(game_id: str, since: int | None, last_event_id: str | None) -> Call[None]:
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    params = {"since": since} if last_event_id is None and since is not None else {}
    return Call("GET", _game(game_id, "/events"), _nothing, headers=headers, params=params)


# --- the clients ------------------------------------------------------------------------------


def _sync(build: Callable[P, Call[T]]) -> Callable[Concatenate[Client, P], T]:
    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.send(build(*args, **kwargs))

    method.__name__, method.__doc__ = build.__name__, build.__doc__
    return method


def _async(build: Callable[P, Call[T]]) -> Callable[Concatenate[AsyncClient, P], Awaitable[T]]:
    async def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.send(build(*args, **kwargs))

    method.__name__, method.__doc__ = build.__name__, build.__doc__
    return method


class _Sending(Generic[T]):
    """One call's sends, as both clients make them: after each one, whether to send again
    (and after how long), or the answer. The policy is written once here; the clients only
    send and wait, each in its own way."""

    def __init__(self, call: Call[T], retries: Retries) -> None:
        self.call, self.retries, self.attempt = call, retries, 0

    def request(self, http: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        self.attempt += 1
        return self.call.request(http)

    def failed(self, error: httpx.TransportError) -> float:
        """The wait before the next send after a connection error; raises it if none."""
        resendable = self.call.resend == "always" or isinstance(error, UNSENT)
        wait = self.retries.wait(self.attempt, None) if resendable else None
        if wait is None:
            raise error
        return wait

    def answered(self, response: httpx.Response) -> float | None:
        """The wait before the next send after this answer, or None: it is the answer."""
        if self.call.resend != "always":
            return None
        return self.retries.wait(self.attempt, response)


class _Following:
    """One game's event stream, as both clients follow it: the call that (re)opens it, its
    events from its lines, and how long to wait after it dropped (``ConnectionError`` after
    ``reconnects`` drops in a row with no line between them)."""

    def __init__(
        self, game_id: str, since: int | None, reconnects: int, backoff: float, keep_alive: float
    ) -> None:
        self.game_id, self.since, self.reconnects, self.backoff = (
            game_id,
            since,
            reconnects,
            backoff,
        )
        self.read_timeout = stream_read_timeout(keep_alive)
        self.parser, self.failures = _Sse(), 0
        self.ended = False

    def call(self) -> Call[None]:
        return _events(self.game_id, self.since, self.parser.last_id)

    def timeout(self, http: httpx.Client | httpx.AsyncClient) -> httpx.Timeout:
        """The client's timeouts, but a read waits for the server's keep-alives."""
        given = http.timeout
        return httpx.Timeout(
            connect=given.connect, read=self.read_timeout, write=given.write, pool=given.pool
        )

    def opened(self, response: httpx.Response) -> bool:
        """Whether the stream opened (200); False when there is nothing more to send (204: it
        was resumed at or past the game's end). Any other answer is raised after it is read."""
        if response.status_code == 204:
            self.ended = True
            return False
        return response.status_code == 200

    def event(self, line: str) -> GameEvent | None:
        """The event this line completes, if any. An event or a keep-alive (a comment) shows
        the stream alive, and gives back the reconnect budget."""
        event = self.parser.feed(line)
        if event is not None or line.startswith(":"):
            self.failures = 0
        if event is not None:
            self.ended = isinstance(event, EndEvent)
        return event

    def dropped(self) -> float:
        """The wait before reopening the stream."""
        self.failures += 1
        if self.failures > self.reconnects:
            raise ConnectionError(f"the event stream of {self.game_id} kept dropping")
        return self.backoff * self.failures


class Client:
    """The service at ``base_url``, over an httpx client of its own (or the one given)."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        retries: Retries = Retries(),
        timeout: float = 10.0,
        http: httpx.Client | None = None,
    ) -> None:
        self.http = http or httpx.Client(base_url=base_url, timeout=timeout)
        self.retries = retries

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def send(self, call: Call[T]) -> T:
        """Send a call, again where ``retries`` allows; its answer, or its problem raised."""
        sending = _Sending(call, self.retries)
        while True:
            try:
                response = self.http.send(sending.request(self.http))
            except httpx.TransportError as error:
                wait = sending.failed(error)
            else:
                answered = sending.answered(response)
                if answered is None:
                    return call.answer(response)
                wait = answered
            time.sleep(wait)

    check_move = _sync(check_move)
    check_moves = _sync(check_moves)
    legal_moves = _sync(legal_moves)
    apply_move = _sync(apply_move)
    validate_position = _sync(validate_position)
    validate_positions = _sync(validate_positions)
    create_game = _sync(create_game)
    get_game = _sync(get_game)
    make_move = _sync(make_move)
    resign = _sync(resign)
    offer_draw = _sync(offer_draw)
    list_moves = _sync(list_moves)
    get_move = _sync(get_move)
    get_board = _sync(get_board)
    delete_game = _sync(delete_game)
    get_health = _sync(get_health)
    get_readiness = _sync(get_readiness)
    get_metrics = _sync(get_metrics)
    get_problem_type = _sync(get_problem_type)

    def poll_game(self, game_id: str, etag: str | None = None) -> Polled:
        """The game's state if it changed since ``etag`` (``If-None-Match``), else None."""
        return self.send(_poll(game_id, etag))

    def game_events(
        self,
        game_id: str,
        *,
        since: int | None = None,
        reconnects: int = 5,
        keep_alive: float = KEEP_ALIVE_SECONDS,
    ) -> Iterator[GameEvent]:
        """The game's events from version ``since`` on, until its end; a dropped stream is
        resumed with ``Last-Event-ID`` (at most ``reconnects`` times in a row with no line
        between). ``keep_alive``: the server's ``event_keep_alive_seconds``; a stream silent for
        three times that long is taken for dead and resumed."""
        following = _Following(game_id, since, reconnects, self.retries.backoff, keep_alive)
        while True:
            call = following.call()
            try:
                with self.http.stream(
                    call.method, call.path, headers=call.headers, params=call.params,
                    timeout=following.timeout(self.http),
                ) as response:  # fmt: skip
                    if not following.opened(response):
                        if following.ended:
                            return
                        response.read()
                        raise problem_error(response)
                    for line in response.iter_lines():
                        event = following.event(line)
                        if event is not None:
                            yield event
                        if following.ended:
                            return
            except httpx.TransportError:
                pass
            time.sleep(following.dropped())


class AsyncClient:
    """``Client``, for asyncio: the same methods, awaited."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        retries: Retries = Retries(),
        timeout: float = 10.0,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self.http = http or httpx.AsyncClient(base_url=base_url, timeout=timeout)
        self.retries = retries

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def send(self, call: Call[T]) -> T:
        """Send a call, again where ``retries`` allows; its answer, or its problem raised."""
        sending = _Sending(call, self.retries)
        while True:
            try:
                response = await self.http.send(sending.request(self.http))
            except httpx.TransportError as error:
                wait = sending.failed(error)
            else:
                answered = sending.answered(response)
                if answered is None:
                    return call.answer(response)
                wait = answered
            await asyncio.sleep(wait)

    check_move = _async(check_move)
    check_moves = _async(check_moves)
    legal_moves = _async(legal_moves)
    apply_move = _async(apply_move)
    validate_position = _async(validate_position)
    validate_positions = _async(validate_positions)
    create_game = _async(create_game)
    get_game = _async(get_game)
    make_move = _async(make_move)
    resign = _async(resign)
    offer_draw = _async(offer_draw)
    list_moves = _async(list_moves)
    get_move = _async(get_move)
    get_board = _async(get_board)
    delete_game = _async(delete_game)
    get_health = _async(get_health)
    get_readiness = _async(get_readiness)
    get_metrics = _async(get_metrics)
    get_problem_type = _async(get_problem_type)

    async def poll_game(self, game_id: str, etag: str | None = None) -> Polled:
        """The game's state if it changed since ``etag`` (``If-None-Match``), else None."""
        return await self.send(_poll(game_id, etag))

    async def game_events(
        self,
        game_id: str,
        *,
        since: int | None = None,
        reconnects: int = 5,
        keep_alive: float = KEEP_ALIVE_SECONDS,
    ) -> AsyncIterator[GameEvent]:
        """``Client.game_events``, awaited."""
        following = _Following(game_id, since, reconnects, self.retries.backoff, keep_alive)
        while True:
            call = following.call()
            try:
                async with self.http.stream(
                    call.method, call.path, headers=call.headers, params=call.params,
                    timeout=following.timeout(self.http),
                ) as response:  # fmt: skip
                    if not following.opened(response):
                        if following.ended:
                            return
                        await response.aread()
                        raise problem_error(response)
                    async for line in response.aiter_lines():
                        event = following.event(line)
                        if event is not None:
                            yield event
                        if following.ended:
                            return
            except httpx.TransportError:
                pass
            await asyncio.sleep(following.dropped())
