"""The cells a batch's queries name, read on the batch's board: one loop, in the route.

A batch of questions about one board (``check-moves`` of every board game) names each query's
cell by ``row`` and ``col`` or by ``square``. Which cell a square is depends on the board, so
the queries are read here, after the body's validation, rather than by a validator of each: a
thousand queries are parsed by pydantic-core alone into plain dicts (a batch's query is a
TypedDict: no object, no Python call a query), a query that gives its row and col costs two
comparisons here, and the batch's questions come out as one list of ``(row, col, color)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from app.contract.fields import cell_of
from app.contract.squares import Squares
from app.rules.colors import Color

# One question of a batch, its cell read: (row, col, color).
Asked = tuple[int, int, Color]


def read_query_cells(
    queries: Sequence[Mapping[str, Any]], rows: int, cols: int, squares: Squares | None
) -> list[Asked]:
    """Each query's question, ``(row, col, color)``: its ``row`` and ``col``, or its ``square``
    read on the board (``squares``: its names, None if it has none); a RequestValidationError
    names every query whose cell is not one (its index and member: both a square and a cell,
    neither, a square the board does not have, a row or col outside it)."""
    asked: list[Asked] = []
    errors: list[dict[str, Any]] = []
    for index, query in enumerate(queries):
        row, col, square = query["row"], query["col"], query["square"]
        if square is None and row is not None and col is not None:
            if row < rows and col < cols:
                asked.append((row, col, query["color"]))
                continue
            for field, value, size in (("row", row, rows), ("col", col, cols)):
                if value >= size:
                    errors.append(
                        {
                            "loc": ("body", "queries", index, field),
                            "msg": f"{field} must be less than {size}",
                            "type": "outside_board",
                        }
                    )
            continue
        try:  # a square, or a query that names its cell wrongly
            row, col = cell_of(row, col, square, squares)
        except ValidationError as error:
            errors += [
                {**e, "loc": ("body", "queries", index, *e["loc"])}
                for e in error.errors(include_url=False, include_input=False)
            ]
            continue
        asked.append((row, col, query["color"]))
    if errors:
        raise RequestValidationError(errors)
    return asked
