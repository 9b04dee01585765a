"""The answers of the stateless questions (Reversi, the tic-tac-toe position check, gomoku), as
clients receive them: the routes return these shapes, and the OpenAPI document (from which the
Python client's types are generated) declares them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal, NotRequired

from pydantic import Field, WithJsonSchema
from typing_extensions import TypedDict

from app.contract.squares import Squares
from app.rules import gomoku, tictactoe
from app.rules.colors import Color

Cell = Annotated[
    tuple[int, int],
    WithJsonSchema({
        "type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
        "description": "[row, col]", "examples": [[3, 3]],
    }),
]  # fmt: skip


FLIP_SQUARES_DOC = (
    "The square names of `flips`, in the same order (`flips` are pairs, which cannot carry a "
    "name; rows counted from the top, as Othello players write them: `a1` is row 0, col 0). "
    "Present where the board has names (at most 26 columns), absent otherwise."
)
SQUARE_DOC = (
    "The cell's square name (`d3` is row 2, col 3: rows counted from the top, as Othello "
    "players write them). Present where the board has names (at most 26 columns), absent "
    "otherwise."
)


class CheckMoveResponse(TypedDict):
    legal: bool
    reason: Annotated[
        Literal["occupied", "no_bracket"] | None,
        Field(description="Why the move is illegal; null when legal."),
    ]
    flips: Annotated[
        list[Cell], Field(description="Stones that flip, sorted by (row, col); [] if illegal.")
    ]
    flip_squares: NotRequired[Annotated[list[str], Field(description=FLIP_SQUARES_DOC)]]


class LegalMove(TypedDict):
    row: int
    col: int
    square: NotRequired[Annotated[str, Field(description=SQUARE_DOC)]]
    flips: Annotated[int, Field(description="How many stones this move flips.")]


class LegalMovesResponse(TypedDict):
    color: Color
    moves: Annotated[list[LegalMove], Field(description="Sorted by (row, col).")]
    count: int
    must_pass: Annotated[bool, Field(description="True when `color` has no legal move.")]


class Score(TypedDict):
    B: int
    W: int


class CheckMovesResponse(TypedDict):
    results: Annotated[
        list[CheckMoveResponse], Field(description="One answer per query, in order.")
    ]


class ApplyMoveResponse(TypedDict):
    board: Annotated[list[str], Field(description="The board after the move, as strings.")]
    flips: list[Cell]
    flip_squares: NotRequired[Annotated[list[str], Field(description=FLIP_SQUARES_DOC)]]
    next: Annotated[
        Color | None,
        Field(
            description="Who moves next: the opponent if it can, else `color` again (the "
            "opponent passes), else null (game over)."
        ),
    ]
    passed: Annotated[bool, Field(description="True when the opponent has no move and must pass.")]
    game_over: bool
    score: Score
    winner: Annotated[
        Literal["B", "W", "draw"] | None, Field(description="Set only when the game is over.")
    ]
    final_score: Annotated[
        Score | None,
        Field(
            description="Set only when the game is over: the score as the World Othello "
            "Federation counts it, each colour's stones and the empty squares to the winner "
            "(split equally on a draw, an odd one left over given to nobody)."
        ),
    ]


class Counts(TypedDict):
    X: int
    O: int  # noqa: E741 - the mark's name


class ValidateResponse(TypedDict):
    valid: Annotated[bool, Field(description="True iff the position can occur in a legal game.")]
    reason: Annotated[
        tictactoe.Reason | None,
        Field(
            description="Why not, when invalid: `bad_counts`, `both_won`, `x_won_but_o_moved`, "
            "`o_won_but_x_moved`, `play_after_win` (the winner's lines cannot all have been "
            "completed by one last move)."
        ),
    ]
    status: tictactoe.Status | None
    next: Annotated[
        Literal["X", "O"] | None, Field(description="Whose turn; null once the game is over.")
    ]
    winner: Literal["X", "O"] | None
    counts: Counts


class ValidateBatchResponse(TypedDict):
    results: Annotated[list[ValidateResponse], Field(description="One answer per item, in order.")]


class LineOut(TypedDict):
    shape: Annotated[gomoku.Shape, Field(description="`five`, `overline`, `four` or `three`.")]
    cells: Annotated[
        list[tuple[int, int]], Field(description="The stones that form it, the move's included.")
    ]
    squares: NotRequired[
        Annotated[
            list[str],
            Field(description="The same cells' square names (only on boards of ≤ 26 columns)."),
        ]
    ]


def lines_out(lines: Iterable[gomoku.Line], squares: Squares | None) -> list[LineOut]:
    """The shapes a gomoku move makes, as answers show them: with their cells' square names
    beside the cells, where the board has names."""
    shown: list[LineOut] = []
    for line in lines:
        cells = list(line.cells)
        out: LineOut = {"shape": line.shape, "cells": cells}
        if squares is not None:
            out["squares"] = squares.names(cells)
        shown.append(out)
    return shown
