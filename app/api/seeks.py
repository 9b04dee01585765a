"""Seeks, challenges and a player's event stream: ``POST/GET /v1/seeks``, ``DELETE
/v1/seeks/{id}``, ``POST/GET /v1/challenges``, ``POST /v1/challenges/{id}/accept`` and
``…/decline``, ``DELETE /v1/challenges/{id}``, and ``GET /v1/players/{id}/events``.

They live in the archive's database with the players (``app.stores.archive.offers``): every
process sharing the players shares them, whatever its live store, and two seeks that fit are
matched by one transaction however many processes race. A game made for two players (from two
seeks, an accepted challenge, or a tournament's pairing) seats each by its key's hash
(``seated_pair``: each plays with its key) and is told on both players' streams (``game``); an
offer's game is made once and told once even if its process dies halfway (``app.api.matches``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.sse import EventSourceResponse
from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from app.api.archive import archive_of
from app.api.bodies import JsonBody, json_response
from app.api.clients import client_of
from app.api.feeds import feed
from app.api.games import params as game_params
from app.api.games.access import store_errors
from app.api.games.schemas import GameShapes
from app.api.matches import Matches, now_ms, wake
from app.api.params import Malformed, Param, integer, matching
from app.api.players import (
    NO_PLAYERS,
    PLAYER_ID,
    PLAYER_KEY,
    game_body,
    player_by_key,
    players_of,
    pool_of_game,
)
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.contract.bodies import BodyInvalid
from app.contract.fields import Body
from app.contract.games import CreateIn
from app.contract.problems import (
    CHALLENGE_NOT_FOUND,
    RATE_LIMITED,
    SEEK_NOT_FOUND,
    UNAUTHORIZED,
    VALIDATION_ERROR,
    WRONG_PLAYER,
)
from app.contract.render import instant
from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    ChallengeNotFound,
    NotYours,
    SeekNotFound,
    StoreUnavailable,
)
from app.sessions.watchers import Watchers
from app.stores.archive.offers import Challenge, Full, Offers, PendingGame, Seek, SeekCursor, Told
from app.stores.archive.players import Player
from app.stores.archive.tables import ID_LENGTH

# What a seek's or a challenge's game may not say: the service seats its two players itself, and
# ``rated`` is the offer's own.
SEATING = ("open", "creator", "rated", "names")
# How long a player whose seeks (or challenges) are at their most is told to wait.
OFFERS_RETRY_SECONDS = 60
CHALLENGE, CHALLENGE_DECLINED = "challenge", "challenge_declined"
MAX_RATING = 10_000.0  # a range's bounds: beyond any Glicko-2 rating
ACCEPTED_PENDING = (
    "the game store did not answer: the challenge is accepted, and its game is made once the "
    "store answers, told on both players' streams (`game`)"
)


def _no_seating(game: dict[str, Any]) -> None:
    seating = [name for name in SEATING if name in game]
    if seating:
        raise PydanticCustomError(
            "game_seating",
            "the game may not say {members}: the service seats both players (`rated` is the "
            "offer's own member)",
            {"members": ", ".join(seating)},
        )


GAME_FIELD = Field(
    description="The game's creation body, as `POST /v1/games` takes it (without `open`, "
    "`creator`, `rated` or `names`: the service seats both players, each named by itself)."
)
RATED_FIELD = Field(
    False, strict=True, description="`true`: the game is rated (in its pool, `GET /v1/ratings`)."
)


class SeekIn(Body):
    """A standing offer to play."""

    game: dict[str, Any] = GAME_FIELD
    rated: bool = RATED_FIELD
    rating_range: (
        Annotated[
            list[
                Annotated[
                    float, Field(strict=True, ge=-MAX_RATING, le=MAX_RATING, allow_inf_nan=False)
                ]
            ],
            Field(min_length=2, max_length=2),
        ]
        | None
    ) = Field(
        None,
        description="`[lo, hi]`: only an opponent whose rating in the game's pool is within "
        "it (inclusive) fits; left out, any does. A player with no rating in the pool is rated "
        "1500.",
    )

    @model_validator(mode="after")
    def _fits(self) -> SeekIn:
        _no_seating(self.game)
        if self.rating_range is not None and self.rating_range[0] > self.rating_range[1]:
            raise PydanticCustomError("range_reversed", "rating_range's lo is above its hi")
        return self


class ChallengeIn(Body):
    """An offer to one player."""

    to: str = Field(min_length=1, max_length=ID_LENGTH, description="The challenged player's id.")
    game: dict[str, Any] = GAME_FIELD
    rated: bool = RATED_FIELD

    @model_validator(mode="after")
    def _fits(self) -> ChallengeIn:
        _no_seating(self.game)
        return self


SEEK_BODY = JsonBody(
    SeekIn,
    {
        "renju": {
            "summary": "Renju, rated, against 1400 to 1800",
            "value": {
                "game": {"game": "gomoku", "rule": "renju"},
                "rated": True,
                "rating_range": [1400, 1800],
            },
        },
        "othello": {"summary": "Othello, any opponent", "value": {"game": {"game": "reversi"}}},
    },
)
CHALLENGE_BODY = JsonBody(
    ChallengeIn,
    {
        "othello": {
            "summary": "An Othello game with a clock",
            "value": {
                "to": "Xq3pV0aLm8TzR2kd",
                "game": {"game": "reversi", "clock": {"initial_seconds": 300}},
                "rated": True,
            },
        }
    },
)


class NameOut(TypedDict):
    id: str
    name: str


class SeekOut(TypedDict):
    id: str
    player: NameOut
    game: Annotated[dict[str, Any], Field(description="The game's creation body.")]
    rated: bool
    rating_range: list[float] | None
    pool: Annotated[str, Field(description="The game's pool, where ratings are read.")]
    rating: Annotated[float, Field(description="The player's rating in the pool (1500: none).")]
    created_at: str
    expires_at: Annotated[
        str,
        Field(description="When it expires (`ADJUDICATOR_SEEK_SECONDS` after `created_at`) "
              "unless matched or withdrawn first: then gone, told on its player's stream "
              "(`seek_expired`)."),
    ]  # fmt: skip


class SeeksOut(TypedDict):
    seeks: list[SeekOut]
    next: Annotated[str | None, Field(description="Send as `cursor` for the next page.")]


class PostedSeekOut(TypedDict):
    id: str
    game: Annotated[
        str | None,
        Field(description="The game made at once when the seek fit one that was waiting; null: "
              "it waits, or it fit one but the game store did not answer (the game is made "
              "once it does): either way the game is told on the player's stream when made."),
    ]  # fmt: skip
    seat: Annotated[int | None, Field(description="The player's seat in that game.")]


class ChallengeOut(TypedDict):
    id: str
    from_: Annotated[NameOut, Field(alias="from")]
    to: NameOut
    game: dict[str, Any]
    rated: bool
    created_at: str


class ChallengesOut(TypedDict):
    incoming: Annotated[list[ChallengeOut], Field(description="Made to the player, oldest first.")]
    outgoing: Annotated[list[ChallengeOut], Field(description="Made by the player, oldest first.")]


class GameMadeOut(TypedDict):
    game: Annotated[str, Field(description="The game's id.")]
    seat: Annotated[int, Field(description="The player's seat: 1 moves first.")]


OFFER_ID = "[A-Za-z0-9_-]{1,64}"  # a seek's or a challenge's id
_SEEK_ID, _seek_id = matching(OFFER_ID, "seek_id", "is not a seek id", ID_LENGTH)
SEEK_ID = Param("seek_id", "path", _SEEK_ID, "The seek's id, from `POST /v1/seeks`.", _seek_id, "")
_CHALLENGE_ID, _challenge_id = matching(
    OFFER_ID, "challenge_id", "is not a challenge id", ID_LENGTH
)
CHALLENGE_ID = Param(
    "challenge_id", "path", _CHALLENGE_ID, "The challenge's id, from `POST /v1/challenges`.",
    _challenge_id, "",
)  # fmt: skip


_CURSOR = re.compile(rf"([0-9]{{1,16}})\.({OFFER_ID})")


def _cursor(text: str) -> SeekCursor:
    """A listing's ``next``: its last seek's ``created_at`` and id (a seek id's characters
    only: a NUL byte reached PostgreSQL, which refused it as a failing store, 503)."""
    cursor = _CURSOR.fullmatch(text)
    if cursor is None:
        raise Malformed("cursor", "must be a `next` of this listing")
    return int(cursor[1]), cursor[2]


CURSOR = Param[SeekCursor | None](
    "cursor", "query", {"type": "string", "maxLength": 100},
    "Where the page starts: the previous page's `next`.", _cursor, None,
)  # fmt: skip
MAX_PAGE = 100
_LIMIT, _limit = integer(1, MAX_PAGE)
LIMIT = Param(
    "limit", "query", _LIMIT, f"At most this many (1 to {MAX_PAGE}).", _limit, MAX_PAGE
)  # fmt: skip


def matches_of(request: Request) -> Matches:
    archive = archive_of(request)
    if archive is None:
        raise StoreUnavailable(NO_PLAYERS)
    return Matches.of(request.app.state, archive)


def offers_of(request: Request) -> Offers:
    return matches_of(request).offers


def watchers_of(request: Request) -> Watchers:
    watchers: Watchers = request.app.state.player_watchers
    return watchers


def terms_of(body: CreateIn, rated: bool) -> str:
    """What two offers must agree on to fit, hashed: the game its creation body makes (its
    kind, parameters, clock, opening and terms: two bodies that make the same game agree,
    however written) and the rated flag."""
    game = body.new_game("")
    terms = game.terms
    made = {
        "kind": game.kind, "params": dict(game.params),
        "clock": None if game.control is None else asdict(game.control),
        "opening": [dict(played.record()) for played in game.opening],
        "first_move_seconds": terms.first_move_seconds, "disabled": sorted(terms.disabled),
        "private": terms.private, "rated": rated,
    }  # fmt: skip
    return hashlib.sha256(json.dumps(made, sort_keys=True, default=repr).encode()).hexdigest()


def woken(request: Request, told: Sequence[Told]) -> None:
    """Wake this process's streams of the players ``told``."""
    wake(watchers_of(request), told)


