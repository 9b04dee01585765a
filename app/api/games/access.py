"""What the game routes ask of a request before they touch a game: the store and the kinds'
shapes it is served with, a player's token checked (``authenticated``: a client that sends
wrong ones is refused first), a read allowed (``viewed``: a private game's needs a token), a
store outage told apart by whether the change may have been applied (``a_change``); and how the
OpenAPI document says so (``store_errors``, ``acting``, ``MOVE_REFUSALS``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import Request

from app.api.bodies import JsonBody
from app.api.clients import client_of
from app.api.games import params
from app.api.games.schemas import GameShapes
from app.api.problems import problem_responses
from app.api.ratelimit import RateLimiter
from app.contract.problems import BODY_ERRORS, ProblemType, Refusal
from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.errors import (
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    PreconditionFailed,
    StoreUnavailable,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.exchange import GameState
from app.sessions.store import GameStore, Seat


def store_errors(
    *answers: ProblemType | Refusal | type[DomainError],
) -> dict[int | str, dict[str, Any]]:
    """``problem_responses`` for a route that reads or writes the game store: it may also answer
    503 ``store_unavailable``."""
    return problem_responses(*answers, StoreUnavailable)


async def archived_if_ended(request: Request, state: GameState, replayed: bool) -> None:
    """A request that ended the game has it archived before it is answered (``Archiver.settle``:
    if the archive answers promptly; else it waits in the store for the archiver's loop)."""
    archiver = request.app.state.archiver
    if archiver is not None and not replayed and state.status != "in_progress":
        await archiver.settle(state)


def store_of(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


@contextmanager
def a_change() -> Iterator[None]:
    """A store outage during a request that changes a game says whether the change may have been
    applied; the store says so of a change it sent, and an outage it did not say it of came
    before the change was sent (reading the game, its token, the counts): not applied."""
    try:
        yield
    except StoreUnavailable as outage:
        if outage.may_have_applied is None:
            raise StoreUnavailable(may_have_applied=False) from outage
        raise


@contextmanager
def token_checked(request: Request) -> Iterator[None]:
    """A token checked inside: a client address that has sent too many wrong ones is refused
    429 before its token is even looked at, and a wrong one (Unauthorized) counts."""
    failures: RateLimiter = request.app.state.auth_failures
    client = client_of(request)
    failures.take(client, 1)  # as if wrong: requests in flight at once cannot pass the limit
    wrong = False
    try:
        yield
    except Unauthorized:
        wrong = True
        raise
    finally:
        if not wrong:  # a right token (or no game, or no store) costs nothing
            failures.refund(client, 1)


async def authenticated(request: Request, game_id: str) -> tuple[str, Seat]:
    """The request's player token and its seat (the player, the game's kind), checked against
    the game's players (GameNotFound, Unauthorized; a spectator's token: 403), before anything
    else of the request is read. A request without one is 401."""
    token = tokens.seat_token(params.PLAYER_TOKEN.read(request), game_id)  # a key: its seat's
    with token_checked(request), a_change():  # the requests that carry a token change the game
        seat = await store_of(request).seat(game_id, token)
    return token, seat


async def viewed(request: Request, game_id: str) -> None:
    """A read of a game: a private one needs a player's or a spectator's token (401), checked
    before anything is read; a public one is read by anyone (a token sent is not looked at)."""
    try:
        token = params.VIEWER_TOKEN.read_if_sent(request)
    except Unauthorized:  # not a bearer token: none for this service (a public game is read)
        token = None
    if token is None:
        await store_of(request).viewer(game_id, None)
        return
    with token_checked(request):
        await store_of(request).viewer(game_id, tokens.seat_token(token, game_id))


def header(description: str) -> dict[str, object]:
    return {"description": description, "schema": {"type": "string"}}


def acting(body: JsonBody[Any]) -> dict[str, Any]:
    """What a player's request that changes the game takes: its body, the player's token, and
    the game id, an Idempotency-Key and If-Match."""
    return {
        **body.openapi,
        **params.PLAYER_TOKEN.openapi,
        "parameters": [
            params.GAME_ID.openapi,
            params.IDEMPOTENCY_KEY.openapi,
            params.IF_MATCH.openapi,
        ],
    }


# What a player's move or action may be refused with, whatever the game's kind (a move also
# with its kind's refusals).
MOVE_REFUSALS = (
    Unauthorized, WrongPlayer, GameNotFound, GameOver, PreconditionFailed, *BODY_ERRORS,
    IdempotencyKeyReused,
)  # fmt: skip


def shapes_of(request: Request) -> GameShapes:
    shapes: GameShapes = request.app.state.games
    return shapes
