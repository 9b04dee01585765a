"""The blocking client, ``Client``: written by clients/python/generate.py from
``_async_client.py`` (``AsyncClient``), whose body it is without ``async`` and ``await``. Do not
edit: edit that module, then run ``python clients/python/generate.py``.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import Any, Literal, TypeVar, overload

import httpx

from adjudicator_client import _operations as operations
from adjudicator_client._events import (
    Following,
    FollowingPlayer,
    FollowingTournament,
    GameEvent,
    PlayerEvent,
    Stream,
    TournamentEvent,
)
from adjudicator_client._operations import DEFAULT_RETRIES, Call, Polled, Retries, problem_error
from adjudicator_client._schema import (
    KEEP_ALIVE_SECONDS,
    ClockIn,
    CreatedConnect4Out,
    CreatedGomokuOut,
    CreatedReversiOut,
    CreatedTicTacToeOut,
    CreateGameAnswer,
    NamesIn,
    RulesIn,
    StonesOpening,
)
from adjudicator_client._sending import Sending, T, sent

E = TypeVar("E")


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
        sending = Sending(call, self.retries)
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

    check_move = sent(operations.check_move)
    check_moves = sent(operations.check_moves)
    legal_moves = sent(operations.legal_moves)
    apply_move = sent(operations.apply_move)
    apply_moves = sent(operations.apply_moves)
    gomoku_check_move = sent(operations.gomoku_check_move)
    gomoku_check_moves = sent(operations.gomoku_check_moves)
    gomoku_forbidden_points = sent(operations.gomoku_forbidden_points)
    connect4_check_move = sent(operations.connect4_check_move)
    connect4_legal_moves = sent(operations.connect4_legal_moves)
    validate_position = sent(operations.validate_position)
    validate_positions = sent(operations.validate_positions)
    get_game = sent(operations.get_game)
    join_game = sent(operations.join_game)
    list_games = sent(operations.list_games)
    make_move = sent(operations.make_move)
    make_choice = sent(operations.make_choice)
    resign = sent(operations.resign)
    offer_draw = sent(operations.offer_draw)
    abort_game = sent(operations.abort_game)
    offer_takeback = sent(operations.offer_takeback)
    give_time = sent(operations.give_time)
    add_spectator = sent(operations.add_spectator)
    rematch = sent(operations.rematch)
    list_moves = sent(operations.list_moves)
    list_legal_moves = sent(operations.list_legal_moves)
    get_move = sent(operations.get_move)
    get_board = sent(operations.get_board)
    delete_game = sent(operations.delete_game)
    get_record = sent(operations.get_record)
    get_record_text = sent(operations.get_record_text)
    list_archived_games = sent(operations.list_archived_games)
    get_archived_game = sent(operations.get_archived_game)
    get_archived_game_text = sent(operations.get_archived_game_text)
    export_archive = sent(operations.export_archive)
    create_player = sent(operations.create_player)
    get_player = sent(operations.get_player)
    get_me = sent(operations.get_me)
    list_ratings = sent(operations.list_ratings)
    create_tournament = sent(operations.create_tournament)
    get_tournament = sent(operations.get_tournament)
    get_tournament_text = sent(operations.get_tournament_text)
    enter_player = sent(operations.enter_player)
    withdraw_player = sent(operations.withdraw_player)
    pair_round = sent(operations.pair_round)
    create_seek = sent(operations.create_seek)
    list_seeks = sent(operations.list_seeks)
    withdraw_seek = sent(operations.withdraw_seek)
    create_challenge = sent(operations.create_challenge)
    list_challenges = sent(operations.list_challenges)
    get_challenge = sent(operations.get_challenge)
    accept_challenge = sent(operations.accept_challenge)
    decline_challenge = sent(operations.decline_challenge)
    withdraw_challenge = sent(operations.withdraw_challenge)
    audit_record = sent(operations.audit_record)
    audit_batch = sent(operations.audit_batch)
    get_keys = sent(operations.get_keys)
    get_health = sent(operations.get_health)
    get_readiness = sent(operations.get_readiness)
    get_metrics = sent(operations.get_metrics)
    get_problem_type = sent(operations.get_problem_type)

    # --- create_game per kind: generated from the document's kinds -----------------------
    @overload
    def create_game(
        self,
        *,
        game: Literal["tictactoe"] | None = None,
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: int | None = None,
        visibility: Literal["public", "private"] | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
        names: NamesIn | None = None,
        rated: bool | None = None,
        n: int,
        k: int | None = None,
        early_draw: bool | None = None,
        key: str | None = None,
    ) -> CreatedTicTacToeOut: ...
    @overload
    def create_game(
        self,
        *,
        game: Literal["reversi"],
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: int | None = None,
        visibility: Literal["public", "private"] | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
        names: NamesIn | None = None,
        rated: bool | None = None,
        height: int | None = None,
        width: int | None = None,
        board: Sequence[str | Sequence[Literal[".", "B", "W"]]] | None = None,
        next: Literal["B", "W"] | None = None,
        opening: str | Sequence[str] | None = None,
        key: str | None = None,
    ) -> CreatedReversiOut: ...
    @overload
    def create_game(
        self,
        *,
        game: Literal["gomoku"],
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: int | None = None,
        visibility: Literal["public", "private"] | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
        names: NamesIn | None = None,
        rated: bool | None = None,
        rule: Literal["freestyle", "standard", "renju", "caro"] | None = None,
        size: int | None = None,
        foul: Literal["refuse", "lose"] | None = None,
        early_draw: bool | None = None,
        opening: StonesOpening | Literal["swap2"] | None = None,
        key: str | None = None,
    ) -> CreatedGomokuOut: ...
    @overload
    def create_game(
        self,
        *,
        game: Literal["connect4"],
        clock: tuple[int, int] | ClockIn | None = None,
        open: bool | None = None,
        creator: int | None = None,
        visibility: Literal["public", "private"] | None = None,
        first_move_seconds: int | None = None,
        rules: RulesIn | None = None,
        names: NamesIn | None = None,
        rated: bool | None = None,
        width: int | None = None,
        height: int | None = None,
        k: int | None = None,
        key: str | None = None,
    ) -> CreatedConnect4Out: ...
    @overload
    def create_game(
        self, *, game: str, key: str | None = None, **params: Any
    ) -> CreateGameAnswer: ...
    # --- end of the generated overloads ----------------------------------------------------
    def create_game(
        self, *, game: str | None = None, key: str | None = None, **params: Any
    ) -> CreateGameAnswer:
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
        actions it leaves out (``{"abort": False}``); ``key``: a player's key (``create_player``),
        whose player takes the creator's seat, the key acting for it as its token does;
        ``rated=True`` (an open game made with a key): a player's join with its key takes the
        other seat, and the result rates both in the state's ``pool``. A kind this client was not
        made for takes its creation body's members as keywords."""
        return self.send(operations.create_game(game=game, key=key, **params))

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
        return self._follow(following)

    def tournament_events(
        self,
        tournament_id: str,
        *,
        after: int | None = None,
        reconnects: int = 5,
        keep_alive: float = KEEP_ALIVE_SECONDS,
    ) -> Generator[TournamentEvent, None, None]:
        """The tournament's events (after the one numbered ``after``, if given) until its
        ``end``: each a ``TournamentEvent`` (``id``, ``event``: ``round``, ``result`` or
        ``end``, and its JSON ``data``); a dropped stream is resumed with ``Last-Event-ID`` as
        ``game_events`` resumes a game's. ``close()`` it to stop following before the end."""
        backoff = self.retries.backoff
        following = FollowingTournament(tournament_id, after, reconnects, backoff, keep_alive)
        return self._follow(following)

    def player_events(
        self,
        player_id: str,
        *,
        key: str,
        after: int | None = None,
        reconnects: int = 5,
        keep_alive: float = KEEP_ALIVE_SECONDS,
    ) -> Generator[PlayerEvent, None, None]:
        """The events of the player whose ``key`` this is (after the one numbered ``after``, if
        given): each a ``PlayerEvent`` (``id``, ``event``: ``game``, ``challenge``,
        ``challenge_declined`` or ``seek_expired``, and its JSON ``data``); a dropped stream
        is resumed with ``Last-Event-ID`` as ``game_events`` resumes a game's. It has no end:
        ``close()`` it to stop following."""
        backoff = self.retries.backoff
        following = FollowingPlayer(player_id, key, after, reconnects, backoff, keep_alive)
        return self._follow(following)

    def _follow(self, following: Stream[E]) -> Generator[E, None, None]:
        """A stream's events until its end, reopened after each drop."""
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