async def made(matches: Matches, pending: PendingGame) -> tuple[str, int]:
    """The game ``pending`` (a request's) made and told, whoever leaves: its id and the
    taker's seat."""
    await asyncio.shield(matches.complete(pending))
    return pending.id, pending.seat


# --- seeks ----------------------------------------------------------------------------------------


def seek_json(seek: Seek, offers: Offers) -> dict[str, Any]:
    return {
        "id": seek.id, "player": {"id": seek.player, "name": seek.name}, "game": seek.game,
        "rated": seek.rated, "rating_range": None if seek.bounds is None else list(seek.bounds),
        "pool": seek.pool, "rating": seek.rating, "created_at": instant(seek.created_ms),
        "expires_at": instant(offers.expires_ms(seek)),
    }  # fmt: skip


async def create_seek(request: Request) -> Response:
    player = await player_by_key(request, PLAYER_KEY.read(request))
    request.app.state.creation_limiter.take(client_of(request))  # a seek may make a game
    body = await SEEK_BODY.parse(request)
    game = game_body(request, body.game, ("game",))
    shapes: GameShapes = request.app.state.games
    bounds = None if body.rating_range is None else (body.rating_range[0], body.rating_range[1])
    at = now_ms()
    seek = Seek(
        tokens.new_seek_id(), player.id, body.game, body.rated, terms_of(game, body.rated),
        game.new_game("").kind, pool_of_game(game.new_game(""), shapes.kinds), bounds,
        at, player.name,
    )  # fmt: skip
    matches = matches_of(request)
    most: int = request.app.state.settings.max_seeks_per_player
    try:
        matched = await matches.offers.seek(seek, most, matches.draw(client_of(request), at))
    except Full:
        raise CapacityExhausted(most, OFFERS_RETRY_SECONDS, "seeks for this player") from None
    headers = {"Location": f"/v1/seeks/{seek.id}"}
    if matched is None:
        return json_response({"id": seek.id, "game": None, "seat": None}, 201, headers)
    # Matched: the game is made and told, or undone (the waiting seek waits again), or left
    # pending while the store does not answer: then made and told by the periodic work.
    try:
        game_id, seat = await made(matches, matched.pending)
    except StoreUnavailable:
        return json_response({"id": seek.id, "game": None, "seat": None}, 201, headers)
    return json_response({"id": seek.id, "game": game_id, "seat": seat}, 201, headers)


