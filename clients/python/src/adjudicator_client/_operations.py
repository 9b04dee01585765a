"""Each operation of the service once, as a ``Call``: its request and how its answer is read.

The clients (``Client``, ``AsyncClient``) send these; their methods are these functions, bound.
Methods, paths, the statuses of answers that are not problems and when a call may be sent again
come from ``OPERATIONS``, the default retries from ``RETRY_*``, and answer types from the
``<OperationId>Answer`` types (all generated from the service's OpenAPI document, ``_schema``);
a problem answer is raised as the class of its ``code``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, cast
from urllib.parse import quote

import httpx

from adjudicator_client._problem import ProblemError
from adjudicator_client._schema import (
    OPERATIONS,
    PROBLEMS,
    RETRY_ATTEMPTS,
    RETRY_BACKOFF_SECONDS,
    RETRY_MAX_WAIT_SECONDS,
    RETRY_STATUSES,
    AbortGameAnswer,
    AcceptChallengeAnswer,
    AddSpectatorAnswer,
    ApplyMoveAnswer,
    AuditBatchAnswer,
    AuditRecordAnswer,
    CheckMoveAnswer,
    CheckMovesAnswer,
    ClockIn,
    Connect4CheckMoveAnswer,
    Connect4LegalMovesAnswer,
    CreateChallengeAnswer,
    CreateGameAnswer,
    CreatePlayerAnswer,
    CreateSeekAnswer,
    CreateTournamentAnswer,
    DeclineChallengeAnswer,
    DeleteGameAnswer,
    EnterPlayerAnswer,
    GetArchivedGameAnswer,
    GetBoardAnswer,
    GetChallengeAnswer,
    GetGameAnswer,
    GetHealthAnswer,
    GetKeysAnswer,
    GetMeAnswer,
    GetMetricsAnswer,
    GetMoveAnswer,
    GetPlayerAnswer,
    GetProblemTypeAnswer,
    GetReadinessAnswer,
    GetRecordAnswer,
    GetTournamentAnswer,
    GiveTimeAnswer,
    GomokuCheckMoveAnswer,
    GomokuCheckMovesAnswer,
    GomokuForbiddenPointsAnswer,
    JoinGameAnswer,
    LegalMovesAnswer,
    ListArchivedGamesAnswer,
    ListChallengesAnswer,
    ListGamesAnswer,
    ListLegalMovesAnswer,
    ListMovesAnswer,
    ListRatingsAnswer,
    ListSeeksAnswer,
    MakeChoiceAnswer,
    MakeMoveAnswer,
    MoveQuery,
    OfferDrawAnswer,
    OfferTakebackAnswer,
    PairRoundAnswer,
    RematchAnswer,
    Resend,
    ResignAnswer,
    ValidatePositionAnswer,
    ValidatePositionsAnswer,
    WithdrawChallengeAnswer,
    WithdrawPlayerAnswer,
    WithdrawSeekAnswer,
)

T = TypeVar("T")

# The shapes requests take.
Color = Literal["B", "W"]
GomokuRule = Literal["freestyle", "standard", "renju", "caro"]
Player = Literal[1, 2]
# A board as rows of text (``["..B", …]``) or of one-character strings (``[[".", ".", "B"], …]``).
Board = Sequence[str] | Sequence[Sequence[str]]


# --- problems ---------------------------------------------------------------------------------


def problem_error(response: httpx.Response) -> ProblemError:
    """The exception a problem answer stands for: the class of its ``code`` (a plain
    ``ProblemError`` for a code this client does not know, or an answer that is not a problem)."""
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    cls = PROBLEMS.get(str(body.get("code")), ProblemError)
    return cls(response.status_code, body, response.headers)


# --- calls ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Retries:
    """When a request is sent again: at most ``attempts`` sends in all; after a connection error
    (``backoff`` seconds before the second send, doubling at each), or after an answer of
    ``statuses`` (503) whose ``Retry-After`` is at most ``max_wait`` seconds. The defaults are
    the service's document's (``x-retry``)."""

    attempts: int = RETRY_ATTEMPTS
    max_wait: float = RETRY_MAX_WAIT_SECONDS
    backoff: float = RETRY_BACKOFF_SECONDS
    statuses: tuple[int, ...] = RETRY_STATUSES

    def wait(self, attempt: int, answer: httpx.Response | None) -> float | None:
        """Seconds to wait before send number ``attempt + 1``, or None: do not send again."""
        if attempt >= self.attempts:
            return None
        if answer is None:
            return float(self.backoff * 2 ** (attempt - 1))
        after = answer.headers.get("retry-after", "")
        if answer.status_code in self.statuses and after.isdigit() and int(after) <= self.max_wait:
            return float(after)
        return None


# The clients' retries unless told otherwise.
DEFAULT_RETRIES = Retries()

# The connection errors after which a request surely never left.
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
    resend: Resend = "unsent"
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


def call(
    operation: str,
    read: Callable[[httpx.Response], T],
    body: Any = None,
    *,
    path: Mapping[str, object] | None = None,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, Any] | None = None,
) -> Call[T]:
    """The call of the document's ``operation`` (its id in snake_case), with its ``path``
    parameters filled in; sent again as the document says (``x-resend``)."""
    spec = OPERATIONS[operation]
    values = {name: quote(str(value), safe="") for name, value in (path or {}).items()}
    filled = spec.path.format_map(values)
    headers, params = headers or {}, params or {}
    return Call(spec.method, filled, read, body, headers, params, spec.resend, spec.statuses)


def _json(response: httpx.Response) -> Any:
    return response.json()


def _text(response: httpx.Response) -> str:
    return response.text


def _bytes(response: httpx.Response) -> bytes:
    return response.content


def _nothing(response: httpx.Response) -> None:
    return None


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _viewer(token: str | None) -> dict[str, str]:
    """The headers of a read: a player's or a spectator's token if given (a private game's reads
    need one; a public game's none)."""
    return {} if token is None else _bearer(token)


def _as_player(key: str | None) -> dict[str, str]:
    """The headers of a creation or a join: a player's key if given (``create_player``), which
    seats the player; none for an anonymous seat."""
    return {} if key is None else _bearer(key)


def etag(game_id: str, version: int) -> str:
    """The ETag of a game at a version, as the service writes it."""
    return f'"{game_id}.{version}"'


def _acting(
    game_id: str, token: str, if_match: int | None, idempotency_key: str | None
) -> dict[str, str]:
    """The headers of a move or an action: the player's token, an Idempotency-Key (a new one
    unless given, the same on every retry), and If-Match for a version, if asked."""
    headers = {**_bearer(token), "Idempotency-Key": idempotency_key or uuid.uuid4().hex}
    if if_match is not None:
        headers["If-Match"] = etag(game_id, if_match)
    return headers


def _board(board: Board) -> list[str | list[str]]:
    return [row if isinstance(row, str) else list(row) for row in board]


def _omit_none(**fields: Any) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value is not None}


