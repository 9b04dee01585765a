"""Request bodies and response shapes of the game routes, each declared once.

Response shapes are ``TypedDict``s: FastAPI documents them (``response_model``) and the
renderers in ``render.py`` return them, so ``mypy --strict`` checks every answer against its
documented shape, at no cost per request.

A game kind's own shapes join the unions here — its creation body (which names its kind and
parameters), its state (``GameCommon`` plus the kind's facts, declared by the kind module) and
its board (``rows`` plus the kind's dimensions): the one place of the edge that knows the kinds.
Routes and renderers work on the unions.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from app.api.bodies import INTEGRAL, Body, JsonBody, JsonInt
from app.sessions.kind import Player, Reason, Status, Winner
from app.sessions.kinds.tictactoe import TicTacToeFacts
from app.settings import LARGEST_N, Settings


class MoveOut(TypedDict):
    seq: Annotated[
        int, Field(description="1 for the first move; equals the game's version after it.")
    ]
    row: int
    col: int
    player: Player


GameName = Literal["tictactoe"]


class GameCommon(TypedDict):
    """What the state of a game of every kind says."""

    id: str
    game: Annotated[GameName, Field(description="The game's kind, as it was created.")]
    status: Status
    winner: Annotated[Winner, Field(description="0 while nobody has won.")]
    reason: Annotated[
        Reason | None,
        Field(
            description="Why the game ended: `line` (k in a row), `board_full` (a draw), "
            "`move_limit` (the configured most moves per game: a draw); null while it goes on."
        ),
    ]
    next_player: Annotated[Player | None, Field(description="null once the game is over.")]
    version: Annotated[int, Field(description="0 at creation, +1 per accepted move.")]
    move_count: int
    last_move: MoveOut | None


class GameOut(GameCommon, TicTacToeFacts):
    """The state of a game (today's one kind: n × n tic-tac-toe, k in a row)."""


Tokens = TypedDict("Tokens", {"1": str, "2": str})


class CreatedGameOut(GameOut):
    tokens: Annotated[
        Tokens, Field(description="Each player's bearer token. Shown only in this answer.")
    ]


class MoveResultOut(TypedDict):
    winner: Annotated[Winner, Field(description="0 while nobody has won, else the winner.")]
    move: MoveOut
    state: GameOut


class MovesPage(TypedDict):
    moves: list[MoveOut]
    version: Annotated[
        int, Field(description="The game's version now; pass it as `since` next time.")
    ]


class BoardOut(TypedDict):
    n: int
    rows: Annotated[list[str], Field(description="`X` (player 1), `O` (player 2), `.` empty.")]


class CreateGameIn(Body):
    """An n × n tic-tac-toe game: k in a row wins (a longer run too); k is n unless given."""

    kind: ClassVar[str] = "tictactoe"
    game: Literal["tictactoe"] = Field(
        "tictactoe", description="The game's kind; without it, tic-tac-toe."
    )
    n: JsonInt = Field(ge=1, le=LARGEST_N, description="Board side.")
    k: Annotated[int, Field(strict=True, ge=1, le=LARGEST_N), INTEGRAL] | None = Field(
        None, description="Stones in a row that win, at most n; n if not given (gomoku: 5)."
    )

    @field_validator("n")
    @classmethod
    def _at_most_max_n(cls, value: int, info: ValidationInfo) -> int:
        limit = (info.context["settings"] if info.context else Settings()).max_n
        if value > limit:
            raise PydanticCustomError(
                "less_than_equal", "n must be at most {limit}", {"limit": limit}
            )
        return value

    @field_validator("k")
    @classmethod
    def _k_at_most_n(cls, k: int | None, info: ValidationInfo) -> int | None:
        n = info.data.get("n")  # absent if n itself was refused
        if k is not None and n is not None and k > n:
            raise PydanticCustomError("k_over_n", "k must be at most n = {n}", {"n": n})
        return k

    def params(self) -> dict[str, object]:
        """The kind's parameters, as the store takes them."""
        return {"n": self.n, "k": self.n if self.k is None else self.k}


class MoveIn(Body):
    row: JsonInt = Field(description="0 … n−1; outside is 422 `out_of_bounds`.")
    col: JsonInt = Field(description="0 … n−1; outside is 422 `out_of_bounds`.")
    player: Annotated[int, Field(strict=True, ge=1, le=2), INTEGRAL] | None = Field(
        None, description="Optional; must be the token's player (else 403)."
    )


CREATE_BODY = JsonBody(
    CreateGameIn,
    {
        "classic": {"summary": "Classic 3 × 3", "value": {"n": 3}},
        "gomoku": {
            "summary": "Gomoku: 15 × 15, five in a row",
            "value": {"game": "tictactoe", "n": 15, "k": 5},
        },
    },
)
MOVE_BODY = JsonBody(
    MoveIn, {"centre": {"summary": "Centre of a 3 × 3 board", "value": {"row": 1, "col": 1}}}
)