async def list_seeks(request: Request) -> Response:
    kind = game_params.GAME_FILTER.read(request)
    after = CURSOR.read(request)
    limit = LIMIT.read(request)
    offers = offers_of(request)
    page, more = await offers.listed(kind, after, limit, now_ms())
    cursor = None if more is None else f"{more[0]}.{more[1]}"
    return json_response({"seeks": [seek_json(seek, offers) for seek in page], "next": cursor})


async def withdraw_seek(request: Request) -> Response:
    player = await player_by_key(request, PLAYER_KEY.read(request))
    wanted = SEEK_ID.read(request)
    outcome = await offers_of(request).withdraw(wanted, player.id, now_ms())
    if outcome == "gone":
        raise SeekNotFound(wanted)
    if outcome == "not_yours":
        raise NotYours("seek")
    return Response(status_code=204)


# --- challenges -----------------------------------------------------------------------------------


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.id,
        "from": {"id": challenge.challenger, "name": challenge.challenger_name},
        "to": {"id": challenge.challenged, "name": challenge.challenged_name},
        "game": challenge.game, "rated": challenge.rated,
        "created_at": instant(challenge.created_ms),
    }  # fmt: skip


def _invalid(where: str, message: str) -> BodyInvalid:
    return BodyInvalid([{"loc": ("body", where), "msg": message, "type": "value_error"}])