# --- the operations ---------------------------------------------------------------------------


def check_move(board: Board, row: int, col: int, color: Color) -> Call[CheckMoveAnswer]:
    """Is the move legal, and which stones does it flip (Reversi)."""
    body = {"board": _board(board), "row": row, "col": col, "color": color}
    return call("check_move", _json, body)


def check_moves(board: Board, queries: Sequence[MoveQuery]) -> Call[CheckMovesAnswer]:
    """Many moves on one board (``queries``: ``{"row", "col", "color"}`` each)."""
    return call("check_moves", _json, {"board": _board(board), "queries": list(queries)})


def legal_moves(board: Board, color: Color) -> Call[LegalMovesAnswer]:
    """Every legal move of ``color``, with how many stones each flips."""
    return call("legal_moves", _json, {"board": _board(board), "color": color})


def apply_move(board: Board, row: int, col: int, color: Color) -> Call[ApplyMoveAnswer]:
    """The board after a legal move, who moves next, and whether the game is over."""
    body = {"board": _board(board), "row": row, "col": col, "color": color}
    return call("apply_move", _json, body)


def apply_moves(
    moves: str | Sequence[str], board: Board | None = None, color: Color | None = None
) -> Call[ApplyMoveAnswer]:
    """The position after a game's ``moves`` (a transcript, ``"f5d6c3"``, or a list of
    squares) played from ``board`` (the standard start if not given), ``color`` first (Black
    if not given), passes inferred: as ``apply_move`` answers the last of them."""
    written = moves if isinstance(moves, str) else list(moves)
    body = _omit_none(moves=written, board=None if board is None else _board(board), color=color)
    return call("apply_move", _json, body)


