"""Players and ratings: ``POST /v1/players``, ``GET /v1/players/{id}``, ``GET /v1/players/me``
and ``GET /v1/ratings``; and what a player's key does in the game routes (``player_if_key``,
``seated``).

A player is kept in the archive's database (``app.stores.archive.players``), its key as a hash.
A key is ``<player id>.<secret>``: the service finds the player by the id it names and compares
the key's hash; in a game, a key acts through its seat's token there (``tokens.seat_token``),
so the game routes look nothing up for it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import Field
from typing_extensions import TypedDict

from app.api.archive import archive_of
from app.api.bodies import JsonBody, json_response
from app.api.clients import client_of
from app.api.games.access import store_errors
from app.api.games.schemas import GameShapes
from app.api.params import BearerToken, Malformed, Param, integer, matching
from app.api.ratelimit import RateLimiter
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.contract.bodies import BodyInvalid
from app.contract.fields import Body
from app.contract.games import CreateIn, SeatName
from app.contract.pools import pool_of
from app.contract.problems import (
    PLAYER_NOT_FOUND,
    RATE_LIMITED,
    UNAUTHORIZED,
    VALIDATION_ERROR,
)
from app.contract.render import instant
from app.league.glicko2 import PROVISIONAL_RD
from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    PlayerNotFound,
    StoreUnavailable,
    Unauthorized,
)
from app.sessions.kind import Kinds
from app.sessions.store import NewGame
from app.stores.archive.players import Player, Players, RatingCursor
from app.stores.archive.tables import ID_LENGTH, POOL_LENGTH

NO_PLAYERS = (
    "players live in the archive's database, and this service keeps none "
    "(ADJUDICATOR_ARCHIVE_URL=none)"
)
NOT_A_KEY = "the key is not a player's key"
RATED_BY_PLAYERS = "a rated game is made with a player's key: its seats are players'"
# How long a client that holds its most players is told to wait (they are never removed).
PLAYERS_RETRY_SECONDS = 3600

PLAYER_KEY = BearerToken(
    "PlayerKey",
    "A player's key, as returned once by `POST /v1/players`.",
)
PLAYER_KEY_IF_SENT = BearerToken(
    "PlayerKey",
    "A player's key, as returned once by `POST /v1/players`.",
    optional=True,
)


class PlayerIn(Body):
    """A new player: what it is called in states, records, listings and standings."""

    name: SeatName = Field(description="The player's name.")


PLAYER_BODY = JsonBody(
    PlayerIn, {"ann": {"summary": "A player called Ann", "value": {"name": "Ann"}}}
)


class PoolRatingOut(TypedDict):
    rating: Annotated[float, Field(description="Glicko-2's rating, unrounded.")]
    rd: Annotated[float, Field(description="Its rating deviation.")]
    volatility: float
    games: Annotated[int, Field(description="Rated games played in the pool.")]


class PlayerOut(TypedDict):
    id: str
    name: str
    created_at: Annotated[str, Field(description="RFC 3339, UTC, ms.")]
    ratings: Annotated[
        dict[str, PoolRatingOut], Field(description="The player's rating in each pool it played.")
    ]


class NewPlayerOut(TypedDict):
    id: str
    name: str
    key: Annotated[
        str,
        Field(
            description="The player's key, shown only here (the service keeps a hash): a bearer "
            "token for `GET /v1/players/me`, for making and joining games as this player, and "
            "wherever a seat's token acts in the player's games."
        ),
    ]


class RankedOut(TypedDict):
    id: str
    name: str
    rating: float
    rd: float
    games: int
    provisional: Annotated[bool, Field(description="`rd` > 110: the rating is not settled yet.")]


class RatingsOut(TypedDict):
    players: list[RankedOut]
    next: Annotated[str | None, Field(description="Send as `cursor` for the next page.")]


_PLAYER_ID, _player_id = matching(
    "[A-Za-z0-9_-]{1,64}", "player_id", "is not a player's id", max_length=ID_LENGTH
)
PLAYER_ID = Param(
    "player_id", "path", _PLAYER_ID, "The player's id, from `POST /v1/players`.", _player_id, ""
)


def _pool(text: str) -> str:
    if not 1 <= len(text) <= POOL_LENGTH or not text.isprintable():
        raise Malformed("pool", f"must be 1 to {POOL_LENGTH} visible characters")
    return text


POOL = Param(
    "pool", "query", {"type": "string", "minLength": 1, "maxLength": POOL_LENGTH},
    "The pool (a rated game's state says it: `reversi/8x8/blitz`, …).", _pool, "",
    required=True,
)  # fmt: skip


def _cursor(text: str) -> RatingCursor:
    try:
        return RatingCursor.decode(text)
    except ValueError:
        raise Malformed("cursor", "must be a `next` of this listing") from None


CURSOR = Param[RatingCursor | None](
    "cursor", "query", {"type": "string", "maxLength": 200},
    "Where the page starts: the previous page's `next`.", _cursor, None,
)  # fmt: skip
MAX_PAGE, DEFAULT_PAGE = 1000, 100
_LIMIT, _limit = integer(1, MAX_PAGE)
LIMIT = Param(
    "limit", "query", _LIMIT, f"At most this many players (1 to {MAX_PAGE}).", _limit,
    DEFAULT_PAGE,
)  # fmt: skip


def players_of(request: Request) -> Players:
    """The players of the service's archive; 503 without one."""
    archive = archive_of(request)
    if archive is None:
        raise StoreUnavailable(NO_PLAYERS)
    return Players(archive)


