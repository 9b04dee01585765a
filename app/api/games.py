"""Live n × n tic-tac-toe sessions: create, poll (ETag / 304, deltas), move, board, delete."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.sse import EventSourceResponse, format_sse_event
from pydantic import BaseModel, Field
from pydantic_core import to_json

from app.api.bodies import INTEGRAL, JsonBody, JsonInt, json_response
from app.api.docs import BODY_ERRORS, problem_responses
from app.api.routing import DirectRoute
from app.rules.lines import Player
from app.sessions.errors import BoardTooLarge, GameNotFound, Unauthorized
from app.sessions.game import GameState, Move, MoveResult, result_at
from app.sessions.store import GameStore

router = APIRouter(prefix="/v1/games", tags=["Game sessions"], route_class=DirectRoute)

MAX_RENDERED_SIDE = 100

# The game id of the two hot routes (move, poll) is read from ``request.path_params``: a declared
# path parameter costs FastAPI's parameter solving on every request (~7 µs of a ~58 µs move,
# measured in-process), so it is declared for the docs only.
GAME_ID: dict[str, Any] = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "The game's id, from `POST /v1/games`.",
}

IDEMPOTENCY_KEY: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Any client-chosen string (1–255 visible ASCII characters). A retry with the "
    "same key and body gets the first answer again (header `Idempotent-Replayed: true`) and "
    "applies nothing; the same key with another body is 422 `idempotency_key_reused`. Keys "
    "live as long as the game.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"},
}
IF_MATCH: dict[str, Any] = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "The game's `ETag`: the move applies only if the game is still at that "
    "version, else 412 `precondition_failed`.",
    "schema": {"type": "string"},
}
KEY_CHARACTERS = frozenset(chr(c) for c in range(0x21, 0x7F))


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get("idempotency-key")
    if key is None:
        return None
    if not (1 <= len(key) <= 255) or not KEY_CHARACTERS.issuperset(key):
        raise RequestValidationError([{
            "loc": ("header", "Idempotency-Key"), "type": "idempotency_key",
            "msg": "must be 1 to 255 visible ASCII characters",
        }])  # fmt: skip
    return key


def expected_version(request: Request, game_id: str) -> int | None:
    """The version an ``If-Match`` header asks for: None without one (or ``*``); -1, which no
    game has, when it names no version of this game (a weak or foreign tag never matches)."""
    header = request.headers.get("if-match")
    if header is None:
        return None
    prefix = f'"{game_id}.'
    for tag in (part.strip() for part in header.split(",")):
        if tag == "*":
            return None
        if tag.startswith(prefix) and tag.endswith('"') and tag[len(prefix) : -1].isdigit():
            return int(tag[len(prefix) : -1])
    return -1


# The bearer scheme, declared in OpenAPI (see docs.SECURITY_SCHEMES) so that the docs'
# "Authorize" button works; the token itself is read here, without a dependency per request.
PLAYER_TOKEN: dict[str, Any] = {"security": [{"PlayerToken": []}]}


# OpenAPI links: how an answer's values feed the next request, so that clients, docs and
# stateful fuzzers (schemathesis) can follow a game from its creation through its moves.
OPERATION_IDS = {
    "get_game": "get_game_v1_games__game_id__get",
    "make_move": "make_move_v1_games__game_id__moves_post",
    "list_moves": "list_moves_v1_games__game_id__moves_get",
    "get_move": "get_move_v1_games__game_id__moves__seq__get",
    "get_board": "get_board_v1_games__game_id__board_get",
    "game_events": "game_events_v1_games__game_id__events_get",
    "delete_game": "delete_game_v1_games__game_id__delete",
}


def _link(
    operation: str, description: str, parameters: dict[str, str], body: Any = None
) -> dict[str, Any]:
    link: dict[str, Any] = {
        "operationId": OPERATION_IDS[operation],
        "description": description,
        "parameters": parameters,
    }
    if body is not None:
        link["requestBody"] = body
    return link


OPENING = {"row": 0, "col": 0}
GAME_OF_CREATED = {"path.game_id": "$response.body#/id"}
GAME_OF_MOVE = {"path.game_id": "$request.path.game_id"}
CREATED_GAME_LINKS = {
    "GetGame": _link("get_game", "Poll the new game.", GAME_OF_CREATED),
    "GetGameIfChanged": _link(
        "get_game",
        "Poll with the ETag: 304 until a move is made.",
        {**GAME_OF_CREATED, "header.If-None-Match": "$response.header.ETag"},
    ),
    "MoveAsPlayer1": _link(
        "make_move",
        "Player 1 (X) moves first, with token 1: the corner is open on every board.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
        OPENING,
    ),
    "MoveAsPlayer1IfUnchanged": _link(
        "make_move",
        "Player 1's move, applied only while the game is still at this ETag.",
        {
            **GAME_OF_CREATED,
            "header.Authorization": "Bearer {$response.body#/tokens/1}",
            "header.If-Match": "$response.header.ETag",
        },
        OPENING,
    ),
    "MoveAsPlayer2": _link(
        "make_move",
        "Player 2 (O), with token 2: 409 `not_your_turn` before player 1 has moved.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/2}"},
    ),
    "ListMoves": _link("list_moves", "The moves so far.", GAME_OF_CREATED),
    "GetBoard": _link("get_board", "The board as text.", GAME_OF_CREATED),
    "Events": _link("game_events", "Follow the game's moves as they happen.", GAME_OF_CREATED),
    "DeleteGame": _link(
        "delete_game",
        "Either player's token deletes the game.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/2}"},
    ),
}
MOVE_LINKS = {
    "GetMove": _link(
        "get_move",
        "The move just made (its `Location`).",
        {**GAME_OF_MOVE, "path.seq": "$response.body#/move/seq"},
    ),
    "GetGameIfChanged": _link(
        "get_game",
        "Poll with the new ETag: 304 until the next move.",
        {**GAME_OF_MOVE, "header.If-None-Match": "$response.header.ETag"},
    ),
    "MovesSince": _link(
        "list_moves",
        "The moves after this one (none until the next move).",
        {**GAME_OF_MOVE, "query.since": "$response.body#/move/seq"},
    ),
    "EventsSince": _link(
        "game_events",
        "Follow the moves after this one.",
        {**GAME_OF_MOVE, "header.Last-Event-ID": "$response.body#/move/seq"},
    ),
}


STORE_DOWN = "`store_unavailable`: the game store does not answer (Redis store); retry later."


def store_errors(*statuses: int, **descriptions: str) -> dict[int | str, dict[str, Any]]:
    """``problem_responses`` for a route that reads or writes the game store: it may also answer
    503 ``store_unavailable``."""
    return problem_responses(*statuses, 503, **{"s503": STORE_DOWN, **descriptions})


def store_of(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def bearer_token(request: Request) -> str:
    """The token of ``Authorization: Bearer <token>``, or Unauthorized."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized()
    return token


