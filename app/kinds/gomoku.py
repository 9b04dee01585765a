"""Gomoku and renju sessions: five in a row under the rule a game was created with.

The rules are ``app/rules/gomoku.py``'s, the stateless endpoints' own engine: ``freestyle``
(five or more), ``standard`` (exactly five), ``renju`` (15 × 15; Black exactly five and never on
a forbidden point, White five or more; a player may pass, two passes in a row draw) and
``caro`` (six or more, or exactly five not blocked at both ends). Player 1 plays Black and moves
first. A move is adjudicated by reading at most five cells each way from it (renju's forbidden
check reads the windows of the points it asks about, and asks again only one stone later), so
it costs the same on a 15 × 15 board as on a board of a million a side.

An opening is either stones placed before play (the game's first move records) or swap2: player 1
places three stones (Black, White, Black); player 2 chooses a colour, or to place two more
(White, Black) and let player 1 choose one. Until the colours are fixed the state says whose
step it is (``opening``: ``step`` and ``to_act``) and the seats have no colour (``colors``); a
choice is a move of the game (``Swap2Choice``, posted on the choice route), so its receipts,
events and record are a move's. Stones alternate Black and White whoever places them; the
player holding the colour to move moves.

A refused move changes nothing: ``Gomoku.play`` checks the cell, the turn, the step and the rule
before it places anything. Black's forbidden move is refused (409 ``forbidden_move``, with the
shapes that make it so), or, in a game created with ``"foul": "lose"``, accepted and lost
(``reason`` ``foul``).

The moves are a flat ``array`` of (row, col, player, colour) — a pass's row and col are
``PASS``, a choice's row ``CHOICE`` — as tic-tac-toe keeps its moves: 16 bytes a move and
nothing for Python's cycle collector to walk. A position a store rebuilt from ``encode``'s text
holds the stones, the counters and the last move only (its move list holds the others).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Mapping, Sequence
from typing import Annotated, ClassVar, Literal, NotRequired, get_args

from pydantic import (
    Field,
    PlainValidator,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

from app.contract.fields import INTEGRAL, Body, NoMembers
from app.contract.games import (
    EARLY_DRAW_DOC,
    KIND_DOC,
    LARGEST_N,
    LAST_MOVE,
    TOKENS_DOC,
    CreateIn,
    Face,
    GameCommon,
    MoveBody,
    MoveIn,
    MoveTimesOut,
    PassIn,
    Tokens,
    only_true,
    within_max_side,
)
from app.contract.problems import CELL_REFUSALS, ILLEGAL_SESSION_MOVE, Refusal, refusal
from app.contract.squares import SquareError, Squares, check_syntax
from app.contract.stateless import LineOut, lines_out
from app.rules import gomoku
from app.rules.dead import Liveness
from app.rules.errors import RuleError
from app.rules.gomoku import FIVE, MIN_SIZE, RENJU_SIZE, Color, GomokuBoard, Rule
from app.sessions.errors import (
    NO_OPENING_CHOICE,
    CellOccupied,
    GameOver,
    NotYourTurn,
    OutOfBounds,
    PassNotAllowed,
    WrongStep,
)
from app.sessions.kind import (
    NO_LEGAL_MOVES,
    FastPath,
    LegalMove,
    LegalMoves,
    Move,
    Pass,
    Placement,
    Played,
    Player,
    Reason,
    Status,
    Winner,
    cell_page,
    early_draw_param,
    free_cells,
    immutable,
    other,
)

DEFAULT_SIZE = 15
Foul = Literal["refuse", "lose"]
COLORS: tuple[Color, Color] = ("B", "W")  # a colour's code in the move array is its index
PASS = -1  # the row and col of a pass in the move array
CHOICE = -2  # the row of a choice in the move array (its col: 0 a colour, 1 place_two)
STONE: dict[Color | None, Literal[1, 2]] = {"B": 1, "W": 2}  # a colour as rules/dead.py counts it
EARLY_DRAW_RULES = ("freestyle", "standard")  # the rules a five's windows decide
MOST_STONES = RENJU_SIZE * RENJU_SIZE  # an opening's stones at most: a whole 15 × 15 board
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
FORBIDDEN_WORDS: dict[gomoku.Forbidden, str] = {
    "overline": "an overline", "double_four": "a double-four", "double_three": "a double-three",
}  # fmt: skip
SQUARES = Squares.of(RENJU_SIZE, RENJU_SIZE, "bottom")  # renju's board: the one with fouls

# --- swap2 ------------------------------------------------------------------------------------

SWAP2 = "swap2"
# The rules whose wins a run's length and its ends decide: a store's line engine plays them.
LINE_RULES = ("freestyle", "standard", "caro")
Step = Literal["place_three", "choose", "place_two", "choose_color"]
TO_ACT: dict[Step, Player] = {"place_three": 1, "choose": 2, "place_two": 2, "choose_color": 1}
# A placing step ends when the board holds this many stones, and the step that follows it.
PLACED_BY: dict[Step, tuple[int, Step]] = {
    "place_three": (3, "choose"),
    "place_two": (5, "choose_color"),
}
WANTED: dict[Step, str] = {
    "place_three": "places the three opening stones (Black, White, Black)",
    "choose": "chooses now: a colour, or to place two more stones",
    "place_two": "places two more stones (White, Black)",
    "choose_color": "chooses a colour now",
}  # fmt: skip
Option = Literal["B", "W", "place_two"]
PLACE_TWO: Option = "place_two"
STEP_DOC = (
    "`place_three`: player 1 places three stones (Black, White, Black); `choose`: player 2 "
    "chooses a colour, or to place two more stones; `place_two`: player 2 places them (White, "
    "Black); `choose_color`: player 1 chooses a colour."
)


def flip(color: Color) -> Color:
    return "W" if color == "B" else "B"


class Swap2Out(TypedDict):
    """A swap2 opening's step, while the colours are not fixed."""

    rule: Literal["swap2"]
    step: Annotated[Step, Field(description=STEP_DOC)]
    to_act: Annotated[Player, Field(description="The player who acts now (`next_player`).")]


