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

from typing import Annotated, ClassVar, Literal, NotRequired

from pydantic import (
    Discriminator,
    Field,
    RootModel,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from app.api.boards import ReversiBoard
from app.api.bodies import INTEGRAL, UNKNOWN_TAG, Body, JsonBody, JsonInt
from app.sessions.clock import MAX_INCREMENT_SECONDS, MAX_INITIAL_SECONDS, TimeControl
from app.sessions.kind import Player, Reason, Status, Winner
from app.sessions.kinds.reversi import ReversiFacts, ReversiMoveFacts, first_to_move
from app.sessions.kinds.tictactoe import TicTacToeFacts
from app.settings import LARGEST_N, Settings


class MoveOut(TypedDict):
    """A move record (a tic-tac-toe move's whole record)."""

    seq: Annotated[
        int, Field(description="1 for the first move; equals the game's version after it.")
    ]
    row: int
    col: int
    player: Player


class ReversiMoveOut(MoveOut, ReversiMoveFacts):
    """A Reversi move record: the stones it flipped (sorted by (row, col)) and whether the
    opponent had to pass (`passed`: the mover moves again)."""


AnyMoveOut = MoveOut | ReversiMoveOut


PlayerMs = TypedDict("PlayerMs", {"1": int, "2": int})


class ClockOut(TypedDict):
    """A clocked game's clocks (Fischer timing). Stable between changes of the game: count down
    to `deadline` (corrected by the answer's `Date`)."""

    initial_seconds: int
    increment_seconds: int
    remaining_ms: Annotated[
        PlayerMs, Field(description="Each player's time left, as of the game's last change.")
    ]
    running: Annotated[
        Player | None,
        Field(
            description="Whose clock runs: null until each player has made one move, and "
            "after the end."
        ),
    ]
    deadline: Annotated[
        str | None,
        Field(
            description="When the running clock reaches zero (RFC 3339, UTC, milliseconds): "
            "the game is then lost on time (`reason` `timeout`), whether or not anybody looks."
        ),
    ]


class GameCommon(TypedDict):
    """What the state of a game of every kind says."""

    id: str
    status: Status
    winner: Annotated[Winner, Field(description="0 while nobody has won.")]
    reason: Annotated[
        Reason | None,
        Field(
            description="Why the game ended: `line` (k in a row), `board_full` (a tic-tac-toe "
            "draw), `no_moves` (Reversi: neither colour can move; stones decide), `move_limit` "
            "(the configured most moves per game: a draw), `timeout` (a flag fell: the other "
            "player wins), `resignation`, `agreement` (a draw offered by both); null while it "
            "goes on."
        ),
    ]
    next_player: Annotated[Player | None, Field(description="null once the game is over.")]
    version: Annotated[
        int,
        Field(
            description="0 at creation, +1 per change: an accepted move, a draw offer, an "
            "ending (a flag fall, a resignation, an agreed draw)."
        ),
    ]
    move_count: Annotated[int, Field(description="Accepted moves.")]
    last_move: AnyMoveOut | None
    draw_offer: Annotated[
        Player | None,
        Field(description="The player whose draw offer stands (until the next accepted move)."),
    ]
    clock: NotRequired[Annotated[ClockOut, Field(description="Only in a clocked game's state.")]]


# --- each kind's state, and its state with the tokens as creation answers it ---------------------

_KIND_DOC = "The game's kind, as it was created."


class TicTacToeGameOut(GameCommon, TicTacToeFacts):
    """An n × n tic-tac-toe game, k in a row wins."""

    game: Annotated[Literal["tictactoe"], Field(description=_KIND_DOC)]


class ReversiGameOut(GameCommon, ReversiFacts):
    """A Reversi game: `score` counts each player's stones (1 Black, 2 White)."""

    game: Annotated[Literal["reversi"], Field(description=_KIND_DOC)]


GameOut = Annotated[TicTacToeGameOut | ReversiGameOut, Field(discriminator="game")]
GAME_STATES = (TicTacToeGameOut, ReversiGameOut)  # the union's members, for hand-made schemas

Tokens = TypedDict("Tokens", {"1": str, "2": str})
_TOKENS_DOC = "Each player's bearer token. Shown only in this answer."


class CreatedTicTacToeOut(TicTacToeGameOut):
    tokens: Annotated[Tokens, Field(description=_TOKENS_DOC)]


class CreatedReversiOut(ReversiGameOut):
    tokens: Annotated[Tokens, Field(description=_TOKENS_DOC)]


CreatedGameOut = Annotated[CreatedTicTacToeOut | CreatedReversiOut, Field(discriminator="game")]


class MoveResultOut(TypedDict):
    winner: Annotated[Winner, Field(description="0 while nobody has won, else the winner.")]
    move: AnyMoveOut
    state: GameOut


class MovesPage(TypedDict):
    moves: list[AnyMoveOut]
    version: Annotated[
        int,
        Field(
            description="The game's version now: its number of moves too, unless changes "
            "other than moves were made (draw offers, an ending). Pass the last move's `seq` "
            "as `since` next time."
        ),
    ]


class TicTacToeBoardOut(TypedDict):
    n: int
    rows: Annotated[list[str], Field(description="`X` (player 1), `O` (player 2), `.` empty.")]


class ReversiBoardOut(TypedDict):
    height: int
    width: int
    rows: Annotated[list[str], Field(description="`B` (player 1), `W` (player 2), `.` empty.")]


BoardOut = TicTacToeBoardOut | ReversiBoardOut


# --- each kind's creation body; the union is told apart by `game` (tic-tac-toe without it) -------


class ClockIn(Body):
    """Fischer timing: each player's initial time, and the time added after each of their
    moves. Neither clock runs until each player has made one move."""

    initial_seconds: Annotated[int, Field(strict=True, ge=1, le=MAX_INITIAL_SECONDS), INTEGRAL] = (
        Field(description="Each player's time at the start.")
    )
    increment_seconds: Annotated[
        int, Field(strict=True, ge=0, le=MAX_INCREMENT_SECONDS), INTEGRAL
    ] = Field(0, description="Added to a player's clock after each of their timed moves.")

    def control(self) -> TimeControl:
        return TimeControl(self.initial_seconds, self.increment_seconds)


class CreateIn(Body):
    """What a creation body of every kind may say."""

    clock: ClockIn | None = Field(None, description="Clocks; without them, no time limit.")

    def control(self) -> TimeControl | None:
        return None if self.clock is None else self.clock.control()


class CreateTicTacToeIn(CreateIn):
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


EvenSide = Annotated[int, Field(strict=True, ge=4, le=32, multiple_of=2), INTEGRAL]


class CreateReversiIn(CreateIn):
    """Reversi / Othello: 8 × 8 from the standard start, any even sides from 4 to 32, or a
    posted position (with the colour to move). Black (player 1) moves first by default."""

    kind: ClassVar[str] = "reversi"
    game: Literal["reversi"] = Field(description="The game's kind.")
    height: EvenSide | None = Field(None, description="Rows: even, 4 to 32; 8 if not given.")
    width: EvenSide | None = Field(None, description="Columns: even, 4 to 32; 8 if not given.")
    board: ReversiBoard | None = Field(
        None, description="A start position instead of the standard one (not with a size)."
    )
    next: Literal["B", "W"] | None = Field(
        None,
        description="Who moves first on a posted board (`B` if not given); if that colour "
        "cannot move, the other starts.",
    )

    @model_validator(mode="after")
    def _a_playable_start(self) -> CreateReversiIn:
        if self.board is None:
            if self.next is not None:
                raise PydanticCustomError("next_without_board", "next is only for a posted board")
            return self
        if self.height is not None or self.width is not None:
            raise PydanticCustomError(
                "board_and_size", "give a board or its height and width, not both"
            )
        if first_to_move(self.board, self.next or "B") is None:
            raise PydanticCustomError("no_moves", "neither colour can move in the posted position")
        return self

    def params(self) -> dict[str, object]:
        """The kind's parameters, as the store takes them."""
        if self.board is not None:
            return {"board": self.board.to_rows(), "next": self.next or "B"}
        return {"height": self.height or 8, "width": self.width or 8}


def _game_of(body: object) -> str | None:
    """The kind a creation body names (tic-tac-toe when it names none, or is no object: its
    schema then says what is wrong)."""
    if isinstance(body, dict):
        game = body.get("game", "tictactoe")
        return game if isinstance(game, str) else None
    return getattr(body, "game", "tictactoe")


class CreateGameIn(
    RootModel[
        Annotated[
            Annotated[CreateTicTacToeIn, Tag("tictactoe")]
            | Annotated[CreateReversiIn, Tag("reversi")],
            Discriminator(
                _game_of,
                custom_error_type=UNKNOWN_TAG,
                custom_error_message="game must be one of 'tictactoe', 'reversi'",
            ),
        ]
    ]
):
    """A new game of one kind, named by `game` (tic-tac-toe without it)."""


class ActionIn(Body):
    player: Annotated[int, Field(strict=True, ge=1, le=2), INTEGRAL] | None = Field(
        None, description="Optional; must be the token's player (else 403)."
    )


class MoveIn(Body):
    row: JsonInt = Field(
        description="0 … n−1 (a Reversi game: 0 … height−1), row 0 the top row; outside is 422 "
        "`out_of_bounds`."
    )
    col: JsonInt = Field(
        description="0 … n−1 (a Reversi game: 0 … width−1), column 0 the left column; outside "
        "is 422 `out_of_bounds`."
    )
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
        "blitz": {
            "summary": "Gomoku with clocks: 3 minutes each, 2 seconds a move",
            "value": {
                "game": "tictactoe",
                "n": 15,
                "k": 5,
                "clock": {"initial_seconds": 180, "increment_seconds": 2},
            },
        },
        "reversi": {"summary": "Reversi, 8 × 8", "value": {"game": "reversi"}},
        "reversi-6x10": {
            "summary": "Reversi, 6 × 10",
            "value": {"game": "reversi", "height": 6, "width": 10},
        },
        "reversi-posted": {
            "summary": "Reversi from a posted position, White to move",
            "value": {
                "game": "reversi",
                "board": [
                    "........",
                    "........",
                    "...B....",
                    "...BB...",
                    "...BW...",
                    "........",
                    "........",
                    "........",
                ],
                "next": "W",
            },
        },
    },
    tag="game",
)
ACTION_BODY = JsonBody(
    ActionIn, {"anyone": {"summary": "The token says who", "value": {}}}, optional=True
)
MOVE_BODY = JsonBody(
    MoveIn, {"centre": {"summary": "Centre of a 3 × 3 board", "value": {"row": 1, "col": 1}}}
)