class MoveOut(BaseModel):
    seq: int = Field(description="1 for the first move; equals the game's version after it.")
    row: int
    col: int
    player: Literal[1, 2]


class GameOut(BaseModel):
    id: str
    n: int
    status: Literal["in_progress", "won", "draw"]
    winner: Literal[0, 1, 2] = Field(description="0 while nobody has won.")
    next_player: Literal[1, 2] | None = Field(description="null once the game is over.")
    version: int = Field(description="0 at creation, +1 per accepted move.")
    move_count: int
    last_move: MoveOut | None


class Tokens(BaseModel):
    player_1: str = Field(alias="1")
    player_2: str = Field(alias="2")


class CreatedGameOut(GameOut):
    tokens: Tokens = Field(description="Each player's bearer token. Shown only in this answer.")


class CreateGameIn(BaseModel):
    n: JsonInt = Field(ge=1, le=1_000_000, description="Board side; n in a row wins.")


class MoveIn(BaseModel):
    row: JsonInt = Field(description="0 … n−1; outside is 422 `out_of_bounds`.")
    col: JsonInt = Field(description="0 … n−1; outside is 422 `out_of_bounds`.")
    player: Annotated[int, Field(strict=True, ge=1, le=2), INTEGRAL] | None = Field(
        None, description="Optional; must be the token's player (else 403)."
    )


class MoveResultOut(BaseModel):
    winner: Literal[0, 1, 2] = Field(description="0 while nobody has won, else the winner.")
    move: MoveOut
    state: GameOut


class MovesPage(BaseModel):
    moves: list[MoveOut]
    version: int = Field(description="The game's version now; pass it as `since` next time.")


