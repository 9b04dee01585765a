"""A gomoku game's creation body (``CreateGomokuIn``): the rule, the board's side, what a foul
does, early draws, and its opening — stones placed before play, each checked playable after
those before it (a 422 naming the first that is not), or swap2."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

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

from app.contract.fields import INTEGRAL, Body, NoMembers
from app.contract.games import EARLY_DRAW_DOC, LARGEST_N, CreateIn, within_max_side
from app.contract.squares import SquareError, Squares, check_syntax
from app.kinds.gomoku.answers import FOUL_DOC, RULE_DOC, Foul
from app.kinds.gomoku.position import new_game
from app.kinds.gomoku.swap2 import SWAP2
from app.rules.errors import RuleError
from app.rules.gomoku import MIN_SIZE, RENJU_SIZE, Rule
from app.sessions.errors import GameOver
from app.sessions.kind import Placement, Played

DEFAULT_SIZE = 15
EARLY_DRAW_RULES = ("freestyle", "standard")  # the rules a five's windows decide
MOST_STONES = RENJU_SIZE * RENJU_SIZE  # an opening's stones at most: a whole 15 × 15 board


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
        position = new_game(self.params())
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