async def create_challenge(request: Request) -> Response:
    player = await player_by_key(request, PLAYER_KEY.read(request))
    request.app.state.creation_limiter.take(client_of(request))
    body = await CHALLENGE_BODY.parse(request)
    game_body(request, body.game, ("game",))
    if body.to == player.id:
        raise _invalid("to", "a player cannot challenge itself")
    challenged = (await players_of(request).many([body.to])).get(body.to)
    if challenged is None:
        raise _invalid("to", "no such player")
    challenge = Challenge(
        tokens.new_challenge_id(), player.id, player.name, challenged.id, challenged.name,
        body.game, body.rated, now_ms(),
    )  # fmt: skip
    answer = challenge_json(challenge)
    most: int = request.app.state.settings.max_challenges_per_player
    told = Told(challenged.id, CHALLENGE, answer)
    try:
        await offers_of(request).challenge(challenge, most, told)
    except Full:
        raise CapacityExhausted(most, OFFERS_RETRY_SECONDS, "challenges of this player") from None
    woken(request, [told])
    return json_response(answer, 201, {"Location": f"/v1/challenges/{challenge.id}"})


async def _challenge(
    request: Request, role: Literal["challenged", "challenger", "either"]
) -> tuple[Player, Challenge]:
    """The player whose key the request carries, and the challenge of the path, if it is
    ``role`` in it (else NotYours)."""
    player = await player_by_key(request, PLAYER_KEY.read(request))
    wanted = CHALLENGE_ID.read(request)
    challenge = await offers_of(request).find_challenge(wanted)
    if challenge is None:
        raise ChallengeNotFound(wanted)
    holders = {
        "challenged": (challenge.challenged,),
        "challenger": (challenge.challenger,),
        "either": (challenge.challenged, challenge.challenger),
    }[role]
    if player.id not in holders:
        raise NotYours("challenge")
    return player, challenge


async def get_challenge(request: Request) -> Response:
    _, challenge = await _challenge(request, "either")
    return json_response(challenge_json(challenge))


async def list_challenges(request: Request) -> Response:
    player = await player_by_key(request, PLAYER_KEY.read(request))
    limit = LIMIT.read(request)
    incoming, outgoing = await offers_of(request).challenges_of(player.id, limit)
    return json_response(
        {"incoming": [challenge_json(c) for c in incoming],
         "outgoing": [challenge_json(c) for c in outgoing]}
    )  # fmt: skip


async def accept_challenge(request: Request) -> Response:
    _, challenge = await _challenge(request, "challenged")  # its challenged player's key
    request.app.state.creation_limiter.take(client_of(request))
    game_body(request, challenge.game, ("game",))
    matches = matches_of(request)
    pending = await matches.offers.take(challenge, drawn=matches.draw(client_of(request), now_ms()))
    if not isinstance(pending, PendingGame):
        raise ChallengeNotFound(challenge.id)
    # Taken: the game is made and told, or undone (the challenge stays open), or left pending
    # while the store does not answer: then made and told by the periodic work.
    try:
        game_id, seat = await made(matches, pending)
    except StoreUnavailable:
        raise StoreUnavailable(ACCEPTED_PENDING) from None
    return json_response({"game": game_id, "seat": seat}, 201, {"Location": f"/v1/games/{game_id}"})


