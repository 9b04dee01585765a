"""The game routes: create, poll (ETag / 304), move, join, the lobby, moves since, one move,
legal moves, board, events, spectators, rematch, delete; the actions' routes are declared among
them (``actions``).

Each endpoint checks who asks (``access``), parses (``params``, ``schemas``), calls the store,
and renders (``render``). All are ``request -> Response`` endpoints served by ``DirectRoute``;
hot routes come first, since routes are matched in order on every request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.sse import EventSourceResponse
from pydantic import Field

from app.api.bodies import answer_examples, json_response
from app.api.clients import client_of
from app.api.games import params
from app.api.games.access import (
    MOVE_REFUSALS,
    a_change,
    acting,
    archived_if_ended,
    authenticated,
    header,
    shapes_of,
    store_errors,
    store_of,
    viewed,
)
from app.api.games.actions import action_routes
from app.api.games.events import PAGE, event_stream, keep_alives_in_words, move_events
from app.api.games.examples import AnswerExamples
from app.api.games.links import CREATED_GAME_LINKS, MOVE_LINKS
from app.api.games.names import names_in, names_of_state
from app.api.games.schemas import JOIN_BODY, GameShapes, MoveBodies, typed_dict
from app.api.games.streams import StreamSlots
from app.api.players import PLAYER_KEY_IF_SENT, RATED_BY_PLAYERS, player_if_key, seated
from app.api.ratelimit import RateLimiter
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import Meter, charged
from app.contract.bodies import BodyInvalid
from app.contract.fields import SQUARES
from app.contract.games import etag
from app.contract.moves import played_by
from app.contract.problems import (
    BODY_ERRORS,
    NOT_YOUR_TURN,
    RATE_LIMITED,
    VALIDATION_ERROR,
)
from app.contract.render import (
    Names,
    board_dimensions,
    board_json,
    legal_moves_json,
    move_json,
    move_result_json,
    names_of,
    state_json,
    state_names,
)
from app.sessions import tokens
from app.sessions.errors import (
    ActionNotAllowed,
    BoardTooLarge,
    CapacityExhausted,
    GameNotFound,
    GameNotOver,
    MoveNotFound,
    SeatTaken,
    TooManySpectators,
    TooManyStreams,
    Unauthorized,
    WrongPlayer,
    WrongStep,
)
from app.sessions.exchange import MoveRequest
from app.sessions.kind import Player
from app.sessions.lobby import Filter, wanted

PREFIX = "/v1/games"

MAX_RENDERED_SIDE = 100  # GET …/board renders boards up to this many cells a side
HISTORY_PAGE = 1000  # GET …/moves reads and renders this many moves at a time
# The headers of an answer that carries a token: no cache, shared or private, may keep it.
SECRET = {"Cache-Control": "no-store"}


def _game_path(game_id: str) -> str:
    return f"{PREFIX}/{game_id}"


def _move_made(location: str) -> dict[str, Any]:
    """The headers of the answer to an accepted move (or choice): where it is, and the ETag."""
    return {"headers": {"Location": header(location), "ETag": header("The new ETag.")}}


# --- the endpoints (declared for an app's kinds by ``game_router``) ----------------------------


async def make_move(request: Request) -> Response:
    return await _play(request, lambda shapes, kind: shapes.moves_of[kind])


async def make_choice(request: Request) -> Response:
    def choices(shapes: GameShapes, kind: str) -> MoveBodies:
        bodies = shapes.choices_of.get(kind)
        if bodies is None:
            title = shapes.kinds.find(kind).face.title.lower()
            raise WrongStep(f"a {title} game has no choices: post its moves on …/moves")
        return bodies

    return await _play(request, choices)


async def _play(request: Request, bodies: Callable[[GameShapes, str], MoveBodies]) -> Response:
    """A move, or a choice (``bodies``: those the game's kind takes on the route), parsed,
    played and answered alike."""
    game_id = params.game_id(request)
    key = params.IDEMPOTENCY_KEY.read(request)
    token, seat = await authenticated(request, game_id)  # before the body is read
    shapes = shapes_of(request)
    taken = bodies(shapes, seat.kind)
    names = names_of(shapes.kinds.find(seat.kind), seat.size)  # made once per kind and size
    # A square is read as a cell of the game's board, before the move reaches the store: one
    # the board does not have is the body's error (422 validation_error), as a stateless one is.
    squares = {SQUARES: None if names is None else names.squares}
    body = await taken.body.parse(request, context=squares)
    played, player = played_by(body)  # a shape the game's kind takes: its own bodies only
    move = MoveRequest(
        played,
        player=player,
        expected_version=params.expected_version(request, game_id),
        idempotency_key=key,
    )
    with a_change():
        result = await store_of(request).play(game_id, token, move)
    await archived_if_ended(request, result.state, result.replayed)
    headers = {
        "Location": f"{_game_path(game_id)}/moves/{result.move.seq}",
        "ETag": etag(game_id, result.state.version),
    }
    if result.replayed:
        headers["Idempotent-Replayed"] = "true"
    else:
        request.app.state.metrics.moves.inc()
    return json_response(move_result_json(result, names), 201, headers)


async def get_game(request: Request) -> Response:
    game_id = params.game_id(request)
    await viewed(request, game_id)
    state = await store_of(request).state(game_id)
    tag = etag(state.id, state.version)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if params.etag_matches(request, tag):
        return Response(status_code=304, headers=headers)
    return json_response(state_json(state, names_of_state(request, state)), headers=headers)


async def create_game(request: Request) -> Response:
    request.app.state.creation_limiter.take(client_of(request))
    shapes = shapes_of(request)
    player = await player_if_key(request)
    body = shapes.create_body(await shapes.create.parse(request))
    if body.rated and player is None:
        raise Unauthorized(RATED_BY_PLAYERS)
    owner = client_of(request)
    game = body.new_game(owner)
    if player is not None:
        game = seated(game, player, body.creator_seat(), shapes.kinds, body.rated)
    created = await store_of(request).create(game)
    state = created.state
    tokens = {str(seat): token for seat, token in enumerate(created.tokens, 1) if token}
    answer = {**state_json(state, state_names(shapes.kinds, state)), "tokens": tokens}
    headers = {"Location": _game_path(state.id), "ETag": etag(state.id, state.version)}
    return json_response(answer, 201, headers | SECRET)


async def join_game(request: Request) -> Response:
    """Take an open game's free seat: its token, shown to the joiner alone."""
    client = client_of(request)
    request.app.state.creation_limiter.take(client)  # a seat is half a game
    game_id = params.game_id(request)
    key = params.IDEMPOTENCY_KEY.read(request)
    try:
        body = await JOIN_BODY.parse(request)
    except BodyInvalid:  # a game that does not exist is said first, as everywhere
        await store_of(request).board_shape(game_id)
        raise
    player = await player_if_key(request)
    store = store_of(request)
    with a_change():  # a retry is its client's
        if player is None:
            joined = await store.join(game_id, key, client, body.name)
        else:  # the seat is the player's, called by its name
            token = tokens.seat_token_of(player.key_hash, game_id)
            joined = await store.join(game_id, key, client, player.name, player.id, token)
    state = joined.state
    headers = {"ETag": etag(game_id, state.version), **SECRET}
    if joined.replayed:
        headers["Idempotent-Replayed"] = "true"
    answer = {
        "player": joined.player,
        "token": joined.token,
        "state": state_json(state, names_of_state(request, state)),
    }
    return json_response(answer, headers=headers)


async def list_games(request: Request) -> Response:
    """The lobby: open public games, oldest first, a page at a time."""
    params.OPEN_ONLY.read(request)
    shapes = shapes_of(request)
    where = lobby_filter(request, shapes)
    limit = params.LOBBY_LIMIT.read(request)
    after = params.CURSOR.read(request) or 0
    reads: RateLimiter = request.app.state.history_reads
    reads.take(client_of(request), limit)  # a page reads up to ``limit`` games
    page = await store_of(request).open_games(where, after, limit)
    games = [state_json(state, state_names(shapes.kinds, state)) for state in page.games]
    cursor = None if page.next_cursor is None else str(page.next_cursor)
    return json_response({"games": games, "next_cursor": cursor})


def lobby_filter(request: Request, shapes: GameShapes) -> Filter:
    """The lobby index a listing asks for: every open game, a kind's (``game``), or a kind's
    under one of its rules (``game`` and ``rule``); a 422 naming a kind or rule the service
    does not have."""
    game = params.GAME_FILTER.read(request)
    rule = params.RULE_FILTER.read(request)
    if game is not None and game not in shapes.kinds.names:
        raise _query_problem("game", f"must be one of {', '.join(shapes.kinds.names)}")
    if rule is not None:
        if game is None:
            raise _query_problem("rule", "goes with game: the kind whose rule it is")
        rules = shapes.kinds.find(game).rules
        if rule not in rules:
            known = ", ".join(rules) or "none: this kind has no rules"
            raise _query_problem("rule", f"must be one of the kind's rules ({known})")
    return wanted(game, rule)


def _query_problem(name: str, message: str) -> RequestValidationError:
    return RequestValidationError([{"loc": ("query", name), "msg": message, "type": name}])


async def game_events(request: Request) -> Response:
    game_id = params.game_id(request)
    after = params.resume_point(request)
    await viewed(request, game_id)
    store = store_of(request)
    # Whether there is a place first (a refused stream costs no read), then the stream's first
    # read (an unknown game is a 404 problem), then the place: another client's stream may give
    # its own, which a stream of no game must not make it do.
    streams: StreamSlots = request.app.state.streams
    client = client_of(request)
    streams.check(game_id, client)
    first = await store.changes(game_id, after, PAGE)
    if first.state.status != "in_progress" and after >= first.state.version:
        return Response(status_code=204)  # resumed at or past the end: stop reconnecting
    slot = streams.take(game_id, client)  # may refuse after all: others came meanwhile
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    events = move_events(
        store, shapes_of(request).kinds, game_id, after, request.is_disconnected,
        request.app.state.stopping, first, slot.evicted,
        request.app.state.settings.event_keep_alive_seconds,
    )  # fmt: skip
    response = EventSourceResponse(slot.during(events), headers=headers)
    slot.held_until_gone(response)  # even if the stream never starts
    return response


async def list_moves(request: Request) -> Response:
    game_id = params.game_id(request)
    since, limit = params.SINCE.read(request), params.LIMIT.read(request)
    await viewed(request, game_id)
    reads: RateLimiter = request.app.state.history_reads
    client = client_of(request)
    store, moves = store_of(request), list[dict[str, Any]]()
    names: Names | None = None
    named = False  # the names are read with the first page that has moves
    while True:  # in pages, other requests served between them
        # The page's moves are taken from the client's share before they are read (so reads
        # at once cannot pass it): none left, a first page is 429, a later one ends the list.
        wanted = min(HISTORY_PAGE, limit - len(moves))
        granted = reads.take_up_to(client, wanted, refuse=not moves)
        if not granted:
            break
        page, version = await store.moves(game_id, since + len(moves), granted)
        if page and not named:
            names, named = await names_in(request, game_id), True
        moves.extend(move_json(m, names) for m in page)
        reads.refund(client, granted - len(page))
        if len(page) < granted or len(moves) >= limit:
            break
        await asyncio.sleep(0)
    return json_response({"moves": moves, "version": version})


async def get_move(request: Request) -> Response:
    game_id = params.game_id(request)
    seq = params.SEQ.read(request)
    await viewed(request, game_id)
    move = await store_of(request).move(game_id, seq)
    return json_response(move_json(move, await names_in(request, game_id)))


@charged  # a page of a renju game's costs its forbidden points: up to 15 ms
async def list_legal_moves(request: Request, _meter: Meter) -> Response:
    game_id = params.game_id(request)
    after, limit = params.AFTER_CELL.read(request), params.LEGAL_LIMIT.read(request)
    await viewed(request, game_id)
    page = await store_of(request).legal_moves(game_id, -1 if after is None else after, limit)
    # The game's ETag: its legal moves change only when it does.
    tag = etag(game_id, page.version)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if params.etag_matches(request, tag):
        return Response(status_code=304, headers=headers)
    names = await names_in(request, game_id) if page.legal.moves else None
    return json_response(legal_moves_json(page, names), headers=headers)


@charged  # with Redis, the board is the moves replayed: up to max_moves_per_game of them
async def get_board(request: Request, _meter: Meter) -> Response:
    game_id = params.game_id(request)
    await viewed(request, game_id)
    store = store_of(request)
    state = await store.state(game_id)
    dimensions = board_dimensions(state, shapes_of(request).kinds.find(state.kind))
    side = max(dimensions.values())
    if side > MAX_RENDERED_SIDE:
        raise BoardTooLarge(side, MAX_RENDERED_SIDE)
    return json_response(board_json(dimensions, await store.rows(game_id)))


async def add_spectator(request: Request) -> Response:
    """A read-only token for the game, minted by a player."""
    request.app.state.creation_limiter.take(client_of(request))
    game_id = params.game_id(request)
    token, _ = await authenticated(request, game_id)
    spectator = await store_of(request).spectate(game_id, token)
    return json_response({"token": spectator}, 201, SECRET)


async def rematch(request: Request) -> Response:
    """A rematch offer after the end; the rematch made once both offered."""
    request.app.state.creation_limiter.take(client_of(request))  # it may make a game
    game_id = params.game_id(request)
    token, _ = await authenticated(request, game_id)
    with a_change():
        answer = await store_of(request).rematch(game_id, token, client_of(request))
    state, made = answer.state, answer.rematch
    seat = None if made is None else {"id": made.id, "player": made.player, "token": made.token}
    body = {"rematch": seat, "state": state_json(state, names_of_state(request, state))}
    return json_response(body, headers={"ETag": etag(game_id, state.version), **SECRET})


async def delete_game(request: Request) -> Response:
    game_id = params.game_id(request)
    token, _ = await authenticated(request, game_id)
    archiver = request.app.state.archiver
    if archiver is not None and (await store_of(request).state(game_id)).status != "in_progress":
        # A finished game is archived before it goes (503, and nothing deleted, while the
        # archive cannot take it): a player cannot unmake a result by deleting its game.
        await archiver.archive_one(game_id)
    with a_change():
        await store_of(request).delete(game_id, token)
    return Response(status_code=204)


# --- the routes of an app's kinds -------------------------------------------------------------


def game_router(shapes: GameShapes) -> APIRouter:
    """The game routes, declared for the kinds ``shapes`` joins (hot routes first: routes are
    matched in order on every request)."""
    router = api_router(PREFIX, ["Game sessions"])
    titles = " or ".join(kind.face.title for kind in shapes.kinds)
    examples = AnswerExamples.of(shapes)
    token_and_game = {**params.PLAYER_TOKEN.openapi, "parameters": [params.GAME_ID.openapi]}
    router.post(
        "/{game_id}/moves",
        status_code=201,
        summary="Make a move",
        description="The token says who moves; `player`, if sent, must agree (else 403 "
        "`wrong_player`). A move is a body of a shape the game's kind takes (a cell's `row` "
        "and `col`, or its `square` name instead — `f5`, where the board has at most 26 "
        "columns: Reversi counts rows from the top, tic-tac-toe and gomoku from the bottom; a "
        'gomoku game also takes `{"pass": true}`, renju\'s only; another shape, '
        "both, or a square the board does not have is 422 `validation_error`). The move "
        "record carries the cell's `square` where the board has names. Tic-tac-toe moves are "
        "adjudicated in O(1) whatever n and k; a Reversi move must bracket (else 409 "
        "`illegal_move`), its record carries the `flips` and whether the opponent had to pass "
        "(`passed`: the mover moves again); a renju Black move on a forbidden point is 409 "
        "`forbidden_move` with the shapes that make it so (or, with `foul` `lose`, accepted and "
        "lost). `winner` is 0 while nobody has won. A refused move "
        "changes nothing. Retry-safe with `Idempotency-Key`; optimistic concurrency with "
        "`If-Match`.",
        response_model=shapes.move_result,
        responses={
            201: {
                **_move_made("The move's URL."),
                "links": MOVE_LINKS,
                **answer_examples(examples.move),
            },
            **store_errors(*MOVE_REFUSALS, *shapes.refusals),
        },
        openapi_extra=acting(shapes.move.body),
    )(make_move)
    if shapes.choice is not None:
        router.post(
            "/{game_id}/choice",
            status_code=201,
            summary="Make a choice (a swap2 opening's)",
            description="A choice an opening rule asks of the player who acts now (the state's "
            "`opening`: its `step` and `to_act`): in a gomoku game with a swap2 opening, "
            'player 2, after the first three stones, sends `{"color": "B"}`, `{"color": '
            '"W"}` or `{"place_two": true}`; after two more stones player 1 sends a colour. '
            "The chooser plays the colour chosen and the other player the other one; White "
            "moves next. A choice is the game's next move: answered as a move is (its record "
            '`{"seq", "choice": "color" | "place_two", "player", "color"}`, `Location`, '
            "events, receipts). The other player is 409 `not_your_turn`; a choice out of step "
            "(stones are due, the colours are fixed, `place_two` after two more stones, a "
            "kind with no choices) is 409 `wrong_step`. Retry-safe with `Idempotency-Key`; "
            "conditional with `If-Match`. A refusal changes nothing.",
            response_model=shapes.move_result,
            responses={
                201: _move_made("The choice's move URL."),
                **store_errors(*MOVE_REFUSALS, NOT_YOUR_TURN, WrongStep),
            },
            openapi_extra=acting(shapes.choice.body),
        )(make_choice)
    router.get(
        "/{game_id}",
        summary="Get a game's state (cheap polling with ETag)",
        description="The state carries an `ETag`; send it back in `If-None-Match` and an "
        "unchanged game answers 304 with no body. Anyone who knows a public game's id reads "
        "it; a private game (`visibility` `private`) is read only with a player's or a "
        "spectator's token (else 401), as are its moves, legal moves, board, events and "
        "record.",
        response_model=shapes.game,
        responses={
            200: {
                "headers": {"ETag": header("Changes with every change of the game.")},
                **answer_examples(examples.state),
            },
            304: {"description": "Unchanged since the ETag in `If-None-Match`."},
            **store_errors(Unauthorized, GameNotFound),
        },
        openapi_extra={
            **params.VIEWER_TOKEN.openapi,
            "parameters": [params.GAME_ID.openapi, params.IF_NONE_MATCH.openapi],
        },
    )(get_game)
    router.post(
        "",
        status_code=201,
        summary="Create a game",
        description=f"Creates a game of the kind named by `game` ({titles}: "
        f"{', '.join(f'`{name}`' for name in shapes.kinds.names)}"
        "): n × n tic-tac-toe with k in a row (without `game`: k = n), Reversi (8 × 8, other "
        "even sizes, or a posted position), or gomoku (`rule` freestyle, standard, renju or "
        "caro; `size`; renju's `foul`; an opening of `stones`, or `swap2`), with clocks if "
        "`clock` is given (Fischer timing; neither runs until each player has moved once, "
        "but a swap2 game's run from its first stone). Player 1 "
        "plays X or Black and moves first (on a posted Reversi board: `next`). The answer "
        "holds both players' bearer tokens — shown only here; hand token 2 to the other "
        "player. With a player's key (`POST /v1/players`) as the bearer token, the creator's "
        "seat is the player's (`players`, named by the player): its token in the answer acts "
        "for it, and so does the key; 401 for a key of no player. `rated: true` (open games "
        "made with a key) rates the result in the state's `pool`. Answers 503 "
        "`capacity_exhausted` with `Retry-After` when the store is full, and 429 "
        "`rate_limited` when one address creates games too fast.",
        response_model=shapes.created,
        responses={
            201: {
                "headers": {
                    "Location": header("The game's URL."),
                    "ETag": header("Its ETag."),
                    "Cache-Control": header("`no-store`: the answer holds the players' tokens."),
                },
                "links": CREATED_GAME_LINKS,
                **answer_examples(examples.created),
            },
            **store_errors(*BODY_ERRORS, CapacityExhausted, Unauthorized),
        },
        openapi_extra=resend(
            Resend.UNSENT, {**shapes.create.openapi, **PLAYER_KEY_IF_SENT.openapi}
        ),
    )(create_game)
    join_out = typed_dict(
        "JoinOut",
        {
            "player": Annotated[Player, Field(description="The seat taken.")],
            "token": Annotated[
                str, Field(description="Its bearer token, shown only in this answer.")
            ],
            "state": Annotated[shapes.game, Field(description="The game after the join.")],
        },
    )
    router.post(
        "/{game_id}/join",
        summary="Join an open game",
        description="Takes the open seat of a game created with `open` (no token needed: the "
        "answer holds the new seat's token, shown only here, and the game after it). One of "
        "any number of racing joins wins; the others, and any join of a game without a free "
        "seat, are 409 `seat_taken`. A join sent with an `Idempotency-Key` is answered again "
        "with the same seat and token when the same client retries it (`Idempotent-Replayed: "
        "true`): the key is bound to the client that sent it (its address, an IPv6 address's "
        "/64; behind the operator's trusted proxies, the address they forward), so the same key "
        "from another client is another join, 409 `seat_taken` once the seat is taken. The "
        "game's streams get `event: join`; the game leaves the lobby. The body may name the "
        'seat (`{"name": "Bo"}`, 1 to 64 characters, no control character): states and '
        "records call the seat so; without it, the seat keeps the name its creator gave it. "
        "With a player's key as the bearer token, the seat is the player's, called by the "
        "player's name (the answer's token and the key both act for it); a player never takes "
        "both seats of a game (409 `seat_taken`), and a rated game's seat is taken only so "
        "(401 without a key).",
        response_model=join_out,
        responses={
            200: {"headers": {"ETag": header("The game's new ETag.")}},
            **store_errors(GameNotFound, SeatTaken, Unauthorized, VALIDATION_ERROR, RATE_LIMITED),
        },
        openapi_extra={
            **JOIN_BODY.openapi,
            **PLAYER_KEY_IF_SENT.openapi,
            "parameters": [params.GAME_ID.openapi, params.IDEMPOTENCY_KEY.openapi],
        },
    )(join_game)
    router.post(
        "/{game_id}/spectators",
        status_code=201,
        summary="Make a spectator token",
        description='A player\'s token makes a read-only token for the game: `{"token": '
        "str}`, shown only here (the service keeps its hash). It reads the game — the only way "
        "for anyone but the players to read a private one — and never acts (a move or action "
        "sent with it is 403 `wrong_player`). A game issues at most `game_spectators` of them "
        "(409 `too_many_spectators`); they count against the address's game-creation rate.",
        response_model=typed_dict(
            "SpectatorOut",
            {"token": Annotated[str, Field(description="The spectator's bearer token.")]},
        ),
        responses={
            201: {"headers": {"Cache-Control": header("`no-store`: the answer holds a token.")}},
            **store_errors(
                Unauthorized, WrongPlayer, GameNotFound, TooManySpectators, RATE_LIMITED
            ),
        },
        openapi_extra=resend(Resend.UNSENT, token_and_game),
    )(add_spectator)
    rematch_out = typed_dict(
        "RematchOut",
        {
            "rematch": Annotated[
                typed_dict(
                    "RematchSeat",
                    {
                        "id": Annotated[str, Field(description="The rematch's game id.")],
                        "player": Annotated[
                            Player, Field(description="The caller's seat in it (the other one).")
                        ],
                        "token": Annotated[
                            str, Field(description="The caller's token in it, for it alone.")
                        ],
                    },
                )
                | None,
                Field(description="null while only the caller's offer stands."),
            ],
            "state": Annotated[shapes.game, Field(description="This game's state.")],
        },
    )
    router.post(
        "/{game_id}/rematch",
        summary="Offer (or accept) a rematch",
        description="After the end, a player's offer of another game: it stands "
        "(`rematch_offer`) and the answer's `rematch` is null. When the other player offers "
        "too, the rematch is made — once, however the two offers race — with the same "
        "creation parameters (kind, rules, clocks, opening, terms) and the seats swapped "
        "(colours swapped: player 1 here is player 2 there), and the state shows its id "
        "(`rematch`). Each player's call then answers its own seat and token in it, and only "
        "its own: the player who offered first calls again to get its token. Each offer and "
        "the making are changes of this game (`version`). While the game goes on: 409 "
        "`game_not_over`; in a game created with `rules.rematch` false: 409 "
        "`action_not_allowed`. Counts against the address's game-creation rate.",
        response_model=rematch_out,
        responses={
            200: {
                "headers": {
                    "ETag": header("This game's new ETag."),
                    "Cache-Control": header("`no-store`: the answer may hold a token."),
                }
            },
            **store_errors(
                Unauthorized,
                WrongPlayer,
                GameNotFound,
                ActionNotAllowed,
                GameNotOver,
                CapacityExhausted,
                RATE_LIMITED,
            ),
        },
        openapi_extra=resend(Resend.ALWAYS, token_and_game),
    )(rematch)
    lobby_out = typed_dict(
        "OpenGamesOut",
        {
            "games": Annotated[
                list[shapes.game],  # type: ignore[name-defined]
                Field(description="Open games' states (`open_seat` set), oldest first."),
            ],
            "next_cursor": Annotated[
                str | None,
                Field(description="Send as `cursor` for the next page; null: no more."),
            ],
        },
    )
    router.get(
        "",
        summary="List the open games (the lobby)",
        description="Open public games waiting for a second player, oldest first, a page at a "
        "time (`limit`, at most 100; `cursor`: the previous page's `next_cursor`), of one kind "
        "(`game`) and one of its rules (`rule`) if asked. A game leaves the list when its seat "
        "is taken, it ends or it goes. Each listed game counts as a read against the client's "
        "history limit (429 `rate_limited` past it).",
        response_model=lobby_out,
        responses={200: {}, **store_errors(VALIDATION_ERROR, RATE_LIMITED)},
        openapi_extra={
            "parameters": [
                params.OPEN_ONLY.openapi,
                params.GAME_FILTER.openapi,
                params.RULE_FILTER.openapi,
                params.LOBBY_LIMIT.openapi,
                params.CURSOR.openapi,
            ]
        },
    )(list_games)
    action_routes(router, shapes, examples)
    router.get(
        "/{game_id}/events",
        summary="Push: a stream of the game's changes (Server-Sent Events)",
        description="A `join` event when an open game's seat is taken (`data` = the state), "
        "one `move` event per accepted move (`data` = the move's answer as "
        "`POST …/moves` gave it), an `offer` event when a draw offer stands (`data` = the "
        "state), a `takeback` event when a takeback offer stands or is accepted (`data` = the "
        "state right after it: the moves after its `move_count` are gone, and the `move` events "
        "that follow replace them), a `clock` event when time was given (`data` = the state), an "
        "`abort` event when the game is aborted, then one `end` "
        "event (data: the final state) when the game is over — a flag fall or a first move's "
        "deadline included, at the instant it passes — and, on a stream opened after the end, a "
        "`rematch` event (data: the state) once a rematch was offered or made. Each event's "
        "`id` is the game's version after it: resume with `Last-Event-ID` (sent by browsers' "
        "EventSource on reconnect) or `?since=V`. A change made through any process reaches "
        "every stream. Polling with `If-None-Match` remains the baseline every client can use.",
        response_class=EventSourceResponse,
        responses={
            200: {
                "content": event_stream(),
                "description": "An endless stream until the game ends or is deleted: `move` "
                "events, then one `end` event; an `error` event (data: the problem) ends it if "
                "the store stops answering. Its first bytes carry a `retry:` field (how long an "
                f"EventSource waits before reconnecting); {keep_alives_in_words()}.",
            },
            204: {
                "description": "Resumed at or past the game's end (`Last-Event-ID` or `since` "
                "at its final version): there is nothing more to send. An EventSource stops "
                "reconnecting on a 204.",
            },
            **store_errors(Unauthorized, GameNotFound, VALIDATION_ERROR, TooManyStreams),
        },
        openapi_extra={
            **params.VIEWER_TOKEN.openapi,
            "parameters": [
                params.GAME_ID.openapi,
                params.SINCE_VERSION.openapi,
                params.LAST_EVENT_ID.openapi,
            ],
        },
    )(game_events)
    router.get(
        "/{game_id}/moves",
        summary="Moves after a move seq (deltas for polling clients)",
        description="Accepted moves with `seq > since`, in order, at most `limit` (fewer than "
        "there are only at the end of the moves, or when the client's share of moves read ran "
        "out during the read). Pass the last move's `seq` as the next `since` (the `version` is "
        "the move count too, unless draw offers or an ending were changes of the game).",
        response_model=shapes.moves_page,
        responses={
            200: answer_examples(examples.moves),
            **store_errors(Unauthorized, GameNotFound, VALIDATION_ERROR, RATE_LIMITED),
        },
        openapi_extra={
            **params.VIEWER_TOKEN.openapi,
            "parameters": [params.GAME_ID.openapi, params.SINCE.openapi, params.LIMIT.openapi],
        },
    )(list_moves)
    router.get(
        "/{game_id}/moves/{seq}",
        summary="One move",
        description="The move a move's `Location` points to.",
        response_model=shapes.record,
        responses={
            200: answer_examples(examples.record),
            **store_errors(Unauthorized, GameNotFound, MoveNotFound, VALIDATION_ERROR),
        },
        openapi_extra={
            **params.VIEWER_TOKEN.openapi,
            "parameters": [params.GAME_ID.openapi, params.SEQ.openapi],
        },
    )(get_move)
    router.get(
        "/{game_id}/legal-moves",
        summary="The moves the player to move may make now, a page at a time",
        description="Every legal move of the player to move (`player`), in row-major order "
        "of their cells, in the kind's shape: a tic-tac-toe move is a cell (`row`, `col`, and "
        "`square` where the board has names: every empty cell; gomoku's too, but Black's "
        "renju forbidden points), a Reversi move adds the "
        "`flips` it would make (and their `flip_squares`; a live Reversi "
        "game's player to move always has one: passes are never listed, they happen by "
        "themselves). Once the game is over, however it ended, `player` is null and there are "
        "none. `count` is how many there are in all; a page lists at most `limit` of them, "
        "those whose cell comes after `after` (a cell index, `row × width + col`); "
        "`next_after` is the `after` of the next page, null on the last. A page costs what it "
        "lists and the occupied cells it skips, never the board: a 1,000,000 × 1,000,000 "
        "board's first page is its first row's first cells. Carries the game's `ETag` (the "
        "state's, at the same version); send it back in `If-None-Match` and an unchanged "
        "game answers 304 with no body. A public game's are read by anyone, a private game's with "
        "a player's or a spectator's token. The CPU time a page takes (a renju position's "
        "forbidden points, milliseconds) is charged to the reader's share, as a body's parsing "
        "is: 429 `rate_limited` once it is used.",
        response_model=shapes.legal_moves,
        responses={
            200: {
                "headers": {
                    "ETag": header("The game's ETag: changes with every change of the game."),
                    "Cache-Control": header("`no-cache`: ask again with `If-None-Match`."),
                }
            },
            304: {"description": "Unchanged since the ETag in `If-None-Match`."},
            **store_errors(Unauthorized, GameNotFound, VALIDATION_ERROR, RATE_LIMITED),
        },
        openapi_extra={
            **params.VIEWER_TOKEN.openapi,
            "parameters": [
                params.GAME_ID.openapi,
                params.AFTER_CELL.openapi,
                params.LEGAL_LIMIT.openapi,
                params.IF_NONE_MATCH.openapi,
            ],
        },
    )(list_legal_moves)
    router.get(
        "/{game_id}/board",
        summary=f"The board as text (n ≤ {MAX_RENDERED_SIDE})",
        description="Rows of `X`, `O`, `.` (tic-tac-toe) or `B`, `W`, `.` (gomoku; Reversi, always "
        "rendered: at most 32 × 32). Larger tic-tac-toe and gomoku boards answer 422 "
        "`board_too_large`: "
        "follow the moves instead. Its CPU time (with Redis, the game's moves replayed) is "
        "charged to the reader's share: 429 `rate_limited` once it is used.",
        response_model=shapes.board,
        responses={
            200: answer_examples(examples.board),
            **store_errors(Unauthorized, GameNotFound, BoardTooLarge, RATE_LIMITED),
        },
        openapi_extra={**params.VIEWER_TOKEN.openapi, "parameters": [params.GAME_ID.openapi]},
    )(get_board)
    router.delete(
        "/{game_id}",
        status_code=204,
        summary="Delete a game",
        description="Either player's token. Afterwards the game is 404. A finished game is "
        "archived first (`GET /v1/archive/games/{id}` still reads it): while the archive "
        "cannot take it, 503 `store_unavailable` and nothing is deleted.",
        responses=store_errors(Unauthorized, GameNotFound, RATE_LIMITED),
        openapi_extra=resend(Resend.UNSENT, token_and_game),
    )(delete_game)
    return router