async def player_by_key(request: Request, key: str) -> Player:
    """The player whose key ``key`` is (Unauthorized: no such player, or not its key)."""
    player_id = tokens.player_of_key(key)
    if player_id is None or len(player_id) > ID_LENGTH:
        raise Unauthorized(NOT_A_KEY)
    found = await players_of(request).find(player_id)
    if found is None or not tokens.matches(tokens.token_hash(key), found.key_hash):
        raise Unauthorized(NOT_A_KEY)
    return found


async def player_if_key(request: Request) -> Player | None:
    """The player whose key the request carries as its bearer token, None without one (or
    with a token that has no player key's shape: a game's token); Unauthorized for a key of
    no player."""
    token = PLAYER_KEY_IF_SENT.read_if_sent(request)
    if token is None or tokens.player_of_key(token) is None:
        return None
    return await player_by_key(request, token)


def seated(game: NewGame, player: Player, seat: int, kinds: Kinds[Any], rated: bool) -> NewGame:
    """``game`` with ``player`` in ``seat``: the game's id made here (unless it has one), the
    seat's token the
    player's for it (``tokens.seat_token_of``), the seat named by the player; and, ``rated``,
    its pool (``pool_of``)."""
    game_id = game.id or tokens.new_game_id()
    given: list[str | None] = list(game.given)
    given[seat - 1] = tokens.seat_token_of(player.key_hash, game_id)
    held = list(game.players)
    held[seat - 1] = player.id
    named = list(game.names)
    named[seat - 1] = player.name
    terms = game.terms
    if rated:
        terms = replace(terms, pool=pool_of_game(game, kinds))
    return replace(
        game, id=game_id, given=(given[0], given[1]), players=(held[0], held[1]),
        names=(named[0], named[1]), terms=terms,
    )  # fmt: skip


def pool_of_game(game: NewGame, kinds: Kinds[Any]) -> str:
    """The pool ``game`` is rated in (``pool_of``), were it rated."""
    kind = kinds.find(game.kind)
    return pool_of(kind, game.params, kind.new(game.params).facts(), game.control)


def game_body(request: Request, body: Mapping[str, Any], where: Sequence[str | int]) -> CreateIn:
    """``body`` read as a creation body of ``POST /v1/games`` (a 422 naming its members under
    ``where``): a tournament's games', a seek's, a challenge's."""
    state = request.app.state
    return creation_body(state.games, state.validation_context, body, where)


def creation_body(
    shapes: GameShapes, context: dict[str, Any], body: Mapping[str, Any],
    where: Sequence[str | int] = ("game",),
) -> CreateIn:  # fmt: skip
    """``game_body`` with the service's ``shapes`` and validation ``context`` (outside a
    request: a pending game made again, ``app.api.matches``)."""
    try:
        return shapes.create_body(shapes.create.validate_value(dict(body), context))
    except BodyInvalid as invalid:
        raise BodyInvalid(
            [{**error, "loc": ("body", *where, *tuple(error["loc"])[1:])}
             for error in invalid.errors()]
        ) from None  # fmt: skip


def seated_pair(
    game: NewGame, game_id: str, first: Player, second: Player, kinds: Kinds[Any], rated: bool
) -> NewGame:
    """``game`` (``game_id``) with ``first`` in seat 1 and ``second`` in seat 2, each playing
    with its key (its seat's token derived from the key's hash), named by them; ``rated``: in
    its pool."""
    game = seated(replace(game, id=game_id), first, 1, kinds, rated)
    return seated(game, second, 2, kinds, rated=False)


def player_json(player: Player) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        "created_at": instant(player.created_ms),
        "ratings": {
            pool: {"rating": r.rating, "rd": r.rd, "volatility": r.volatility, "games": r.games}
            for pool, r in player.ratings.items()
        },
    }