async def decline_challenge(request: Request) -> Response:
    player, challenge = await _challenge(request, "challenged")
    data = {"challenge": challenge.id, "by": {"id": player.id, "name": player.name}}
    told = [Told(challenge.challenger, CHALLENGE_DECLINED, data)]
    if not await offers_of(request).take(challenge, told):
        raise ChallengeNotFound(challenge.id)
    woken(request, told)
    return Response(status_code=204)


async def withdraw_challenge(request: Request) -> Response:
    _, challenge = await _challenge(request, "challenger")
    if not await offers_of(request).take(challenge):
        raise ChallengeNotFound(challenge.id)
    return Response(status_code=204)


# --- a player's stream ----------------------------------------------------------------------------


async def player_events(request: Request) -> Response:
    player = await player_by_key(request, PLAYER_KEY.read(request))
    wanted = PLAYER_ID.read(request)
    if wanted != player.id:
        raise NotYours("event stream")
    after = game_params.resume_point(request)
    offers = offers_of(request)
    streams = request.app.state.streams
    client = client_of(request)
    key = f"player:{player.id}"
    streams.check(key, client)
    slot = streams.take(key, client)
    return feed(
        request, slot, lambda seen, most: offers.events(player.id, seen, most), after,
        watchers=watchers_of(request), watched=player.id,
    )  # fmt: skip


