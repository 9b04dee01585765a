"""The cells a batch's queries name, read on the batch's board: one loop, in the route.

A batch of questions about one board (``check-moves`` of every board game) names each query's
cell by ``row`` and ``col`` or by ``square``. Which cell a square is depends on the board, so
the queries are read here, after the body's validation, rather than by a validator of each: a
thousand queries are parsed by pydantic-core alone, a query that gives its row and col costs two
comparisons here, and answering them makes nothing new of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from app.contract.fields import cell_of
from app.contract.squares import Squares


class CellQuery(Protocol):
    """A query that names a cell: its row and col, or its square."""

    row: int | None
    col: int | None
    square: str | None


def read_query_cells(
    queries: Sequence[CellQuery], rows: int, cols: int, squares: Squares | None
) -> None:
    """Each query's cell: a square is read on the board (``squares``: its names, None if it
    has none) and the query rewritten as the ``row`` and ``col`` it names (as if sent so:
    reading again changes nothing); a RequestValidationError names every query whose cell is
    not one (its index and member: both a square and a cell, neither, a square the board does
    not have, a row or col outside it)."""
    errors: list[dict[str, Any]] = []
    for index, query in enumerate(queries):
        row, col = query.row, query.col
        if query.square is None and row is not None and col is not None:
            if row < rows and col < cols:
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
            query.row, query.col = cell_of(row, col, query.square, squares)
            query.square = None
        except ValidationError as error:
            errors += [
                {**e, "loc": ("body", "queries", index, *e["loc"])}
                for e in error.errors(include_url=False, include_input=False)
            ]
    if errors:
        raise RequestValidationError(errors)