# --- routes ---------------------------------------------------------------------------------------


async def create_player(request: Request) -> Response:
    client = client_of(request)
    request.app.state.creation_limiter.take(client)  # a player is made as a game is
    body = await PLAYER_BODY.parse(request)
    book = players_of(request)
    player_id = tokens.new_player_id()
    key = tokens.new_player_key(player_id)
    now_ms = int(time.time() * 1000)
    most: int = request.app.state.settings.max_players_per_client
    if not await book.add(player_id, body.name, tokens.token_hash(key), client, now_ms, most):
        raise CapacityExhausted(most, PLAYERS_RETRY_SECONDS, "players for this client")
    headers = {"Location": f"/v1/players/{player_id}", "Cache-Control": "no-store"}
    return json_response({"id": player_id, "name": body.name, "key": key}, 201, headers)


async def get_player(request: Request) -> Response:
    player_id = PLAYER_ID.read(request)
    found = await players_of(request).find(player_id)
    if found is None:
        raise PlayerNotFound(player_id)
    return json_response(player_json(found))


async def get_me(request: Request) -> Response:
    player = await player_by_key(request, PLAYER_KEY.read(request))
    return json_response(player_json(player))


async def list_ratings(request: Request) -> Response:
    pool = POOL.read(request)
    after = CURSOR.read(request)
    limit = LIMIT.read(request)
    reads: RateLimiter = request.app.state.history_reads
    reads.take(client_of(request), limit)  # a page reads up to ``limit`` players
    page, more = await players_of(request).ranked(pool, after, limit)
    rows = [
        {"id": row.id, "name": row.name, "rating": row.rating.rating, "rd": row.rating.rd,
         "games": row.rating.games, "provisional": row.rating.rd > PROVISIONAL_RD}
        for row in page
    ]  # fmt: skip
    return json_response({"players": rows, "next": None if more is None else more.encode()})


LOCATION = {"description": "The player's URL.", "schema": {"type": "string"}}


def players_router() -> APIRouter:
    router = api_router("/v1", ["Players"])
    router.post(
        "/players",
        summary="Make a player",
        status_code=201,
        description="A player: an identity that lasts, with a name, a key and a rating in each "
        "pool it plays rated games in. The key is shown only in this answer (the service keeps "
        "a hash). With it as the bearer token, `POST /v1/games` seats the player as the "
        "creator and `POST /v1/games/{id}/join` seats the player; in the player's games it acts "
        "wherever the seat's token acts. Counted as a game creation against the client's rate "
        "(429 `rate_limited`); a client makes at most `ADJUDICATOR_MAX_PLAYERS_PER_CLIENT` "
        "players (503 `capacity_exhausted`). 503 `store_unavailable` where the service keeps "
        "no archive (`ADJUDICATOR_ARCHIVE_URL=none`) or it cannot be reached.",
        response_model=NewPlayerOut,
        responses={
            201: {"headers": {"Location": LOCATION}},
            **store_errors(VALIDATION_ERROR, RATE_LIMITED),
        },
        openapi_extra=resend(Resend.UNSENT, PLAYER_BODY.openapi),
    )(create_player)
    router.get(
        "/players/me",
        summary="The player whose key this is",
        description="The player the bearer key is of, as `GET /v1/players/{id}` shows it "
        "(401 for a key of no player).",
        response_model=PlayerOut,
        responses={200: {}, **store_errors(UNAUTHORIZED)},
        openapi_extra={**PLAYER_KEY.openapi},
    )(get_me)
    router.get(
        "/players/{player_id}",
        summary="A player",
        description="A player's name, when it was made, and its rating in each pool it played "
        "rated games in (Glicko-2, unrounded). 404 `player_not_found` for no such player.",
        response_model=PlayerOut,
        responses={200: {}, **store_errors(VALIDATION_ERROR, PLAYER_NOT_FOUND)},
        openapi_extra={"parameters": [PLAYER_ID.openapi]},
    )(get_player)
    router.get(
        "/ratings",
        summary="A pool's ratings",
        description="The players rated in a pool, highest rating first, a page at a time "
        "(`limit`, 1 to 1000, default 100; `cursor`: the previous page's `next`). `provisional`: "
        "the rating deviation is over 110. Each listed player counts as a read against the "
        "client's history limit (429 `rate_limited` past it).",
        response_model=RatingsOut,
        responses={200: {}, **store_errors(VALIDATION_ERROR, RATE_LIMITED)},
        openapi_extra={"parameters": [POOL.openapi, CURSOR.openapi, LIMIT.openapi]},
    )(list_ratings)
    return router