def gomoku_check_move(
    board: Board, row: int, col: int, color: Color, rule: GomokuRule = "freestyle"
) -> Call[GomokuCheckMoveAnswer]:
    """May ``color`` play (row, col) under ``rule``, does it win, and the lines that say so
    (gomoku and renju: renju's forbidden points for Black)."""
    body = {"board": _board(board), "row": row, "col": col, "color": color, "rule": rule}
    return call("gomoku_check_move", _json, body)


def gomoku_check_moves(
    board: Board, queries: Sequence[MoveQuery], rule: GomokuRule = "freestyle"
) -> Call[GomokuCheckMovesAnswer]:
    """Many gomoku moves on one board (``queries``: ``{"row", "col", "color"}`` each)."""
    body = {"board": _board(board), "rule": rule, "queries": list(queries)}
    return call("gomoku_check_moves", _json, body)


def gomoku_forbidden_points(board: Board) -> Call[GomokuForbiddenPointsAnswer]:
    """Every point of a 15 × 15 renju position where Black may not play, and why."""
    return call("gomoku_forbidden_points", _json, {"board": _board(board), "rule": "renju"})


def connect4_check_move(
    board: Board, column: int | str, k: int | None = None
) -> Call[Connect4CheckMoveAnswer]:
    """May the player to move drop into ``column`` (0-based, or its letter), where the disc
    lands and whether it wins (Connect Four: ``board`` rows top to bottom, ``k`` 4 unless
    given)."""
    where = {"square": column} if isinstance(column, str) else {"column": column}
    body = _omit_none(board=_board(board), k=k, **where)
    return call("connect4_check_move", _json, body)


def connect4_legal_moves(board: Board, k: int | None = None) -> Call[Connect4LegalMovesAnswer]:
    """Who drops next on a Connect Four ``board`` and into which columns."""
    return call("connect4_legal_moves", _json, _omit_none(board=_board(board), k=k))


def validate_position(board: Board, k: int | None = None) -> Call[ValidatePositionAnswer]:
    """Can this tic-tac-toe position occur in a legal game; whose turn; is it over."""
    return call("validate_position", _json, _omit_none(board=_board(board), k=k))


def validate_positions(items: Sequence[Mapping[str, Any]]) -> Call[ValidatePositionsAnswer]:
    """Many positions (``items``: ``{"board", "k"?}`` each)."""
    return call("validate_positions", _json, {"items": list(items)})


def create_game(
    *,
    game: str | None = None,
    clock: tuple[int, int] | ClockIn | None = None,
    board: Board | None = None,
    key: str | None = None,
    **params: Any,
) -> Call[CreateGameAnswer]:
    """A new game of the kind ``game`` (tic-tac-toe without it) with its creation parameters;
    ``clock`` is (initial seconds, increment seconds), or the whole ``ClockIn`` (a ``mode``,
    ``stages``); ``key``: a player's key, whose player takes the creator's seat (and acts for
    it as its token does). The clients type it per kind."""
    timing: ClockIn | None = None
    if isinstance(clock, tuple):
        timing = {"initial_seconds": clock[0], "increment_seconds": clock[1]}
    elif clock is not None:
        timing = clock
    body = _omit_none(
        game=game, clock=timing, board=None if board is None else _board(board), **params
    )
    return call("create_game", _json, body, headers=_as_player(key))


def join_game(
    game_id: str,
    idempotency_key: str | None = None,
    *,
    name: str | None = None,
    key: str | None = None,
) -> Call[JoinGameAnswer]:
    """Take the free seat of an open game, called ``name`` if given: ``{"player", "token",
    "state"}`` (a new random Idempotency-Key unless given: a retry from the same client address
    gets the same seat and token; the service binds a join's key to the client that sent it).
    ``key``: a player's key, whose player takes the seat, called by the player's name (a rated
    game's seat is taken only so); the key then acts for the seat as its token does."""
    headers = {"Idempotency-Key": idempotency_key or uuid.uuid4().hex, **_as_player(key)}
    body = None if name is None else {"name": name}
    return call("join_game", _json, body, path={"game_id": game_id}, headers=headers)