ColorsOut = TypedDict(
    "ColorsOut",
    {
        "1": Annotated[Color | None, Field(description="Player 1's colour; null until chosen.")],
        "2": Annotated[Color | None, Field(description="Player 2's colour; null until chosen.")],
    },
)
ColorsOut.__doc__ = "Each seat's colour: fixed at creation, or by a swap2 choice."


@immutable
class Swap2Choice:
    """A swap2 choice: a colour (the chooser plays it, the other player the other one), or
    ``place_two`` (the second player places two more stones and the first chooses)."""

    option: Option

    def record(self) -> Mapping[str, object]:
        return {"choice": "place_two" if self.option == PLACE_TWO else "color"}

    def text(self) -> str:
        return f"choice:{self.option}"

    def body(self) -> Mapping[str, object]:
        return {"place_two": True} if self.option == PLACE_TWO else {"color": self.option}


class ColorChoiceIn(MoveBody):
    """A swap2 colour: the chooser plays it, the other player the other one."""

    key: ClassVar[str] = "color"
    examples: ClassVar[Mapping[str, Mapping[str, object]]] = {
        "play-white": {"summary": "Play White (swap2)", "value": {"color": "W"}},
    }
    color: Color = Field(description="`B` or `W`: the colour the chooser plays.")

    def played(self) -> Swap2Choice:
        return Swap2Choice(self.color)


class PlaceTwoIn(MoveBody):
    """Swap2's third option: place two more stones (White, Black), then the other player
    chooses a colour."""

    key: ClassVar[str] = "place_two"
    examples: ClassVar[Mapping[str, Mapping[str, object]]] = {
        "place-two": {"summary": "Place two more stones (swap2)", "value": {"place_two": True}},
    }
    place_two: Annotated[Literal[True], only_true("place_two")] = Field(
        description="`true`: the chooser places two more stones."
    )

    def played(self) -> Swap2Choice:
        return Swap2Choice(PLACE_TWO)


def opening_facts(step: Step | None, colors: tuple[Color, Color] | None) -> dict[str, object]:
    """The facts a swap2 opening changes: its pending step (None once the colours are fixed)
    and each seat's colour (None until then)."""
    opening: Swap2Out | None = None
    if step is not None:
        opening = {"rule": "swap2", "step": step, "to_act": TO_ACT[step]}
    shown: ColorsOut = {"1": None, "2": None}
    if colors is not None:
        shown = {"1": colors[0], "2": colors[1]}
    return {"opening": opening, "colors": shown}


def holder(colors: Mapping[str, object], color: object) -> Player:
    """The seat whose colour is ``color`` (``colors`` as a state shows them)."""
    return 1 if colors["1"] == color else 2


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


# --- refusals of the rules --------------------------------------------------------------------


