"""What a gomoku game's answers show of its kind: its facts (the rule, the board's side, what a
foul does, the seats' colours, a swap2 step pending), its move record, its state and its
board, as the contract declares them."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from app.contract.games import (
    EARLY_DRAW_DOC,
    KIND_DOC,
    LAST_MOVE,
    TOKENS_DOC,
    GameCommon,
    MoveTimesOut,
    Tokens,
)
from app.kinds.gomoku.swap2 import ColorsOut, Swap2Out
from app.rules.colors import Color
from app.rules.gomoku import Rule
from app.sessions.kind import Player

Foul = Literal["refuse", "lose"]
RULE_DOC = (
    "`freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black "
    "exactly five and never on a forbidden point: overline, double-four, double-three; White "
    "five or more) or `caro` (six or more, or exactly five not blocked at both ends by the "
    "opponent)."
)
FOUL_DOC = (
    "What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the "
    "default), or `lose`: the move is accepted and White wins (`reason` `foul`)."
)


class GomokuFacts(TypedDict):
    """What a gomoku game's state says of its kind."""

    rule: Annotated[Rule, Field(description=RULE_DOC)]
    size: Annotated[int, Field(description="The board's side.")]
    foul: Annotated[Foul, Field(description=FOUL_DOC)]
    colors: Annotated[
        ColorsOut,
        Field(
            description="Each seat's colour: player 1 Black, unless a swap2 opening decides "
            "otherwise (null for both until its choice)."
        ),
    ]
    opening: Annotated[
        Swap2Out | None,
        Field(description="A swap2 opening's pending step; null once the colours are fixed, "
              "in a game without one, and once the game is over."),
    ]  # fmt: skip
    early_draw: NotRequired[Annotated[bool, Field(description=EARLY_DRAW_DOC)]]


_GomokuMove = TypedDict(
    "_GomokuMove",
    {
        "seq": Annotated[
            int, Field(description="1 for the first move; equals the game's version after it.")
        ],
        "row": NotRequired[Annotated[int, Field(description="A stone's row (0: the top row).")]],
        "col": NotRequired[
            Annotated[int, Field(description="A stone's column (0: the left column).")]
        ],
        "square": NotRequired[
            Annotated[
                str,
                Field(
                    description="A stone's square name (`h8`: column letter, row number from 1 "
                    "counted from the bottom row), where the board has names (at most 26 "
                    "columns)."
                ),
            ]
        ],
        "pass": NotRequired[Annotated[Literal[True], Field(description="A pass (renju).")]],
        "choice": NotRequired[
            Annotated[
                Literal["color", "place_two"],
                Field(
                    description="A swap2 choice: a colour (`color` says which), or two more stones."
                ),
            ]
        ],
        "player": Player,
        "color": NotRequired[
            Annotated[
                Color,
                Field(
                    description="The stone's colour (a pass: the passer's; a colour choice: "
                    "the colour chosen). Absent from a `place_two` choice."
                ),
            ]
        ],
    },
)


class GomokuMoveOut(_GomokuMove, MoveTimesOut):
    """A gomoku move record: a stone (its cell), a pass, or a swap2 choice, and its colour."""


class GomokuGameOut(GameCommon, GomokuFacts):
    """A gomoku game: five in a row under its `rule`, on a `size` × `size` board."""

    game: Annotated[Literal["gomoku"], Field(description=KIND_DOC)]
    last_move: Annotated[GomokuMoveOut | None, LAST_MOVE]


class CreatedGomokuOut(GomokuGameOut):
    tokens: Annotated[Tokens, Field(description=TOKENS_DOC)]


class GomokuBoardOut(TypedDict):
    size: int
    rows: Annotated[list[str], Field(description="`B` Black, `W` White, `.` empty; top row first.")]