def seeks_router() -> APIRouter:
    router = api_router("/v1", ["Seeks and challenges"])
    key = PLAYER_KEY.openapi
    bounded = "503 `store_unavailable` where the service keeps no archive."
    router.post(
        "/seeks",
        summary="Seek a game",
        status_code=201,
        description="A standing offer to play, by the player whose key is the bearer token. "
        "When it fits a waiting seek of another player (the same game, as its creation body "
        "makes it, and the same `rated`; each player's rating in the game's pool within the "
        "other's `rating_range`), the game is made at once — seats drawn at random, each "
        "player playing with its key — and both seeks are gone: the answer names the game and "
        "the seat, and both players' streams (`GET /v1/players/{id}/events`) tell it "
        "(`game`). Otherwise the seek waits (`game` null) until a seek that fits it comes, it "
        "is withdrawn, or it expires (`ADJUDICATOR_SEEK_SECONDS` after it was made: its "
        "player's stream tells `seek_expired`). Two seeks that fit make one game, however many "
        "processes race, made and told once even if the process matching them dies halfway. A "
        "player holds at most `ADJUDICATOR_MAX_SEEKS_PER_PLAYER` seeks (503 "
        f"`capacity_exhausted`); a seek is counted as a game creation. {bounded}",
        response_model=PostedSeekOut,
        responses={201: {}, **store_errors(VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED)},
        openapi_extra=resend(Resend.UNSENT, {**SEEK_BODY.openapi, **key}),
    )(create_seek)
    router.get(
        "/seeks",
        summary="Open seeks",
        description="The seeks waiting (not expired), oldest first, a page at a time "
        "(`limit`, 1 to 100; "
        "`cursor`: the previous page's `next`; `game`: only seeks of this kind of game), each "
        f"with its player and its player's rating in the game's pool. {bounded}",
        response_model=SeeksOut,
        responses={200: {}, **store_errors(VALIDATION_ERROR)},
        openapi_extra={
            "parameters": [game_params.GAME_FILTER.openapi, CURSOR.openapi, LIMIT.openapi]
        },
    )(list_seeks)
    router.delete(
        "/seeks/{seek_id}",
        summary="Withdraw a seek",
        status_code=204,
        description="Withdraws one's own seek (its player's key; another player's: 403 "
        "`wrong_player`). 404 `seek_not_found` once it is matched, withdrawn or expired.",
        responses={
            204: {},
            **store_errors(VALIDATION_ERROR, UNAUTHORIZED, WRONG_PLAYER, SEEK_NOT_FOUND),
        },
        openapi_extra=resend(Resend.UNSENT, {**key, "parameters": [SEEK_ID.openapi]}),
    )(withdraw_seek)
    router.post(
        "/challenges",
        summary="Challenge a player",
        status_code=201,
        description="An offer to play one player (`to`), by the player whose key is the bearer "
        "token; the challenged player's stream tells it (`challenge`, the challenge as answered "
        "here). It waits until accepted (the game is made), declined (the challenger's stream "
        "tells it: `challenge_declined`) or withdrawn. A player has at most "
        "`ADJUDICATOR_MAX_CHALLENGES_PER_PLAYER` challenges open (503 `capacity_exhausted`); "
        "challenging oneself or no player is 422. " + bounded,
        response_model=ChallengeOut,
        responses={201: {}, **store_errors(VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED)},
        openapi_extra=resend(Resend.UNSENT, {**CHALLENGE_BODY.openapi, **key}),
    )(create_challenge)
    router.get(
        "/challenges",
        summary="One's open challenges",
        description="The open challenges made to the player whose key is the bearer token "
        "(`incoming`) and by it (`outgoing`), oldest first, at most `limit` of each.",
        response_model=ChallengesOut,
        responses={200: {}, **store_errors(VALIDATION_ERROR, UNAUTHORIZED)},
        openapi_extra={**key, "parameters": [LIMIT.openapi]},
    )(list_challenges)
    path = [CHALLENGE_ID.openapi]
    refusals = store_errors(VALIDATION_ERROR, UNAUTHORIZED, WRONG_PLAYER, CHALLENGE_NOT_FOUND)
    router.get(
        "/challenges/{challenge_id}",
        summary="A challenge",
        description="An open challenge, to either of its players (another's key: 403 "
        "`wrong_player`).",
        response_model=ChallengeOut,
        responses={200: {}, **refusals},
        openapi_extra={**key, "parameters": path},
    )(get_challenge)
    router.post(
        "/challenges/{challenge_id}/accept",
        summary="Accept a challenge",
        status_code=201,
        description="The challenged player's key: the game is made, seats drawn at random, each "
        "player playing with its key, and both players' streams tell it (`game`). The answer "
        "names the game and the accepting player's seat. Another's key: 403 `wrong_player`.",
        response_model=GameMadeOut,
        responses={201: {}, **store_errors(VALIDATION_ERROR, UNAUTHORIZED, WRONG_PLAYER,
                                           CHALLENGE_NOT_FOUND, RATE_LIMITED)},
        openapi_extra=resend(Resend.UNSENT, {**key, "parameters": path}),
    )(accept_challenge)  # fmt: skip
    router.post(
        "/challenges/{challenge_id}/decline",
        summary="Decline a challenge",
        status_code=204,
        description="The challenged player's key: the challenge is gone, and the challenger's "
        "stream tells it (`challenge_declined`).",
        responses={204: {}, **refusals},
        openapi_extra=resend(Resend.UNSENT, {**key, "parameters": path}),
    )(decline_challenge)
    router.delete(
        "/challenges/{challenge_id}",
        summary="Withdraw a challenge",
        status_code=204,
        description="The challenger's key: the challenge is gone.",
        responses={204: {}, **refusals},
        openapi_extra=resend(Resend.UNSENT, {**key, "parameters": path}),
    )(withdraw_challenge)
    router.get(
        "/players/{player_id}/events",
        summary="Follow a player",
        description="Server-sent events for the player whose key is the bearer token (another "
        "player's: 403 `wrong_player`): `game` when a game of the player began — from a seek, "
        'a challenge or a tournament\'s pairing: `{"game", "seat", "via": "seek" | '
        '"challenge" | "tournament", <via>: its id}` —, `challenge` (a challenge made to the '
        'player, as `POST /v1/challenges` answered it), `challenge_declined` (`{"challenge", '
        '"by"}`) and `seek_expired` (`{"seek"}`: a seek of the player expired, gone). Each '
        "event's `id` numbers it: a reconnect with `Last-Event-ID` resumes after "
        "it (the last `ADJUDICATOR_PLAYER_EVENTS_KEPT` are kept). Streams are bounded per "
        "client as a game's are (503 `too_many_streams`).",
        response_class=EventSourceResponse,
        responses={
            200: {
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
                "description": "The player's events; lines starting with `:` are keep-alives.",
            },
            **store_errors(VALIDATION_ERROR, UNAUTHORIZED, WRONG_PLAYER),
        },
        openapi_extra={**key, "parameters": [PLAYER_ID.openapi]},
    )(player_events)
    return router


__all__ = ["seeks_router", "woken"]