class BoardOut(BaseModel):
    n: int
    rows: list[str] = Field(description="`X` (player 1), `O` (player 2), `.` empty.")


CREATE_BODY = JsonBody(CreateGameIn, {"classic": {"summary": "Classic 3 × 3", "value": {"n": 3}}})
MOVE_BODY = JsonBody(
    MoveIn, {"centre": {"summary": "Centre of a 3 × 3 board", "value": {"row": 1, "col": 1}}}
)


def state_json(state: GameState) -> dict[str, Any]:
    last = state.last_move
    return {
        "id": state.id,
        "n": state.n,
        "status": state.status,
        "winner": state.winner,
        "next_player": state.next_player,
        "version": state.version,
        "move_count": state.move_count,
        "last_move": move_json(last) if last else None,
    }


def move_json(move: Move) -> dict[str, int]:
    return {"seq": move.seq, "row": move.row, "col": move.col, "player": move.player}


def move_result_json(result: MoveResult) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "move": move_json(result.move),
        "state": state_json(result.state),
    }


def etag(state: GameState) -> str:
    return f'"{state.id}.{state.version}"'


def _etag_matches(header: str | None, current: str) -> bool:
    if not header:
        return False
    candidates = {part.strip().removeprefix("W/") for part in header.split(",")}
    return "*" in candidates or current in candidates


def _game_path(game_id: str) -> str:
    return f"{router.prefix}/{game_id}"


