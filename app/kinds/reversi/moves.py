"""How Othello players write a game's moves: square names counted from the top row (``a1`` the
top-left corner, as WTHOR, GGF and transcripts write it: ``ROW_ONE``), and a game's moves as a
body gives them (``WrittenMoves``: a transcript or a list of squares), read by a creation
body's ``opening`` and by ``apply-move``'s ``moves``."""

from __future__ import annotations

from typing import Annotated

from pydantic import PlainValidator, ValidationError, WithJsonSchema
from pydantic_core import InitErrorDetails, PydanticCustomError

from app.contract.fields import NoMembers
from app.contract.squares import RowOne

# The row Othello's square names number 1: the top one. The kind's face says it (``row_one``),
# and its questions read and write squares by it.
ROW_ONE: RowOne = "top"

# An opening is at most every square of the largest board with names (26 × 32 cells, 4 letters
# a square at most), as a transcript or a list.
OPENING_TEXT = 26 * 32 * 4


MOST_SQUARES = 26 * 32  # the squares of the largest board with names
SQUARE_TEXT = 8  # characters of a square name at most (a letter and a row number)


def _written_moves(value: object) -> str | list[str]:
    """A game's moves as a body writes them: a transcript (a string of at most
    ``OPENING_TEXT`` characters) or a list of at most ``MOST_SQUARES`` strings; a
    ValidationError naming the item that is not one (``loc`` its index), else the member."""
    if isinstance(value, str):
        if len(value) > OPENING_TEXT:
            raise PydanticCustomError(
                "string_too_long",
                "a transcript has at most {max} characters",
                {"max": OPENING_TEXT},
            )
        return value
    if not isinstance(value, list):
        raise PydanticCustomError(
            "moves_type", "moves are a transcript (a string, f5d6c3) or a list of squares"
        )
    if len(value) > MOST_SQUARES:
        raise PydanticCustomError(
            "too_long", "a list of moves has at most {max} squares", {"max": MOST_SQUARES}
        )
    for index, item in enumerate(value):
        if not isinstance(item, str) or len(item) > SQUARE_TEXT:
            raise ValidationError.from_exception_data(
                "moves",
                [
                    InitErrorDetails(
                        type=PydanticCustomError(
                            "square_syntax", "a square is a string such as f5 or h10"
                        ),
                        loc=(index,),
                        input=item,
                    )
                ],
            )
    return value


# A game's moves, written one of the two ways players write them: one schema, one validator,
# errors located in the body (``moves``, or its item), not in a union's branches.
WrittenMoves = Annotated[
    str | list[str],
    PlainValidator(_written_moves),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "maxLength": OPENING_TEXT, "examples": ["f5d6c3d3c4"]},
                {
                    "type": "array",
                    "items": {"type": "string", "maxLength": SQUARE_TEXT},
                    "maxItems": MOST_SQUARES,
                },
            ]
        }
    ),
    NoMembers(),
]
