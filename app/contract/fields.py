"""The fields request bodies are made of, as the service reads them and clients send them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import InitErrorDetails, PydanticCustomError, core_schema

from app.contract import squares

# The error type a tagged union's discriminator raises for a tag it does not know.
UNKNOWN_TAG = "unknown_tag"


def _whole(value: float) -> int:
    if not value.is_integer():
        raise ValueError("not a whole number")  # the union's error says what it is: int_type
    return int(value)


class Integral:
    """JSON Schema counts 3.0 as an integer; so does the service. ``true`` and "3" stay refused.

    An integer is taken as it is by pydantic-core (no Python call: a batch holds thousands); only
    a float is turned into the integer it is, if it is one. The constraints before the marker
    (``ge``, ``le``) are checked on the integer after, and the JSON Schema is theirs alone."""

    _FLOAT = core_schema.chain_schema(
        [
            core_schema.float_schema(strict=True, allow_inf_nan=False),
            core_schema.no_info_plain_validator_function(_whole),
        ]
    )
    _INTEGER = core_schema.union_schema(
        [core_schema.int_schema(strict=True), _FLOAT], custom_error_type="int_type"
    )

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.chain_schema([self._INTEGER, handler(source)])

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        while schema["type"] != "chain":  # under constraints added around it: ``JsonInt``'s
            schema = schema["schema"]
        return handler(schema["steps"][-1])


INTEGRAL = Integral()
# An integer as JSON Schema means it: 3 and 3.0, not true, not "3", not 3.5. A constrained one
# puts its constraints before the validator, ``Annotated[int, Field(strict=True, ge=0), INTEGRAL]``:
# added around ``JsonInt`` (or to ``JsonInt | None``), Pydantic still enforces them but writes
# them into the JSON Schema as raw ``ge``/``le``, which no client or fuzzer understands.
JsonInt = Annotated[int, Field(strict=True), INTEGRAL]


class NoMembers:
    """Marks a text that never holds a colon (squares), so no JSON object member either
    (``app.api.bodies.most_members``): a body's members stay countable."""

    members: ClassVar[int] = 0


class Body(BaseModel):
    """Base of every request body: a field the schema does not know is refused (422 naming it),
    so that a client's typo is an error, not a silently different request. Errors never echo
    the input (a hostile body is not sent back)."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)


# --- cells: a row and a column, or a square name ----------------------------------------------

# The validation context's member that holds the board's names (``Squares | None``) for a body
# that names no board of its own (a session's move: the game's board).
SQUARES = "squares"


@dataclass(frozen=True)
class SquareField:
    """A Pydantic marker for a square name in a request (``"f5"``, ``"F5"``): checked for its
    shape here (a letter and a row number; ``squares.PATTERN``), written in lower case; which
    cell it names depends on the board, so the body that holds it resolves it (``cell_of``).
    A name holds no colon, so no object member either (``bodies.most_members``)."""

    members: ClassVar[int] = 0

    @staticmethod
    def _shaped(value: Any) -> str:
        if not isinstance(value, str):
            raise PydanticCustomError("string_type", "a square is a string, such as f5")
        try:
            return squares.check_syntax(value)
        except squares.SquareError as error:
            raise PydanticCustomError(error.type, str(error)) from None

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(self._shaped)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "type": "string",
            "pattern": squares.PATTERN,
            "minLength": 2,
            "maxLength": squares.MAX_LENGTH,
            "examples": ["f5"],
        }


Square = Annotated[str, SquareField()]


def cell_error(
    field: str | tuple[str | int, ...], type: str, message: str, value: object
) -> ValidationError:
    """An error of the body's member ``field`` (or of the item at this path: its ``loc``),
    raised from a model's validator that checks several members together: the error names the
    member, not the model."""
    error = PydanticCustomError(type, message)
    loc = (field,) if isinstance(field, str) else field
    return ValidationError.from_exception_data(
        "cell", [InitErrorDetails(type=error, loc=loc, input=value)]
    )


def cell_of(
    row: int | None, col: int | None, square: str | None, board: squares.Squares | None
) -> tuple[int, int]:
    """The cell a body names: its ``row`` and ``col``, or its ``square`` on ``board`` (the
    board's names; None: it has none) — one way, not both. Raises the ValidationError that
    names the member at fault (a model's validator raises it as it is)."""
    if square is None:
        if row is not None and col is not None:
            return row, col
        if row is None and col is None:
            raise cell_error(
                "square", "missing", "a move names its cell: row and col, or square", None
            )
        absent = "col" if col is None else "row"
        raise cell_error(absent, "missing", f"{absent} is required with {_other(absent)}", None)
    if row is not None or col is not None:
        raise cell_error(
            "square", "square_and_cell", "give row and col, or square, not both", square
        )
    if board is None:
        raise cell_error(
            "square", "no_square_names",
            "this board has no square names (it is wider than 26 columns): give row and col",
            square,
        )  # fmt: skip
    try:
        return board.parse(square)
    except squares.SquareError as error:
        raise cell_error("square", error.type, str(error), square) from None


def _other(field: str) -> str:
    return "row" if field == "col" else "col"
