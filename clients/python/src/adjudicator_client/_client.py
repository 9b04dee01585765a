"""The clients: ``Client`` sends the operations' calls with httpx's ``Client``, ``AsyncClient``
with its ``AsyncClient``; both retry as ``Retries`` says and follow event streams alike.

Each operation is a method named after its operation id in snake_case (``createGame`` →
``create_game``): the function of ``_operations`` that builds its call, bound. ``create_game``
is typed per kind (``game="reversi"`` answers a Reversi game), so it is written out here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator, Sequence
from typing import Any, Concatenate, Generic, Literal, ParamSpec, TypeVar, overload

import httpx

from adjudicator_client import _operations as operations
from adjudicator_client._events import Following, GameEvent
from adjudicator_client._operations import (
    DEFAULT_RETRIES,
    UNSENT,
    Board,
    Call,
    Color,
    Player,
    Polled,
    Retries,
    problem_error,
)
from adjudicator_client._schema import (
    KEEP_ALIVE_SECONDS,
    ClockIn,
    CreatedConnect4Out,
    CreatedGomokuOut,
    CreatedReversiOut,
    CreatedTicTacToeOut,
    CreateGameAnswer,
    RulesIn,
    StonesOpening,
)

GomokuRule = Literal["freestyle", "standard", "renju", "caro"]
Visibility = Literal["public", "private"]

T = TypeVar("T")
P = ParamSpec("P")


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


class Client:
    """The service at ``base_url``, over an httpx client of its own (or the one given)."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        retries: Retries = DEFAULT_RETRIES,
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

    check_move = _sync(operations.check_move)
    check_moves = _sync(operations.check_moves)
    legal_moves = _sync(operations.legal_moves)
    apply_move = _sync(operations.apply_move)
    apply_moves = _sync(operations.apply_moves)
    gomoku_check_move = _sync(operations.gomoku_check_move)
    gomoku_check_moves = _sync(operations.gomoku_check_moves)
    gomoku_forbidden_points = _sync(operations.gomoku_forbidden_points)
    connect4_check_move = _sync(operations.connect4_check_move)
    connect4_legal_moves = _sync(operations.connect4_legal_moves)
    validate_position = _sync(operations.validate_position)
    validate_positions = _sync(operations.validate_positions)
    get_game = _sync(operations.get_game)
    join_game = _sync(operations.join_game)
    list_games = _sync(operations.list_games)
    make_move = _sync(operations.make_move)
    make_choice = _sync(operations.make_choice)
    resign = _sync(operations.resign)
    offer_draw = _sync(operations.offer_draw)
    abort_game = _sync(operations.abort_game)
    offer_takeback = _sync(operations.offer_takeback)
    give_time = _sync(operations.give_time)
    add_spectator = _sync(operations.add_spectator)
    rematch = _sync(operations.rematch)
    list_moves = _sync(operations.list_moves)
    list_legal_moves = _sync(operations.list_legal_moves)
    get_move = _sync(operations.get_move)
    get_board = _sync(operations.get_board)
    delete_game = _sync(operations.delete_game)
    get_record = _sync(operations.get_record)
    get_record_text = _sync(operations.get_record_text)
    audit_record = _sync(operations.audit_record)
    audit_batch = _sync(operations.audit_batch)
    get_keys = _sync(operations.get_keys)
    get_health = _sync(operations.get_health)
    get_readiness = _sync(operations.get_readiness)
    get_metrics = _sync(operations.get_metrics)
    get_problem_type = _sync(operations.get_problem_type)

    @overload
    def create_game(
        self,
        *,
        game: Literal["reversi"],
        height: int | None = None,
        width: int | None = None,
        board: Board | None = None,
        next: Color | None = None,
        opening: str | Sequence[str] | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedReversiOut: ...
    @overload
    def create_game(
        self,
        *,
        game: Literal["tictactoe"] | None = None,
        n: int,
        k: int | None = None,
        early_draw: bool | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedTicTacToeOut: ...
    @overload
    def create_game(
        self,
        *,
        game: Literal["gomoku"],
        rule: GomokuRule | None = None,
        size: int | None = None,
        foul: Literal["refuse", "lose"] | None = None,
        opening: StonesOpening | Literal["swap2"] | None = None,
        early_draw: bool | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedGomokuOut: ...
    @overload
    def create_game(
        self,
        *,
        game: Literal["connect4"],
        width: int | None = None,
        height: int | None = None,
        k: int | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedConnect4Out: ...
    @overload
    def create_game(self, *, game: str, **params: Any) -> CreateGameAnswer: ...
    def create_game(self, *, game: str | None = None, **params: Any) -> CreateGameAnswer:
        """A new game: ``game="reversi"`` (``height`` / ``width``, or a posted ``board`` and
        ``next``; an ``opening``, ``"f5d6c3"``, played first), tic-tac-toe (``n``, ``k``), or
        ``game="gomoku"`` (a ``rule``: freestyle, standard, renju or caro; ``size``; renju's
        ``foul``; an ``opening`` of ``{"stones": ["h8", "i9"]}``, or ``"swap2"``);
        ``game="connect4"`` (``width``, ``height``, ``k``; its moves ``move={"column": 3}``);
        ``early_draw=True`` (tic-tac-toe, gomoku freestyle and standard); ``clock`` is (initial
        seconds, increment seconds), or the whole ``ClockIn`` (a ``mode``, ``stages``);
        ``open=True`` (and ``creator=2``) leaves the other seat for anyone to join
        (``join_game``); ``visibility="private"``: only the players and
        spectators (``add_spectator``) read it, each read given their ``token``;
        ``first_move_seconds``: a first move not made in time aborts the game; ``rules``: the
        actions it leaves out (``{"abort": False}``). A kind this client was not made for takes
        its creation body's members as keywords."""
        return self.send(operations.create_game(game=game, **params))

    def poll_game(
        self, game_id: str, etag: str | None = None, *, token: str | None = None
    ) -> Polled:
        """The game's state if it changed since ``etag`` (``If-None-Match``), else None
        (``token``: a player's or a spectator's, for a private game)."""
        return self.send(operations.poll(game_id, etag, token))

    def game_events(
        self,
        game_id: str,
        *,
        since: int | None = None,
        reconnects: int = 5,
        keep_alive: float = KEEP_ALIVE_SECONDS,
        token: str | None = None,
    ) -> Generator[GameEvent, None, None]:
        """The game's events from version ``since`` on, until its end; a dropped stream is
        resumed with ``Last-Event-ID`` (at most ``reconnects`` times in a row with no line
        between). ``keep_alive``: the server's ``event_keep_alive_seconds``; a stream silent for
        ``KEEP_ALIVES_MISSED`` times that long is taken for dead and resumed. ``token``: a
        player's or a spectator's, for a private game (sent again on every reconnection).
        ``close()`` it to stop following before the end."""
        following = Following(game_id, since, reconnects, self.retries.backoff, keep_alive, token)
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
        retries: Retries = DEFAULT_RETRIES,
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

    check_move = _async(operations.check_move)
    check_moves = _async(operations.check_moves)
    legal_moves = _async(operations.legal_moves)
    apply_move = _async(operations.apply_move)
    apply_moves = _async(operations.apply_moves)
    gomoku_check_move = _async(operations.gomoku_check_move)
    gomoku_check_moves = _async(operations.gomoku_check_moves)
    gomoku_forbidden_points = _async(operations.gomoku_forbidden_points)
    connect4_check_move = _async(operations.connect4_check_move)
    connect4_legal_moves = _async(operations.connect4_legal_moves)
    validate_position = _async(operations.validate_position)
    validate_positions = _async(operations.validate_positions)
    get_game = _async(operations.get_game)
    join_game = _async(operations.join_game)
    list_games = _async(operations.list_games)
    make_move = _async(operations.make_move)
    make_choice = _async(operations.make_choice)
    resign = _async(operations.resign)
    offer_draw = _async(operations.offer_draw)
    abort_game = _async(operations.abort_game)
    offer_takeback = _async(operations.offer_takeback)
    give_time = _async(operations.give_time)
    add_spectator = _async(operations.add_spectator)
    rematch = _async(operations.rematch)
    list_moves = _async(operations.list_moves)
    list_legal_moves = _async(operations.list_legal_moves)
    get_move = _async(operations.get_move)
    get_board = _async(operations.get_board)
    delete_game = _async(operations.delete_game)
    get_record = _async(operations.get_record)
    get_record_text = _async(operations.get_record_text)
    audit_record = _async(operations.audit_record)
    audit_batch = _async(operations.audit_batch)
    get_keys = _async(operations.get_keys)
    get_health = _async(operations.get_health)
    get_readiness = _async(operations.get_readiness)
    get_metrics = _async(operations.get_metrics)
    get_problem_type = _async(operations.get_problem_type)

    @overload
    async def create_game(
        self,
        *,
        game: Literal["reversi"],
        height: int | None = None,
        width: int | None = None,
        board: Board | None = None,
        next: Color | None = None,
        opening: str | Sequence[str] | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedReversiOut: ...
    @overload
    async def create_game(
        self,
        *,
        game: Literal["tictactoe"] | None = None,
        n: int,
        k: int | None = None,
        early_draw: bool | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedTicTacToeOut: ...
    @overload
    async def create_game(
        self,
        *,
        game: Literal["gomoku"],
        rule: GomokuRule | None = None,
        size: int | None = None,
        foul: Literal["refuse", "lose"] | None = None,
        opening: StonesOpening | Literal["swap2"] | None = None,
        early_draw: bool | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedGomokuOut: ...
    @overload
    async def create_game(
        self,
        *,
        game: Literal["connect4"],
        width: int | None = None,
        height: int | None = None,
        k: int | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: Player | None = None,
        visibility: Visibility | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
    ) -> CreatedConnect4Out: ...
    @overload
    async def create_game(self, *, game: str, **params: Any) -> CreateGameAnswer: ...
    async def create_game(self, *, game: str | None = None, **params: Any) -> CreateGameAnswer:
        """``Client.create_game``, awaited."""
        return await self.send(operations.create_game(game=game, **params))

    async def poll_game(
        self, game_id: str, etag: str | None = None, *, token: str | None = None
    ) -> Polled:
        """The game's state if it changed since ``etag`` (``If-None-Match``), else None
        (``token``: a player's or a spectator's, for a private game)."""
        return await self.send(operations.poll(game_id, etag, token))

    async def game_events(
        self,
        game_id: str,
        *,
        since: int | None = None,
        reconnects: int = 5,
        keep_alive: float = KEEP_ALIVE_SECONDS,
        token: str | None = None,
    ) -> AsyncGenerator[GameEvent, None]:
        """``Client.game_events``, awaited."""
        following = Following(game_id, since, reconnects, self.retries.backoff, keep_alive, token)
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