# Hot routes first: routes are matched in order on every request.
@router.post(
    "/{game_id}/moves",
    status_code=201,
    summary="Make a move",
    description="The token says who moves; `player`, if sent, must agree (else 403 "
    "`wrong_player`). Adjudicated in O(1). `winner` is 0 while nobody has won. A refused move "
    "changes nothing: 422 `out_of_bounds`; 409 `not_your_turn`, `cell_occupied`, `game_over`. "
    "Retry-safe with `Idempotency-Key`; optimistic concurrency with `If-Match`.",
    response_model=MoveResultOut,
    responses={
        201: {
            "headers": {
                "Location": {"description": "The move's URL.", "schema": {"type": "string"}}
            },
            "links": MOVE_LINKS,
        },
        **store_errors(
            401,
            403,
            404,
            409,
            412,
            *BODY_ERRORS,
            s404="`game_not_found`.",
            s409="`not_your_turn`, `cell_occupied` or `game_over`.",
            s412="`precondition_failed`: `If-Match` names an earlier version of the game.",
            s422="`out_of_bounds` (row/col outside 0 … n−1) or `validation_error`.",
        ),
    },
    openapi_extra={
        **MOVE_BODY.openapi,
        **PLAYER_TOKEN,
        "parameters": [GAME_ID, IDEMPOTENCY_KEY, IF_MATCH],
    },
)
async def make_move(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    token = bearer_token(request)
    key = idempotency_key(request)
    body = await MOVE_BODY.parse(request)
    player = cast(Player | None, body.player)  # the schema admits only 1, 2 or null
    result = await store_of(request).play(
        game_id,
        token,
        body.row,
        body.col,
        player,
        expected_version=expected_version(request, game_id),
        idempotency_key=key,
    )
    headers = {
        "Location": f"{_game_path(game_id)}/moves/{result.move.seq}",
        "ETag": etag(result.state),
    }
    if result.replayed:
        headers["Idempotent-Replayed"] = "true"
    else:
        request.app.state.metrics.moves.inc()
    return json_response(move_result_json(result), 201, headers)


@router.get(
    "/{game_id}",
    summary="Get a game's state (cheap polling with ETag)",
    description="The state carries an `ETag`; send it back in `If-None-Match` and an unchanged "
    "game answers 304 with no body.",
    response_model=GameOut,
    responses={
        200: {
            "headers": {
                "ETag": {
                    "description": "Changes with every accepted move.",
                    "schema": {"type": "string"},
                }
            }
        },
        304: {"description": "Unchanged since the ETag in `If-None-Match`."},
        **store_errors(404, s404="`game_not_found`."),
    },
    openapi_extra={
        "parameters": [
            GAME_ID,
            {
                "name": "If-None-Match",
                "in": "header",
                "required": False,
                "description": "An ETag from an earlier answer: 304 while the game is unchanged.",
                "schema": {"type": "string"},
            },
        ]
    },
)
async def get_game(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    state = await store_of(request).state(game_id)
    tag = etag(state)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if _etag_matches(request.headers.get("if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    return json_response(state_json(state), headers=headers)


@router.post(
    "",
    status_code=201,
    summary="Create a game",
    description="Creates an n × n game (n in a row wins). Player 1 plays X and moves first. "
    "The answer holds both players' bearer tokens — shown only here; hand token 2 to the "
    "other player. Answers 503 `capacity_exhausted` with `Retry-After` when the store is full, "
    "and 429 `rate_limited` when one address creates games too fast.",
    response_model=CreatedGameOut,
    responses={
        201: {
            "headers": {
                "Location": {"description": "The game's URL.", "schema": {"type": "string"}}
            },
            "links": CREATED_GAME_LINKS,
        },
        **problem_responses(
            *BODY_ERRORS,
            429,
            503,
            s429="`rate_limited`: too many games from this address (see `Retry-After`).",
            s503="`capacity_exhausted` (see `Retry-After`) or " + STORE_DOWN,
        ),
    },
    openapi_extra=CREATE_BODY.openapi,
)
async def create_game(request: Request) -> Response:
    client = request.client.host if request.client else "unknown"
    request.app.state.creation_limiter.take(client)
    body = await CREATE_BODY.parse(request)
    limit = request.app.state.settings.max_n
    if body.n > limit:
        raise RequestValidationError(
            [{"loc": ("body", "n"), "msg": f"n must be at most {limit}", "type": "less_than_equal"}]
        )
    created = await store_of(request).create(body.n)
    answer = state_json(created.state)
    answer["tokens"] = {"1": created.tokens[0], "2": created.tokens[1]}
    headers = {"Location": _game_path(created.state.id), "ETag": etag(created.state)}
    return json_response(answer, 201, headers)


WAIT_SECONDS = 15.0  # a stream re-reads the game at least this often, and sends a keep-alive


def _resume_point(request: Request) -> int:
    """Where a stream starts: after ``Last-Event-ID`` (a reconnecting EventSource), else after
    ``since``. Both are validated whenever sent, even when ``Last-Event-ID`` wins."""
    points = []
    for where, name, value in (
        ("header", "Last-Event-ID", request.headers.get("last-event-id")),
        ("query", "since", request.query_params.get("since")),
    ):
        if value:  # absent or empty: no resume point from here
            if not value.isdigit() or len(value) > 18:
                raise RequestValidationError([{
                    "loc": (where, name), "type": "int_parsing",
                    "msg": "must be a move number (a non-negative integer)",
                }])  # fmt: skip
            points.append(int(value))
    return points[0] if points else 0


async def _move_events(
    store: GameStore, game_id: str, after: int, disconnected: Callable[[], Awaitable[bool]]
) -> AsyncIterator[bytes]:
    sent = after
    idle = False  # the last wait brought nothing: the next empty read sends a keep-alive
    while not await disconnected():
        try:
            moves, _ = await store.moves(game_id, sent, 1000)
            now = await store.state(game_id)
        except GameNotFound:
            return  # deleted or expired: the stream ends
        for move in moves:
            answer = result_at(game_id, now.n, move, now)
            data = to_json(move_result_json(answer)).decode()
            yield format_sse_event(data_str=data, event="move", id=str(move.seq))
            sent = move.seq
        if now.status != "in_progress" and sent >= now.version:
            yield format_sse_event(data_str=to_json(state_json(now)).decode(), event="end")
            return
        if moves:
            idle = False
            continue
        if idle:
            yield format_sse_event(comment="keep-alive")
        await store.wait_for_change(game_id, sent, WAIT_SECONDS)
        idle = True


def _json_data(model: str) -> dict[str, Any]:
    return {
        "type": "string",
        "contentMediaType": "application/json",
        "contentSchema": {"$ref": f"#/components/schemas/{model}"},
    }


# One event of the stream, as OpenAPI 3.1 tools read `schema` of `text/event-stream` (3.2 would
# call it `itemSchema`): its fields, with `data` a JSON document of the given schema.
EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",  # also replaces the `"type": "string"` FastAPI gives a streamed body
    "oneOf": [
        {
            "title": "MoveEvent",
            "type": "object",
            "properties": {
                "event": {"const": "move"},
                "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The move's seq."},
                "data": _json_data("MoveResultOut"),
            },
            "required": ["event", "id", "data"],
        },
        {
            "title": "EndEvent",
            "type": "object",
            "properties": {"event": {"const": "end"}, "data": _json_data("GameOut")},
            "required": ["event", "data"],
        },
    ],
}


@router.get(
    "/{game_id}/events",
    summary="Push: a stream of the game's moves (Server-Sent Events)",
    description="One `move` event per accepted move (`id` = its number, `data` = the move's "
    "answer as `POST …/moves` gave it), then one `end` event (data: the final state) when the "
    "game is over. Resume with `Last-Event-ID` (sent by browsers' EventSource on reconnect) "
    "or `?since=V`. A move made through any process reaches every stream. Polling with "
    "`If-None-Match` remains the baseline every client can use.",
    response_class=EventSourceResponse,
    responses={
        200: {"content": {"text/event-stream": {"schema": EVENT_SCHEMA}},
              "description": "An endless stream until the game ends or is deleted: `move` "
              "events, then one `end` event. Lines starting with `:` are keep-alives."},
        **store_errors(404, 422, s404="`game_not_found`."),
    },
    openapi_extra={"parameters": [
        GAME_ID,
        {"name": "since", "in": "query", "required": False,
         "description": "Start after this move number (default 0: from the first move).",
         "schema": {"type": "integer", "minimum": 0}},
        {"name": "Last-Event-ID", "in": "header", "required": False,
         "description": "The last event id received: resume after it (wins over `since`).",
         "schema": {"type": "string", "pattern": "^[0-9]{0,18}$"}},
    ]},
)  # fmt: skip
async def game_events(request: Request) -> EventSourceResponse:
    game_id = request.path_params["game_id"]
    after = _resume_point(request)
    store = store_of(request)
    await store.state(game_id)  # 404 as a problem, before the stream starts
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return EventSourceResponse(
        _move_events(store, game_id, after, request.is_disconnected), headers=headers
    )


@router.get(
    "/{game_id}/moves",
    summary="Moves since a version (deltas for polling clients)",
    description="Accepted moves with `seq > since`, in order, at most `limit`. Pass the "
    "returned `version` as the next `since`.",
    response_model=MovesPage,
    responses=store_errors(404, 422, s404="`game_not_found`."),
)
async def list_moves(
    game_id: str,
    request: Request,
    since: Annotated[int, Query(ge=0, description="Last version seen (default 0).")] = 0,
    limit: Annotated[int, Query(ge=1, le=10_000, description="At most this many.")] = 1000,
) -> Response:
    moves, version = await store_of(request).moves(game_id, since, limit)
    return json_response({"moves": [move_json(m) for m in moves], "version": version})


@router.get(
    "/{game_id}/moves/{seq}",
    summary="One move",
    description="The move a move's `Location` points to.",
    response_model=MoveOut,
    responses=store_errors(404, 422, s404="`game_not_found` or `move_not_found`."),
)
async def get_move(game_id: str, seq: int, request: Request) -> Response:
    return json_response(move_json(await store_of(request).move(game_id, seq)))


@router.get(
    "/{game_id}/board",
    summary="The board as text (n ≤ 100)",
    description="Rows of `X`, `O`, `.`. Larger boards answer 422 `board_too_large`: follow "
    "the moves instead.",
    response_model=BoardOut,
    responses=store_errors(404, 422, s404="`game_not_found`.", s422="`board_too_large`."),
)
async def get_board(game_id: str, request: Request) -> Response:
    store = store_of(request)
    state = await store.state(game_id)
    if state.n > MAX_RENDERED_SIDE:
        raise BoardTooLarge(state.n, MAX_RENDERED_SIDE)
    return json_response({"n": state.n, "rows": await store.rows(game_id)})


@router.delete(
    "/{game_id}",
    status_code=204,
    summary="Delete a game",
    description="Either player's token. Afterwards the game is 404.",
    responses=store_errors(401, 404, s404="`game_not_found`."),
    openapi_extra=PLAYER_TOKEN,
)
async def delete_game(game_id: str, request: Request) -> Response:
    await store_of(request).delete(game_id, bearer_token(request))
    return Response(status_code=204)