def list_games(
    *,
    game: str | None = None,
    rule: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[ListGamesAnswer]:
    """A page of the lobby: open games, oldest first (``cursor``: the last page's
    ``next_cursor``), of one kind and rule if given."""
    params = _omit_none(open="true", game=game, rule=rule, limit=limit, cursor=cursor)
    return call("list_games", _json, params=params)


def token_for(game: CreateGameAnswer, player: Player) -> str:
    """The bearer token of ``player`` (1 or 2) in the answer that created ``game`` (an open
    game's answer has only its creator's: KeyError for the other seat)."""
    tokens = game["tokens"]
    if player == 1:
        return tokens["1"]
    if player == 2:
        return tokens["2"]
    raise ValueError(f"player {player!r}: a game has players 1 and 2")


def get_game(game_id: str, *, token: str | None = None) -> Call[GetGameAnswer]:
    """The game's state now (``token``: a player's or a spectator's, for a private game)."""
    return call("get_game", _json, path={"game_id": game_id}, headers=_viewer(token))


def make_move(
    game_id: str,
    token: str,
    row: int | None = None,
    col: int | None = None,
    *,
    square: str | None = None,
    move: Mapping[str, Any] | None = None,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[MakeMoveAnswer]:
    """A move of the token's player: on the cell (``row``, ``col``), or on the cell named
    ``square`` (``"f5"``, where the board has names: Reversi counts rows from the top,
    tic-tac-toe from the bottom), or a ``move`` of another shape the game's kind takes
    (``{"pass": True}``); ``if_match``: only if the game is still at that version."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(row=row, col=col, square=square, player=player, **(move or {}))
    return call("make_move", _json, body, path={"game_id": game_id}, headers=headers)


def make_choice(
    game_id: str,
    token: str,
    *,
    color: Literal["B", "W"] | None = None,
    place_two: bool = False,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[MakeChoiceAnswer]:
    """A choice of the token's player, where the game's opening asks for one (swap2: the
    ``color`` it plays, ``"B"`` or ``"W"``, or ``place_two=True``: two more stones); answered
    as a move is."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(color=color, place_two=place_two or None, player=player)
    return call("make_choice", _json, body, path={"game_id": game_id}, headers=headers)


def resign(
    game_id: str,
    token: str,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[ResignAnswer]:
    """The token's player resigns: the other player wins."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(player=player)
    return call("resign", _json, body, path={"game_id": game_id}, headers=headers)


def offer_draw(
    game_id: str,
    token: str,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[OfferDrawAnswer]:
    """The token's player offers a draw, or accepts the other player's standing offer."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(player=player)
    return call("offer_draw", _json, body, path={"game_id": game_id}, headers=headers)


def abort_game(
    game_id: str,
    token: str,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[AbortGameAnswer]:
    """The token's player aborts the game before the players' second move: it ends with no
    result (``status`` ``aborted``); from the second move on, ``TooLateToAbort``."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(player=player)
    return call("abort_game", _json, body, path={"game_id": game_id}, headers=headers)


def offer_takeback(
    game_id: str,
    token: str,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[OfferTakebackAnswer]:
    """The token's player offers to take back moves so that it moves again (its last move, and
    the reply if there was one), or accepts the other player's standing offer: the moves are
    then taken back (``move_count`` drops; their ``seq`` numbers are used again). A player with
    no move of its own to take back: ``NothingToTakeBack``."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(player=player)
    return call("offer_takeback", _json, body, path={"game_id": game_id}, headers=headers)


def give_time(
    game_id: str,
    token: str,
    seconds: int,
    *,
    player: int | None = None,
    if_match: int | None = None,
    idempotency_key: str | None = None,
) -> Call[GiveTimeAnswer]:
    """The token's player gives ``seconds`` (1–3,600) to the other player's clock, at once. A
    game without a clock, or created with ``rules.give_time`` false: ``ActionNotAllowed``."""
    headers = _acting(game_id, token, if_match, idempotency_key)
    body = _omit_none(seconds=seconds, player=player)
    return call("give_time", _json, body, path={"game_id": game_id}, headers=headers)


def add_spectator(game_id: str, token: str) -> Call[AddSpectatorAnswer]:
    """A read-only token for the game, made with a player's ``token``: ``{"token"}`` (it reads
    a private game, and never acts: ``WrongPlayer``). Sent again only when the connection failed
    before the request left (each send makes a token)."""
    return call("add_spectator", _json, path={"game_id": game_id}, headers=_bearer(token))


def rematch(game_id: str, token: str) -> Call[RematchAnswer]:
    """After the end, offer a rematch, or accept the other player's: ``{"rematch", "state"}``,
    ``rematch`` None while only this player's offer stands, else this player's ``id``,
    ``player`` (the other seat) and ``token`` in the new game. Asking again is safe: an offer
    that stands changes nothing, and a rematch made is answered again."""
    return call("rematch", _json, path={"game_id": game_id}, headers=_bearer(token))


def list_moves(
    game_id: str, since: int = 0, limit: int | None = None, *, token: str | None = None
) -> Call[ListMovesAnswer]:
    """The moves after move ``since``, at most ``limit``."""
    params = {"since": since, "limit": limit}
    path = {"game_id": game_id}
    return call("list_moves", _json, path=path, headers=_viewer(token), params=params)


def list_legal_moves(
    game_id: str, after: int | None = None, limit: int | None = None, *, token: str | None = None
) -> Call[ListLegalMovesAnswer]:
    """What the player to move may play now, a page at a time: pass the page's ``next_after``
    as ``after`` for the next one (None: it was the last)."""
    params = {"after": after, "limit": limit}
    path = {"game_id": game_id}
    return call("list_legal_moves", _json, path=path, headers=_viewer(token), params=params)


def get_move(game_id: str, seq: int, *, token: str | None = None) -> Call[GetMoveAnswer]:
    """Move number ``seq`` (1 for the first)."""
    path = {"game_id": game_id, "seq": seq}
    return call("get_move", _json, path=path, headers=_viewer(token))


def get_board(game_id: str, *, token: str | None = None) -> Call[GetBoardAnswer]:
    """The board as rows of text."""
    return call("get_board", _json, path={"game_id": game_id}, headers=_viewer(token))


def delete_game(game_id: str, token: str) -> Call[DeleteGameAnswer]:
    """Delete the game (either player's token)."""
    return call("delete_game", _nothing, path={"game_id": game_id}, headers=_bearer(token))


def get_record(game_id: str, *, token: str | None = None) -> Call[GetRecordAnswer]:
    """The game as a record: its creation parameters, its moves as squares, its state, its hash
    chain and (once it is over) the service's signature."""
    return call("get_record", _json, path={"game_id": game_id}, headers=_viewer(token))


def get_record_text(
    game_id: str,
    format: Literal["transcript", "ggf", "psq", "sgf"],
    *,
    token: str | None = None,
) -> Call[str]:
    """The game written as a transcript (``f5d6c3``) or in its kind's community format (``ggf``
    for Othello; ``psq`` and ``sgf`` for gomoku), as text."""
    path, params = {"game_id": game_id}, {"format": format}
    return call("get_record", _text, path=path, headers=_viewer(token), params=params)


def list_archived_games(
    *,
    game: str | None = None,
    rule: str | None = None,
    player: str | None = None,
    name: str | None = None,
    status: str | None = None,
    reason: str | None = None,
    ended_after: str | None = None,
    ended_before: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[ListArchivedGamesAnswer]:
    """A page of the archive: finished public games, newest end first (``cursor``: the last
    page's ``next``), filtered by kind, rule, player, a seat's name, status, reason and when
    they ended (RFC 3339 instants)."""
    params = _omit_none(
        game=game, rule=rule, player=player, name=name, status=status, reason=reason,
        ended_after=ended_after, ended_before=ended_before, limit=limit, cursor=cursor,
    )  # fmt: skip
    return call("list_archived_games", _json, params=params)


def get_archived_game(game_id: str, *, token: str | None = None) -> Call[GetArchivedGameAnswer]:
    """A finished game's signed record from the archive, as its record route answered it at the
    end (``token``: a player's or a spectator's, for a private game)."""
    return call("get_archived_game", _json, path={"game_id": game_id}, headers=_viewer(token))


def get_archived_game_text(
    game_id: str,
    format: Literal["transcript", "ggf", "psq", "sgf"],
    *,
    token: str | None = None,
) -> Call[str]:
    """A finished game from the archive as a transcript or in its kind's community format."""
    path, params = {"game_id": game_id}, {"format": format}
    return call("get_archived_game", _text, path=path, headers=_viewer(token), params=params)


def export_archive(
    format: Literal["ndjson", "ggf", "sgf", "wtb"] = "ndjson",
    *,
    game: str | None = None,
    rule: str | None = None,
    player: str | None = None,
    name: str | None = None,
    status: str | None = None,
    reason: str | None = None,
    ended_after: str | None = None,
    ended_before: str | None = None,
) -> Call[bytes]:
    """Every finished public game of the filters in one ``format``: NDJSON signed records, GGF,
    SGF, or a WTHOR file (``wtb``) of the 8 × 8 Othello games that ended on the board."""
    params = _omit_none(
        format=format, game=game, rule=rule, player=player, name=name, status=status,
        reason=reason, ended_after=ended_after, ended_before=ended_before,
    )  # fmt: skip
    return call("export_archive", _bytes, params=params)


def create_player(name: str) -> Call[CreatePlayerAnswer]:
    """A new player called ``name``: ``{"id", "name", "key"}``. The key is shown only this once
    (the service keeps a hash): pass it as ``key=`` to ``create_game`` and ``join_game`` to play
    as the player, as the ``token`` of the player's seat in its games, and to ``get_me``. Sent
    again only when the request never left (each send makes a player)."""
    return call("create_player", _json, {"name": name})


def get_player(player_id: str) -> Call[GetPlayerAnswer]:
    """A player: its name, when it was made and its rating in each pool it played."""
    return call("get_player", _json, path={"player_id": player_id})


def get_me(key: str) -> Call[GetMeAnswer]:
    """The player whose ``key`` this is (``Unauthorized`` for a key of no player)."""
    return call("get_me", _json, headers=_bearer(key))


def list_ratings(
    pool: str, cursor: str | None = None, limit: int | None = None
) -> Call[ListRatingsAnswer]:
    """A page of a pool's players by rating, highest first (``pool``: a rated game's state
    names it, ``"reversi/8x8/blitz"``; ``cursor``: the last page's ``next``, None after the
    last page; ``provisional`` while a player's RD is over 110)."""
    params = _omit_none(pool=pool, cursor=cursor, limit=limit)
    return call("list_ratings", _json, params=params)


def create_tournament(
    name: str,
    system: Literal["round_robin", "double_round_robin", "swiss"],
    game: Mapping[str, Any],
    *,
    key: str,
    players: Sequence[str] = (),
    rounds: int | None = None,
    openings: Sequence[Mapping[str, Any]] | None = None,
    rated: bool | None = None,
) -> Call[CreateTournamentAnswer]:
    """A tournament organised by the player whose ``key`` this is: a ``round_robin``, a
    ``double_round_robin`` or a ``swiss`` (of ``rounds`` rounds) of games made from ``game``
    (a creation body, ``{"game": "reversi"}``), ``players`` (ids) in the seeding order,
    ``openings`` laid over ``game`` round by round, ``rated`` games: the tournament's document."""
    body = _omit_none(
        name=name, system=system, game=dict(game), players=list(players), rounds=rounds,
        openings=None if openings is None else [dict(o) for o in openings], rated=rated,
    )  # fmt: skip
    return call("create_tournament", _json, body, headers=_bearer(key))


def get_tournament(tournament_id: str) -> Call[GetTournamentAnswer]:
    """A tournament's document: players, rounds (each board's players, game and result) and
    standings (points, then the tie-breaks); a finished one's is signed."""
    return call("get_tournament", _json, path={"tournament_id": tournament_id})


def get_tournament_text(tournament_id: str, format: Literal["trf"] = "trf") -> Call[str]:
    """A tournament's FIDE TRF-16 report, as text."""
    path, params = {"tournament_id": tournament_id}, {"format": format}
    return call("get_tournament", _text, path=path, params=params)


def enter_player(tournament_id: str, player_id: str, *, key: str) -> Call[EnterPlayerAnswer]:
    """Enter a player last in the seeding order, before round 1 (the organiser's ``key``): the
    tournament's document."""
    path, body = {"tournament_id": tournament_id}, {"player": player_id}
    return call("enter_player", _json, body, path=path, headers=_bearer(key))


def withdraw_player(tournament_id: str, player_id: str, *, key: str) -> Call[WithdrawPlayerAnswer]:
    """Withdraw a player, not paired in later rounds (the organiser's ``key``): the document."""
    path = {"tournament_id": tournament_id, "player_id": player_id}
    return call("withdraw_player", _json, path=path, headers=_bearer(key))


def pair_round(tournament_id: str, *, key: str) -> Call[PairRoundAnswer]:
    """Pair the next round and make all its games (the organiser's ``key``): the document, its
    last round's pairings naming each game, played by its players with their keys."""
    return call("pair_round", _json, path={"tournament_id": tournament_id}, headers=_bearer(key))


def create_seek(
    game: Mapping[str, Any],
    *,
    key: str,
    rated: bool | None = None,
    rating_range: tuple[float, float] | None = None,
) -> Call[CreateSeekAnswer]:
    """A standing offer to play ``game`` (a creation body, ``{"game": "reversi"}``) by the
    player whose ``key`` this is, ``rated`` or not, against an opponent rated within
    ``rating_range`` (``(lo, hi)``) in the game's pool: ``{"id", "game", "seat"}`` — the game
    made at once when it fit a waiting seek, else ``game`` None (the player's stream,
    ``player_events``, tells the game when it is made)."""
    body = _omit_none(
        game=dict(game), rated=rated,
        rating_range=None if rating_range is None else list(rating_range),
    )  # fmt: skip
    return call("create_seek", _json, body, headers=_bearer(key))


def list_seeks(
    game: str | None = None, cursor: str | None = None, limit: int | None = None
) -> Call[ListSeeksAnswer]:
    """A page of the open seeks, oldest first (``game``: of this kind only; ``cursor``: the last
    page's ``next``)."""
    return call("list_seeks", _json, params=_omit_none(game=game, cursor=cursor, limit=limit))


def withdraw_seek(seek_id: str, *, key: str) -> Call[WithdrawSeekAnswer]:
    """Withdraw one's own seek (its player's ``key``)."""
    return call("withdraw_seek", _nothing, path={"seek_id": seek_id}, headers=_bearer(key))


def create_challenge(
    to: str, game: Mapping[str, Any], *, key: str, rated: bool | None = None
) -> Call[CreateChallengeAnswer]:
    """Challenge the player ``to`` (an id) to ``game`` (a creation body), as the player whose
    ``key`` this is: the challenge, told on the challenged player's stream."""
    body = _omit_none(to=to, game=dict(game), rated=rated)
    return call("create_challenge", _json, body, headers=_bearer(key))


def list_challenges(*, key: str, limit: int | None = None) -> Call[ListChallengesAnswer]:
    """The open challenges made to (``incoming``) and by (``outgoing``) the player whose ``key``
    this is."""
    return call("list_challenges", _json, headers=_bearer(key), params=_omit_none(limit=limit))


def get_challenge(challenge_id: str, *, key: str) -> Call[GetChallengeAnswer]:
    """An open challenge, to either of its players' ``key``."""
    path = {"challenge_id": challenge_id}
    return call("get_challenge", _json, path=path, headers=_bearer(key))


def accept_challenge(challenge_id: str, *, key: str) -> Call[AcceptChallengeAnswer]:
    """Accept a challenge (the challenged player's ``key``): ``{"game", "seat"}``, the game made
    for both players, each playing with its key."""
    path = {"challenge_id": challenge_id}
    return call("accept_challenge", _json, path=path, headers=_bearer(key))


def decline_challenge(challenge_id: str, *, key: str) -> Call[DeclineChallengeAnswer]:
    """Decline a challenge (the challenged player's ``key``); the challenger's stream tells it."""
    path = {"challenge_id": challenge_id}
    return call("decline_challenge", _nothing, path=path, headers=_bearer(key))


def withdraw_challenge(challenge_id: str, *, key: str) -> Call[WithdrawChallengeAnswer]:
    """Withdraw one's own challenge (the challenger's ``key``)."""
    path = {"challenge_id": challenge_id}
    return call("withdraw_challenge", _nothing, path=path, headers=_bearer(key))


def audit_record(
    *,
    game: str | None = None,
    moves: Sequence[str | tuple[int, int]] | None = None,
    transcript: str | None = None,
    record: str | None = None,
    format: str | None = None,
    board: Board | None = None,
    detail: Literal["full", "summary"] | None = None,
    **params: Any,
) -> Call[AuditRecordAnswer]:
    """Replay a whole game (the kind's creation parameters, and its moves as a list of squares,
    ``(row, col)`` pairs or ``"pass"``, a ``transcript``, or a ``record`` in a ``format``): is
    it legal, how did it end; the answer is signed. ``detail="summary"``: the answer without
    the move records (the service's default is ``full``)."""
    body = _omit_none(
        game=game,
        moves=None if moves is None else [m if isinstance(m, str) else list(m) for m in moves],
        transcript=transcript,
        record=record,
        format=format,
        board=None if board is None else _board(board),
        detail=detail,
        **params,
    )
    return call("audit_record", _json, body)


def audit_batch(records: Sequence[Mapping[str, Any]]) -> Call[AuditBatchAnswer]:
    """Many games at once (``records``: each a body of ``audit_record``), answered in order; a
    record that cannot be read is its own ``{"problem": …}``."""
    return call("audit_batch", _json, {"records": list(records)})


def get_keys() -> Call[GetKeysAnswer]:
    """The Ed25519 public keys (JWKs) that verify what the service signs."""
    return call("get_keys", _json)


def get_health() -> Call[GetHealthAnswer]:
    """Alive (200) while the process runs."""
    return call("get_health", _json)


def get_readiness() -> Call[GetReadinessAnswer]:
    """Ready (200), or a ``StoreUnavailable`` problem while the store cannot be reached."""
    return call("get_readiness", _json)


def get_metrics() -> Call[GetMetricsAnswer]:
    """The Prometheus text."""
    return call("get_metrics", _text)


def get_problem_type(code: str) -> Call[GetProblemTypeAnswer]:
    """What a problem code means: title, statuses, when it happens and what to do."""
    return call("get_problem_type", _json, path={"code": code})


# --- polling and events -----------------------------------------------------------------------


@dataclass(frozen=True)
class Polled:
    """An answer to ``poll_game``: the state if it changed since ``etag`` was given (else None),
    and the ETag to send next time."""

    state: GetGameAnswer | None
    etag: str


def poll(game_id: str, etag_seen: str | None, token: str | None = None) -> Call[Polled]:
    """``getGame`` with ``If-None-Match``: 304 while the game is unchanged."""
    headers = _viewer(token)
    if etag_seen:
        headers["If-None-Match"] = etag_seen

    def read(response: httpx.Response) -> Polled:
        tag = response.headers.get("etag", etag_seen or "")
        if response.status_code == 304:
            return Polled(None, tag)
        return Polled(cast(GetGameAnswer, response.json()), tag)

    return call("get_game", read, path={"game_id": game_id}, headers=headers)


def events(
    game_id: str, since: int | None, last_event_id: str | None, token: str | None = None
) -> Call[None]:
    """``gameEvents``: the stream from version ``since``, or resumed after ``last_event_id``
    (the clients read its lines: ``_events.Following``), with the viewer's ``token`` if given."""
    headers = {"Accept": "text/event-stream", **_viewer(token)}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    params = {"since": since} if last_event_id is None and since is not None else {}
    return call("game_events", _nothing, path={"game_id": game_id}, headers=headers, params=params)


def player_stream(player_id: str, key: str, last_event_id: str | None) -> Call[None]:
    """``playerEvents``: the player's stream (its ``key``) from its first event kept, or resumed
    after ``last_event_id`` (the clients read its lines: ``_events.FollowingPlayer``)."""
    headers = {"Accept": "text/event-stream", **_bearer(key)}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    return call("player_events", _nothing, path={"player_id": player_id}, headers=headers)


def tournament_stream(tournament_id: str, last_event_id: str | None) -> Call[None]:
    """``tournamentEvents``: the stream from its first event, or resumed after
    ``last_event_id`` (the clients read its lines: ``_events.FollowingTournament``)."""
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    path = {"tournament_id": tournament_id}
    return call("tournament_events", _nothing, path=path, headers=headers)