class ForbiddenMove(RuleError):
    """Black's move on a renju forbidden point: an overline, a double-four or a double-three."""

    code = "forbidden_move"

    def __init__(
        self, row: int, col: int, forbidden: gomoku.Forbidden, lines: Sequence[LineOut]
    ) -> None:
        self.row, self.col, self.forbidden, self.lines = row, col, forbidden, list(lines)
        shapes = " and ".join(
            f"{line['squares'][0]}–{line['squares'][-1]}" if "squares" in line else "?"
            for line in self.lines
        )
        square = SQUARES.name(row, col) if SQUARES is not None else f"({row}, {col})"
        super().__init__(f"{square} is forbidden to Black: {FORBIDDEN_WORDS[forbidden]} ({shapes})")

    def details(self) -> dict[str, object]:
        return {"forbidden": self.forbidden, "lines": self.lines}


def _example_foul() -> ForbiddenMove:
    """A real double-three, as the rules find it: Black at h8 with h9, h10 and i8, j8."""
    board = GomokuBoard(RENJU_SIZE, {(6, 7): "B", (5, 7): "B", (7, 8): "B", (7, 9): "B"})
    check = gomoku.check_move(board, RENJU_SIZE, 7, 7, "B", "renju")
    assert check.forbidden == "double_three", check
    return ForbiddenMove(7, 7, check.forbidden, lines_out(check.lines, SQUARES))


FORBIDDEN_MOVE = refusal(
    _example_foul(), 409, "Forbidden move",
    "Black's move on a renju forbidden point (`forbidden`: `overline`, `double_four` or "
    "`double_three`; `lines`: the shapes that make it so), in a game created with `foul` "
    "`refuse` (the default)",
    "play another point (`POST /v1/gomoku/forbidden-points` lists them all), or pass",
)  # fmt: skip
NO_PASSES = Refusal(PassNotAllowed, ILLEGAL_SESSION_MOVE)


# --- creation ---------------------------------------------------------------------------------


def _stone(value: object) -> tuple[int, int] | str:
    """A stone of an opening as a body writes it: ``[row, col]`` or a square name."""
    if isinstance(value, str):
        try:
            return check_syntax(value)
        except SquareError as error:
            raise PydanticCustomError(error.type, str(error)) from None
    if isinstance(value, list) and len(value) == 2:
        cell = [int(v) if type(v) is float and v.is_integer() else v for v in value]
        if all(type(v) is int and v >= 0 for v in cell):
            return cell[0], cell[1]
    raise PydanticCustomError("stone", "a stone is [row, col] (0-based) or a square such as h8")


StoneIn = Annotated[
    tuple[int, int] | str,
    PlainValidator(_stone),
    WithJsonSchema(
        {
            "anyOf": [
                {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0},
                    "minItems": 2,
                    "maxItems": 2,
                    "examples": [[7, 7]],
                },
                {"type": "string", "maxLength": 8, "examples": ["h8"]},
            ]
        }
    ),
    NoMembers(),
]


class StonesOpening(Body):
    """Stones placed before play, alternately Black, White, Black, … (as Gomocup hands its
    balanced openings to engines)."""

    stones: list[StoneIn] = Field(
        min_length=1,
        max_length=MOST_STONES,
        description="Each stone as `[row, col]` or a square name (`h8`, rows counted from the "
        "bottom; on boards of at most 26 columns). They are the game's first move records, "
        "untimed, by players 1, 2, 1, …; then the colour whose turn it is moves. A stone the "
        "rules refuse (an occupied or forbidden point), or stones that end the game, are 422 "
        "naming the stone.",
    )


