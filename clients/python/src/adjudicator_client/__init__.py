"""A typed client of the move adjudication service, on httpx: ``Client`` (sync) and
``AsyncClient`` (async, the same methods awaited).

    from adjudicator_client import Client, GameOver, token_for

    with Client("http://127.0.0.1:8000") as api:
        game = api.create_game(n=3)
        api.make_move(game["id"], token_for(game, 1), 1, 1)

* One method per operation of the service's OpenAPI document, named after its operation id in
  snake_case (``createGame`` → ``create_game``); answers are the document's own types, generated
  from it (``_schema``): ``TicTacToeGameOut``, ``ReversiGameOut``, ``MoveResultOut``, … — unions
  of kinds are told apart by their ``game`` member, as a type checker does too.
  ``create_game(game="reversi")`` answers a ``CreatedReversiOut``, tic-tac-toe a
  ``CreatedTicTacToeOut``; ``token_for(game, player)`` is a player's token.
* A problem answer raises ``ProblemError``, or rather the subclass of its ``code`` (``GameOver``,
  ``NotYourTurn``, ``ValidationError``, …: one per code the document lists), carrying the whole
  problem body.
* Retries: a move, a resignation, a draw offer, an abort and a takeback offer carry an
  ``Idempotency-Key`` (one per call unless given) and are sent again with the same key after a
  connection error or a 503 with ``Retry-After`` (``Retries``: a bounded number of attempts and a
  bounded wait), so a retried move is applied once. Reads and the stateless questions are
  retried likewise; creating and deleting a game, and making a spectator token, only when the
  connection failed before the request left.
* A private game (``create_game(..., visibility="private")``) is read only with a player's token
  or a spectator's (``add_spectator``): every read takes it as ``token=`` (``get_game``,
  ``poll_game``, ``list_moves``, ``get_move``, ``list_legal_moves``, ``get_board``,
  ``game_events``, ``get_record``, ``get_record_text``); a public game's reads need none.
* Players (with an archive on the service): ``create_player(name)`` answers the player's
  ``key``, shown only once. ``key=`` seats its player in ``create_game`` and ``join_game``
  (``rated=True``: an open game between players, its result rating both); in the player's
  games the key is the ``token`` of its seat, for moves and every action. ``get_me(key)``,
  ``get_player(id)`` with its ratings, and ``list_ratings(pool)`` a page at a time.
* Tournaments (with an archive): the organiser's key is ``key=`` of ``create_tournament``,
  ``enter_player``, ``withdraw_player`` and ``pair_round`` (each answers the tournament's
  document; a paired round's games are played by their players with their keys);
  ``get_tournament`` reads its document, ``get_tournament_text`` its TRF-16 report, and
  ``tournament_events`` follows its stream (``TournamentEvent``: ``round``, ``result``,
  ``end``), resumed as a game's is.
* Seeks and challenges (with an archive), each with the player's ``key=``: ``create_seek``
  (matched at once with a waiting seek that fits, or waiting), ``list_seeks``,
  ``withdraw_seek``; ``create_challenge``, ``list_challenges``, ``get_challenge``,
  ``accept_challenge`` (the game made), ``decline_challenge``, ``withdraw_challenge``; and
  ``player_events`` follows the player's stream (``PlayerEvent``: ``game``, a game of the
  player began — from a seek, a challenge or a tournament —, ``challenge``,
  ``challenge_declined``, ``seek_expired``), resumed as a game's is; it has no end.
* ``poll_game`` polls with ``If-None-Match`` (unchanged: ``Polled.state`` is None), and
  ``game_events`` iterates over the game's event stream, resuming with ``Last-Event-ID`` after
  a dropped connection, until the game's ``end``.
"""

from adjudicator_client._async_client import AsyncClient
from adjudicator_client._client import Client
from adjudicator_client._events import (
    AbortEvent,
    ClockEvent,
    EndEvent,
    GameEvent,
    JoinEvent,
    MoveEvent,
    OfferEvent,
    PlayerEvent,
    RematchEvent,
    TakebackEvent,
    TournamentEvent,
)
from adjudicator_client._operations import Board, Color, Player, Polled, Retries, token_for
from adjudicator_client._problem import ProblemError
from adjudicator_client._schema import *  # noqa: F403 - the document's types and problems
from adjudicator_client._schema import PROBLEMS
from adjudicator_client._schema import __all__ as _schema_all

__all__ = [
    "PROBLEMS",
    "AbortEvent",
    "AsyncClient",
    "Board",
    "Client",
    "ClockEvent",
    "Color",
    "EndEvent",
    "GameEvent",
    "JoinEvent",
    "MoveEvent",
    "OfferEvent",
    "Player",
    "PlayerEvent",
    "Polled",
    "ProblemError",
    "RematchEvent",
    "Retries",
    "TakebackEvent",
    "TournamentEvent",
    "token_for",
]
__all__ += _schema_all
