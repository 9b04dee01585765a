"""Live n × n tic-tac-toe sessions: create, poll (ETag / 304, deltas), move, board, delete."""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from app.api.docs import BODY_ERRORS, problem_responses
from app.rules.lines import Player
from app.sessions.errors import BoardTooLarge, Unauthorized
from app.sessions.game import GameState, Move
from app.sessions.store import GameStore
from app.settings import Settings

router = APIRouter(prefix="/v1/games", tags=["Game sessions"])

MAX_RENDERED_SIDE = 100
bearer = HTTPBearer(
    auto_error=False,
    scheme_name="PlayerToken",
    description="A player's token, as returned once by `POST /v1/games` in `tokens`.",
)
StrictInt = Annotated[int, Field(strict=True)]


def get_store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str:
    if credentials is None:
        raise Unauthorized()
    return credentials.credentials


Store = Annotated[GameStore, Depends(get_store)]
Token = Annotated[str, Depends(bearer_token)]


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
    n: StrictInt = Field(ge=1, le=1_000_000, description="Board side; n in a row wins.")


class MoveIn(BaseModel):
    row: StrictInt = Field(description="0 … n−1; outside is 422 `out_of_bounds`.")
    col: StrictInt = Field(description="0 … n−1; outside is 422 `out_of_bounds`.")
    player: StrictInt | None = Field(
        None, ge=1, le=2, description="Optional; must be the token's player (else 403)."
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


def move_out(move: Move) -> MoveOut:
    return MoveOut(seq=move.seq, row=move.row, col=move.col, player=move.player)


def game_out(state: GameState) -> GameOut:
    return GameOut(
        id=state.id,
        n=state.n,
        status=state.status,
        winner=state.winner,
        next_player=state.next_player,
        version=state.version,
        move_count=state.move_count,
        last_move=move_out(state.last_move) if state.last_move else None,
    )


def etag(state: GameState) -> str:
    return f'"{state.id}.{state.version}"'


def _etag_matches(header: str | None, current: str) -> bool:
    if not header:
        return False
    candidates = {part.strip().removeprefix("W/") for part in header.split(",")}
    return "*" in candidates or current in candidates


def _game_path(game_id: str) -> str:
    return f"{router.prefix}/{game_id}"


@router.post(
    "",
    status_code=201,
    summary="Create a game",
    description="Creates an n × n game (n in a row wins). Player 1 plays X and moves first. "
    "The answer holds both players' bearer tokens — shown only here; hand token 2 to the "
    "other player. Answers 503 `capacity_exhausted` with `Retry-After` when the store is full.",
    responses={
        201: {
            "headers": {
                "Location": {"description": "The game's URL.", "schema": {"type": "string"}}
            }
        },
        **problem_responses(*BODY_ERRORS, 503, s503="`capacity_exhausted` (see `Retry-After`)."),
    },
)
async def create_game(
    body: Annotated[
        CreateGameIn,
        Body(openapi_examples={"classic": {"summary": "Classic 3 × 3", "value": {"n": 3}}}),
    ],
    store: Store,
    settings: Annotated[Settings, Depends(get_settings)],
    response: Response,
) -> CreatedGameOut:
    if body.n > settings.max_n:
        raise RequestValidationError(
            [
                {
                    "loc": ("body", "n"),
                    "msg": f"n must be at most {settings.max_n}",
                    "type": "less_than_equal",
                }
            ]
        )
    created = await store.create(body.n)
    response.headers["Location"] = _game_path(created.state.id)
    response.headers["ETag"] = etag(created.state)
    return CreatedGameOut(
        **game_out(created.state).model_dump(),
        tokens=Tokens.model_validate({"1": created.tokens[0], "2": created.tokens[1]}),
    )


@router.get(
    "/{game_id}",
    summary="Get a game's state (cheap polling with ETag)",
    description="The state carries an `ETag`; send it back in `If-None-Match` and an unchanged "
    "game answers 304 with no body.",
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
        **problem_responses(404, s404="`game_not_found`."),
    },
)
async def get_game(
    game_id: str,
    store: Store,
    response: Response,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Any:
    state = await store.state(game_id)
    tag = etag(state)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if _etag_matches(if_none_match, tag):
        return Response(status_code=304, headers=headers)
    response.headers.update(headers)
    return game_out(state)


@router.post(
    "/{game_id}/moves",
    status_code=201,
    summary="Make a move",
    description="The token says who moves; `player`, if sent, must agree (else 403 "
    "`wrong_player`). Adjudicated in O(1). `winner` is 0 while nobody has won. A refused move "
    "changes nothing: 422 `out_of_bounds`; 409 `not_your_turn`, `cell_occupied`, `game_over`.",
    responses={
        201: {
            "headers": {
                "Location": {"description": "The move's URL.", "schema": {"type": "string"}}
            }
        },
        **problem_responses(
            401,
            403,
            404,
            409,
            *BODY_ERRORS,
            s404="`game_not_found`.",
            s409="`not_your_turn`, `cell_occupied` or `game_over`.",
            s422="`out_of_bounds` (row/col outside 0 … n−1) or `validation_error`.",
        ),
    },
)
async def make_move(
    game_id: str,
    body: Annotated[
        MoveIn,
        Body(
            openapi_examples={
                "centre": {"summary": "Centre of a 3 × 3 board", "value": {"row": 1, "col": 1}}
            }
        ),
    ],
    store: Store,
    token: Token,
    response: Response,
) -> MoveResultOut:
    player = cast(Player | None, body.player)  # the schema admits only 1, 2 or null
    result = await store.play(game_id, token, body.row, body.col, player)
    response.headers["Location"] = f"{_game_path(game_id)}/moves/{result.move.seq}"
    response.headers["ETag"] = etag(result.state)
    return MoveResultOut(
        winner=result.winner,
        move=move_out(result.move),
        state=game_out(result.state),
    )


@router.get(
    "/{game_id}/moves",
    summary="Moves since a version (deltas for polling clients)",
    description="Accepted moves with `seq > since`, in order, at most `limit`. Pass the "
    "returned `version` as the next `since`.",
    responses=problem_responses(404, 422, s404="`game_not_found`."),
)
async def list_moves(
    game_id: str,
    store: Store,
    since: Annotated[int, Query(ge=0, description="Last version seen (default 0).")] = 0,
    limit: Annotated[int, Query(ge=1, le=10_000, description="At most this many.")] = 1000,
) -> MovesPage:
    moves, version = await store.moves(game_id, since, limit)
    return MovesPage(moves=[move_out(m) for m in moves], version=version)


@router.get(
    "/{game_id}/moves/{seq}",
    summary="One move",
    description="The move a move's `Location` points to.",
    responses=problem_responses(404, 422, s404="`game_not_found` or `move_not_found`."),
)
async def get_move(game_id: str, seq: int, store: Store) -> MoveOut:
    return move_out(await store.move(game_id, seq))


@router.get(
    "/{game_id}/board",
    summary="The board as text (n ≤ 100)",
    description="Rows of `X`, `O`, `.`. Larger boards answer 422 `board_too_large`: follow "
    "the moves instead.",
    responses=problem_responses(404, 422, s404="`game_not_found`.", s422="`board_too_large`."),
)
async def get_board(game_id: str, store: Store) -> BoardOut:
    state = await store.state(game_id)
    if state.n > MAX_RENDERED_SIDE:
        raise BoardTooLarge(state.n, MAX_RENDERED_SIDE)
    return BoardOut(n=state.n, rows=await store.rows(game_id))


@router.delete(
    "/{game_id}",
    status_code=204,
    summary="Delete a game",
    description="Either player's token. Afterwards the game is 404.",
    responses=problem_responses(401, 404, s404="`game_not_found`."),
)
async def delete_game(game_id: str, store: Store, token: Token) -> Response:
    await store.delete(game_id, token)
    return Response(status_code=204)