class CreateGomokuIn(CreateIn):
    """Gomoku: five in a row under one of the four rule sets (`freestyle` unless given), on a
    `size` × `size` board (15 unless given; renju only 15). Black (player 1) moves first."""

    kind: ClassVar[str] = "gomoku"
    game: Literal["gomoku"] = Field(description="The game's kind.")
    rule: Rule = Field("freestyle", description=RULE_DOC)
    size: Annotated[int, Field(strict=True, ge=MIN_SIZE, le=LARGEST_N), INTEGRAL] | None = Field(
        None, description="Board side: 15 if not given; renju is played on 15 × 15 only."
    )
    foul: Foul = Field("refuse", description=FOUL_DOC + " `lose` is for renju only.")
    early_draw: bool = Field(
        False, strict=True, description=EARLY_DRAW_DOC + " Freestyle and standard only."
    )
    opening: StonesOpening | Literal["swap2"] | None = Field(
        None,
        description='Stones placed before the players move (`{"stones": […]}`), or '
        '`"swap2"`: player 1 places three stones (Black, White, Black), then player 2 '
        "chooses a colour or to place two more (White, Black) and let player 1 choose "
        "(`POST /v1/games/{id}/choice`); the clocks run from the first stone. None if not given.",
    )

    @field_validator("opening", mode="wrap")
    @classmethod
    def _stones_or_swap2(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> StonesOpening | str | None:
        """Stones or ``"swap2"``, each one's errors located where they are in the body (a
        plain union would name its members in them)."""
        if value is None or value == SWAP2:
            return value
        if isinstance(value, str):
            raise PydanticCustomError(
                "opening", "an opening is the string swap2 or an object of stones, not {value!r}",
                {"value": value[:20]},
            )  # fmt: skip
        return StonesOpening.model_validate(value, context=info.context)

    @field_validator("size")
    @classmethod
    def _the_rule_s_size(cls, size: int | None, info: ValidationInfo) -> int | None:
        if size is not None and info.data.get("rule") == "renju" and size != RENJU_SIZE:
            raise PydanticCustomError(
                "renju_size",
                "renju is played on {side} × {side}, not {size} × {size}",
                {"side": RENJU_SIZE, "size": size},
            )
        return within_max_side("size", size, info)

    @field_validator("foul")
    @classmethod
    def _a_foul_is_renju_s(cls, foul: Foul, info: ValidationInfo) -> Foul:
        if foul == "lose" and info.data.get("rule", "renju") != "renju":
            raise PydanticCustomError(
                "foul_without_forbidden_points",
                "foul is for renju games: no other rule has forbidden points",
            )
        return foul

    @field_validator("early_draw")
    @classmethod
    def _early_draw_of_a_rule_of_lines(cls, early_draw: bool, info: ValidationInfo) -> bool:
        rule = info.data.get("rule", "freestyle")
        if early_draw and rule not in EARLY_DRAW_RULES:
            raise PydanticCustomError(
                "early_draw_rule",
                "early_draw is for freestyle and standard games, not {rule}",
                {"rule": rule},
            )
        return early_draw

    @model_validator(mode="after")
    def _a_playable_opening(self) -> CreateGomokuIn:
        if isinstance(self.opening, StonesOpening):
            self.opening_moves()  # refuses a stone that is no cell of the board or not playable
        return self

    @property
    def side(self) -> int:
        return DEFAULT_SIZE if self.size is None else self.size

    def params(self) -> dict[str, object]:
        params: dict[str, object] = {"rule": self.rule, "size": self.side}
        if self.foul != "refuse":
            params["foul"] = self.foul
        if self.opening == SWAP2:
            params["opening"] = SWAP2
        if self.early_draw:
            params["early_draw"] = True
        return params

    def opening_moves(self) -> list[Played]:
        """The opening's stones, each checked playable after those before it; a ValidationError
        naming the first that is not."""
        if not isinstance(self.opening, StonesOpening):
            return []  # none, or swap2: the players place its stones
        position = KIND.new(self.params())
        names = Squares.of(self.side, self.side, "bottom")
        moves: list[Played] = []
        for index, stone in enumerate(self.opening.stones):
            try:
                if isinstance(stone, str):
                    if names is None:
                        raise SquareError(
                            "no_square_names",
                            "a board wider than 26 columns has no square names: give [row, col]",
                        )
                    cell = Placement(*names.parse(stone))
                else:
                    cell = Placement(*stone)
                player = position.next_player
                if player is None:
                    raise GameOver(position.status, position.winner, position.reason)
                position.play(cell, player)
                if position.status != "in_progress":
                    raise GameOver(position.status, position.winner, position.reason)
            except (SquareError, RuleError) as error:
                raise _stone_refused(index, stone, str(error)) from None
            moves.append(cell)
        return moves


def _stone_refused(index: int, stone: object, why: str) -> ValidationError:
    return ValidationError.from_exception_data(
        "opening",
        [
            InitErrorDetails(
                type=PydanticCustomError(
                    "opening_stone", "stone {index} of the opening is refused: {why}",
                    {"index": index + 1, "why": why},
                ),
                loc=("opening", "stones", index),
                input=stone,
            )
        ],
    )  # fmt: skip


# --- the position -----------------------------------------------------------------------------


class _Occupied:
    """The cells of a board that hold a stone, or that Black may not take, by cell index
    (``row * size + col``), as ``free_cells`` asks."""

    __slots__ = ("barred", "cells", "size")

    def __init__(self, board: GomokuBoard, barred: frozenset[int] = frozenset()) -> None:
        self.cells, self.size, self.barred = board.cells, board.size, barred

    def __contains__(self, index: object) -> bool:
        assert isinstance(index, int)
        return index in self.barred or divmod(index, self.size) in self.cells


class Gomoku:
    """One gomoku game: its stones, who moves, how it stands, and its moves in order — all of
    them, or (a position a store rebuilt from ``encode``'s text) those from move ``first`` on.

    ``turn`` is the colour to move; ``colors`` each seat's colour (None while a swap2 opening
    has not fixed them); ``step`` the swap2 step pending (None: none). ``opened`` keeps, for
    each move of a swap2 opening, the facts it left (``opening_facts``): who acts after it does
    not follow from the colours as it does later."""

    __slots__ = (
        "board", "colors", "ended", "first", "foul", "liveness", "opened", "passes", "played",
        "rule", "status", "step", "swap2", "turn", "winner",
    )  # fmt: skip

    def __init__(
        self,
        size: int,
        rule: Rule,
        foul: Foul = "refuse",
        first: int = 1,
        swap2: bool = False,
        early_draw: bool = False,
    ) -> None:
        self.board = GomokuBoard(size)
        self.rule: Rule = rule
        self.foul: Foul = foul
        self.first = first  # the number of the first move in ``played``
        self.played: array[int] = array("i")  # row, col, player, colour of each move
        self.status: Status = "in_progress"
        self.winner: Winner = 0
        self.ended: Reason | None = None
        self.passes = 0  # passes in a row, up to now
        self.turn: Color = "B"
        self.swap2 = swap2
        self.step: Step | None = "place_three" if swap2 else None
        self.colors: tuple[Color, Color] | None = None if swap2 else ("B", "W")
        self.opened: dict[int, Mapping[str, object]] = {}
        # With early_draw, the windows each colour can still fill (``rules/dead.py``).
        self.liveness = Liveness(size, FIVE, rule == "standard") if early_draw else None

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def move_count(self) -> int:
        return self.first - 1 + len(self.played) // 4

    @property
    def reason(self) -> Reason | None:
        return self.ended

    @property
    def next_player(self) -> Player | None:
        if self.status != "in_progress":
            return None
        step = self.step
        if step is not None:
            return TO_ACT[step]
        colors = self.colors
        assert colors is not None, "fixed once no step is pending"
        return 1 if colors[0] == self.turn else 2

    def move(self, seq: int) -> Move:
        if seq < self.first:
            raise LookupError(f"move {seq} is in the store's move list, not in this position")
        at = 4 * (seq - self.first)
        row, col, player, color = self.played[at : at + 4]
        mover: Player = 1 if player == 1 else 2
        played: Played
        facts: dict[str, object] = {"color": COLORS[color]}
        if row == PASS:
            played = Pass()
        elif row == CHOICE:
            played = Swap2Choice(PLACE_TWO if col else COLORS[color])
            if col:
                facts = {}
        else:
            played = Placement(row, col)
        return Move(seq, played, mover, facts, self.opened.get(seq))

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, max(since, 0) + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """Every empty cell, row-major; in renju, none of Black's forbidden points (found on the
        15 × 15 board at once: the count needs them all); none while a swap2 choice is due. A
        page costs its cells and the stones it skips, never the whole of a large board."""
        player = self.next_player
        if player is None or self.step in ("choose", "choose_color"):
            return NO_LEGAL_MOVES
        board, size = self.board, self.size
        barred: frozenset[int] = frozenset()
        if self.rule == "renju" and self.turn == "B":
            points = gomoku.forbidden_points(board, size)
            barred = frozenset(row * size + col for row, col, _ in points)
        total = size * size
        taken = _Occupied(board, barred)
        page, next_after = cell_page(free_cells(total, taken, after + 1), size, limit)
        count = total - len(board.cells) - len(barred)
        return LegalMoves(count, tuple(LegalMove(cell) for cell in page), next_after)

    def _mover(self, player: Player) -> None:
        """Refuse a move of ``player`` now: the game is over, or it is the other's turn."""
        next_player = self.next_player
        if next_player is None:
            raise GameOver(self.status, self.winner, self.reason)
        if player != next_player:
            raise NotYourTurn(player, next_player)

    def _no_choice_due(self, what: str) -> None:
        """Refuse ``what`` (a stone, a pass) while a swap2 choice is due."""
        step = self.step
        if step == "choose" or step == "choose_color":
            raise WrongStep(f"player {TO_ACT[step]} {WANTED[step]}, not {what}", step)

    def play(self, played: Played, player: Player) -> Move:
        if isinstance(played, Pass):
            self._mover(player)
            self._no_choice_due("a pass")
            if self.step is not None:
                raise WrongStep("a swap2 opening's stones are placed, never passed", self.step)
            if self.rule != "renju":
                raise PassNotAllowed(self.rule)
            color = self.turn
            self.played.extend((PASS, PASS, player, COLORS.index(color)))
            self.turn = flip(color)
            self.passes += 1
            if self.passes == 2:
                self.status, self.ended = "draw", "passes"
            return self.move(self.move_count)
        if isinstance(played, Swap2Choice):
            return self._choose(played, player)
        cell = Placement.of(played)
        row, col, size = cell.row, cell.col, self.size
        if not (0 <= row < size and 0 <= col < size):
            raise OutOfBounds(row, col, size)
        self._mover(player)
        self._no_choice_due("a stone")
        board = self.board
        if (row, col) in board.cells:
            raise CellOccupied(row, col)
        color = self.turn
        check = gomoku.check_move(board, size, row, col, color, self.rule)
        if check.forbidden is not None and self.foul == "refuse":
            lines = lines_out(check.lines, Squares.of(size, size, "bottom"))
            raise ForbiddenMove(row, col, check.forbidden, lines)
        board.cells[row, col] = color
        self.played.extend((row, col, player, COLORS.index(color)))
        self.turn = flip(color)
        self.passes = 0
        if check.forbidden is not None:  # "foul": "lose"
            self.status, self.winner, self.ended = "won", other(player), "foul"
        elif check.wins:
            self.status, self.winner, self.ended = "won", player, "line"
        elif len(board.cells) == size * size:
            self.status, self.ended = "draw", "board_full"
        elif self.liveness is not None:
            cells = board.cells
            self.liveness.played(lambda r, c: STONE.get(cells.get((r, c)), 0), row, col,
                                 STONE[color])  # fmt: skip
            if self.liveness.dead(size * size - len(cells), STONE[self.turn]):
                self.status, self.ended = "draw", "dead_position"
        step = self.step
        if step is None:
            return Move(self.move_count, cell, player, {"color": color})
        stones, then = PLACED_BY[step]
        if len(board.cells) == stones:
            self.step = then
        return self._opening_move()

    def _choose(self, choice: Swap2Choice, player: Player) -> Move:
        self._mover(player)
        step = self.step
        if step is None:
            why = (
                "the swap2 opening is over: the colours are fixed"
                if self.swap2
                else NO_OPENING_CHOICE
            )
            raise WrongStep(why)
        if step != "choose" and step != "choose_color":
            raise WrongStep(f"player {TO_ACT[step]} {WANTED[step]}: a choice comes after", step)
        option = choice.option
        if option == "B" or option == "W":
            self.colors = (option, flip(option)) if player == 1 else (flip(option), option)
            self.step = None
            self.played.extend((CHOICE, 0, player, COLORS.index(option)))
        elif step == "choose":
            self.step = "place_two"
            self.played.extend((CHOICE, 1, player, 0))
        else:
            raise WrongStep(
                "player 1 chooses a colour now: two more stones were placed already", step
            )
        return self._opening_move()

    def _opening_move(self) -> Move:
        """The move just made in a swap2 opening, with the facts it left."""
        seq = self.move_count
        self.opened[seq] = opening_facts(self.step, self.colors)
        return self.move(seq)

    def undo(self, taken: Sequence[Move], before: Move | None) -> None:
        cells, liveness = self.board.cells, self.liveness
        for move in reversed(taken):
            played, color = move.played, _color(str((move.facts or {}).get("color")))
            if isinstance(played, Placement):
                if liveness is not None:  # read with the stone still there
                    liveness.played(lambda r, c: STONE.get(cells.get((r, c)), 0), played.row,
                                    played.col, STONE[color], by=-1)  # fmt: skip
                del cells[played.row, played.col]
            self.turn = color
            self.opened.pop(move.seq, None)
        # Passes in a row before the first move taken back: one at most (two end the game).
        self.passes = 1 if before is not None and isinstance(before.played, Pass) else 0
        self.status, self.winner, self.ended = "in_progress", 0, None
        count = self.move_count - len(taken)
        if count >= self.first:
            del self.played[4 * (count - self.first + 1) :]
        else:  # no move left, or a position a store rebuilt: the one before is its last
            self.first = max(count, 1)
            self.played = array("i", _array_row(before) if before is not None else ())
            if before is not None and before.state_facts is not None:
                self.opened[count] = before.state_facts

    def facts(self) -> GomokuFacts:
        facts: GomokuFacts = {
            "rule": self.rule, "size": self.size, "foul": self.foul, "colors": FIXED_COLORS,
            "opening": None,
        }  # fmt: skip
        if self.swap2:
            facts.update(opening_facts(self.step, self.colors))  # type: ignore[typeddict-item]
        if self.liveness is not None:
            facts["early_draw"] = True
        return facts

    def rows(self) -> list[str]:
        """The board as strings of ``B``, ``W``, ``.`` (O(size²): only for small boards)."""
        return self.board.rows()

    def encode(self) -> str:
        """The stones, how the game stands and its last move: the move list keeps the others."""
        kept: dict[str, object] = {
            "stones": ",".join(f"{r}.{c}{color}" for (r, c), color in self.board.cells.items()),
            "passes": self.passes,
            "status": self.status,
            "winner": self.winner,
            "reason": self.ended,
            "turn": self.turn,
        }
        if self.swap2:
            kept |= {"step": self.step, "colors": "".join(self.colors or ())}
        if self.move_count:
            kept |= {"count": self.move_count, "last": KIND.encode_move(self.move(self.move_count))}
        return json.dumps(kept, separators=(",", ":"))


# The colours of a game without swap2 (a state's facts share this mapping: nobody changes it).
FIXED_COLORS: ColorsOut = {"1": "B", "2": "W"}


class GomokuKind:
    """The kind: makes positions, and encodes them and their moves for stores."""

    name = "gomoku"
    dimensions = ("size",)
    # The store's line engine plays five in a row under the rules a run's length and its ends
    # decide (not renju: Black's forbidden points need the windows around a point, read in
    # Python), without an opening (swap2's stones and choice are the generic session's).
    rules: tuple[str, ...] = get_args(Rule)
    fast_path = FastPath(
        "lines", lambda p: p["rule"] in LINE_RULES and p.get("opening") != SWAP2,
        lambda p: {"n": p["size"], "k": FIVE, "rule": p["rule"], **early_draw_param(p)},
    )  # fmt: skip
    face = Face(
        title="Gomoku",
        create=CreateGomokuIn,
        examples={
            "gomoku": {"summary": "Gomoku, freestyle, 15 × 15", "value": {"game": "gomoku"}},
            "renju": {
                "summary": "Renju: Black's forbidden points refused",
                "value": {"game": "gomoku", "rule": "renju"},
            },
            "renju-foul-loses": {
                "summary": "Renju where Black's forbidden move loses the game",
                "value": {"game": "gomoku", "rule": "renju", "foul": "lose"},
            },
            "standard-19": {
                "summary": "Standard gomoku (exactly five) on 19 × 19, with clocks",
                "value": {
                    "game": "gomoku",
                    "rule": "standard",
                    "size": 19,
                    "clock": {"initial_seconds": 300, "increment_seconds": 5},
                },
            },
            "caro-opening": {
                "summary": "Caro from a three-stone opening",
                "value": {
                    "game": "gomoku",
                    "rule": "caro",
                    "opening": {"stones": ["h8", "i9", "g9"]},
                },
            },
            "swap2": {
                "summary": "Freestyle with a swap2 opening",
                "value": {"game": "gomoku", "opening": "swap2"},
            },
        },
        state=GomokuGameOut,
        created=CreatedGomokuOut,
        record=GomokuMoveOut,
        board=GomokuBoardOut,
        known_as="gomoku and renju",
        row_one="bottom",  # as gomoku's and renju's players write it (RIF): h8 is the centre
        formats=("psq", "sgf"),  # Gomocup's and Piskvork's files; SGF FF[4] GM[4]
        moves=(MoveIn, PassIn),
        choices=(ColorChoiceIn, PlaceTwoIn),
        refusals=(*CELL_REFUSALS, FORBIDDEN_MOVE, NO_PASSES),
        page={"marks": {"1": "B", "2": "W"}, "empty": ".", "names": {"1": "Black", "2": "White"}},
    )

    def new(self, params: Mapping[str, object]) -> Gomoku:
        rule, size, foul = params["rule"], params["size"], params.get("foul", "refuse")
        assert rule in gomoku.RULES, rule
        assert isinstance(size, int), size
        assert foul in ("refuse", "lose"), foul
        return Gomoku(
            size, rule, foul, swap2=params.get("opening") == SWAP2,
            early_draw=params.get("early_draw") is True,
        )  # fmt: skip

    def decode(self, params: Mapping[str, object], text: str) -> Gomoku:
        position = self.new(params)
        if not text:
            return position
        kept = json.loads(text)
        cells = position.board.cells
        for stone in filter(None, kept["stones"].split(",")):
            row, col = stone[:-1].split(".")
            cells[int(row), int(col)] = "B" if stone[-1] == "B" else "W"
        position.passes = int(kept["passes"])
        position.status, position.winner = kept["status"], kept["winner"]
        position.ended = kept["reason"]
        count = int(kept.get("count", 0))
        # A text written before swap2 has no turn: Black's after an even number of moves.
        position.turn = "W" if kept.get("turn", "BW"[count % 2]) == "W" else "B"
        if position.liveness is not None:
            stones = ((r, c, STONE[color]) for (r, c), color in cells.items())
            position.liveness = Liveness.of(
                position.size, FIVE, position.rule == "standard", stones
            )
        if "step" in kept:
            position.step = kept["step"]
            colors = kept["colors"]
            position.colors = None if not colors else (colors[0], colors[1])
        if "last" in kept:
            last = self.decode_move(count, kept["last"])
            position.first = count
            position.played.extend(_array_row(last))
            if last.state_facts is not None:
                position.opened[count] = last.state_facts
        return position

    def encode_move(self, move: Move) -> str:
        """``row:col:player:colour``, ``pass:player:colour`` or ``choice:option:player:colour``
        (``-``: none), e.g. ``7:7:1:B``; a move of a swap2 opening adds the step it left and
        the seats' colours (``;choose;`` after the third stone, ``;;WB`` after player 1 chose
        White)."""
        color = (move.facts or {}).get("color", "-")
        text = f"{move.played.text()}:{move.player}:{color}"
        opened = move.state_facts
        if opened is None:
            return text
        opening, colors = opened["opening"], opened["colors"]
        step = opening["step"] if isinstance(opening, dict) else ""
        seats = "".join(colors.values()) if isinstance(colors, dict) and colors["1"] else ""
        return f"{text};{step};{seats}"

    def decode_move(self, seq: int, text: str) -> Move:
        text, _, opened = text.partition(";")
        *played_text, player, color = text.split(":")
        played: Played
        if played_text == ["pass"]:
            played = Pass()
        elif played_text[0] == "choice":
            option = played_text[1]
            played = Swap2Choice("B" if option == "B" else "W" if option == "W" else PLACE_TWO)
        else:
            played = Placement(int(played_text[0]), int(played_text[1]))
        mover: Player = 1 if player == "1" else 2
        facts = {} if color == "-" else {"color": "B" if color == "B" else "W"}
        state_facts = None
        if opened:
            step, _, seats = opened.partition(";")
            colors = None if not seats else (_color(seats[0]), _color(seats[1]))
            state_facts = opening_facts(_step(step), colors)
        return Move(seq, played, mover, facts, state_facts)

    def takes_back(self, move: Move) -> bool:
        """Not a swap2 opening's stone or choice (the moves that record the step they left)."""
        return move.state_facts is None and not isinstance(move.played, Swap2Choice)

    def clocks_wait(self, params: Mapping[str, object]) -> bool:
        return params.get("opening") != SWAP2  # swap2's clocks run from the first stone

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        """The seat holding the other colour moves; in a swap2 opening, the move says who
        acted next and how the opening stood (after the choice that fixed the colours, White
        moves: three or five stones are down)."""
        then = move.state_facts
        if then is not None:
            opening = then["opening"]
            facts = {**facts_now, **then}
            if isinstance(opening, dict):
                return TO_ACT[opening["step"]], facts
            colors = then["colors"]
            assert isinstance(colors, dict)
            return holder(colors, "W"), facts
        colors = facts_now.get("colors", FIXED_COLORS)  # (a game kept from before swap2)
        assert isinstance(colors, dict)
        return holder(colors, flip((move.facts or {})["color"])), facts_now  # type: ignore[arg-type]

    def ended(
        self, facts: Mapping[str, object], status: Status, winner: Winner, reason: Reason | None
    ) -> Mapping[str, object]:
        """The facts as they are (a gomoku result is its winner: nothing to count), but a game
        over has no opening step pending, whoever ended it; and a game a store kept from before
        swap2 gets the colours it was played with."""
        if "colors" not in facts:
            facts = {**facts, "colors": FIXED_COLORS, "opening": None}
        if status != "in_progress" and facts["opening"] is not None:
            facts = {**facts, "opening": None}
        return facts


def _color(text: str) -> Color:
    return "B" if text == "B" else "W"


def _step(text: str) -> Step | None:
    return next((step for step in TO_ACT if step == text), None)


def _array_row(move: Move) -> tuple[int, int, int, int]:
    """A move's row of the move array (``Gomoku.played``)."""
    played, color = move.played, (move.facts or {}).get("color", "B")
    code = COLORS.index("B" if color == "B" else "W")
    if isinstance(played, Placement):
        return played.row, played.col, move.player, code
    if isinstance(played, Swap2Choice):
        return CHOICE, int(played.option == PLACE_TWO), move.player, code
    return PASS, PASS, move.player, code


KIND = GomokuKind()
