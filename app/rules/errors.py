"""The root of every error the domain reports, and the root of the rules' own: RuleError.

The rules are the innermost layer (they import nothing of the app), so the root every domain
error shares lives here; the sessions add theirs under it, grouped by meaning
(``sessions/errors.py``). Each concrete error carries a stable snake_case ``code``; the HTTP edge
gives each its status and title in one table (``api/problems.py``), so the domain never knows
about HTTP.
"""

from collections.abc import Callable, Mapping
from typing import ClassVar, Self

# How a game names a cell (row, col): its square's name (``f5``), or None where it has none (a
# board wider than 26 columns).
CellNames = Callable[[int, int], str | None]


class DomainError(Exception):
    """Something the domain refuses or cannot do. ``code`` is what clients branch on."""

    code: ClassVar[str]
    replayed = False  # True: the first answer to a request, given again (Idempotency-Key)

    def details(self) -> dict[str, object]:
        """Machine-readable facts about the error (JSON-compatible values)."""
        return {}

    def described(self, names: CellNames | None) -> str:
        """The message, with the cells it speaks of named as the game names them, where it
        can (``CellError``); the message itself otherwise."""
        return str(self)

    def copy(self, *, replayed: bool = False) -> Self:
        """The same error as a fresh value: no traceback (nor the frames it holds), so it can be
        kept as a receipt and raised again."""
        fresh = type(self).restored(self.args, vars(self))
        fresh.replayed = replayed
        return fresh

    @classmethod
    def restored(cls, args: tuple[object, ...], attributes: Mapping[str, object]) -> Self:
        """The error with these exception arguments and attributes, as it was kept (in a
        receipt), without calling ``__init__`` again."""
        fresh = cls.__new__(cls)
        Exception.__init__(fresh, *args)
        fresh.__dict__.update(attributes)
        return fresh


class RuleError(DomainError):
    """A move that breaks a rule of the game. It is refused and changes nothing."""


class CellError(RuleError):
    """A move refused for what stands on its cell (occupied, brackets nothing). The message
    writes the cell as ``(row, col)``; ``described`` writes it as the game names its squares as
    well, ``f5 (4, 5)``, where the caller knows the names (an audit, which knows the board)."""

    row: int
    col: int

    def __init__(self, row: int, col: int) -> None:
        self.row, self.col = row, col
        super().__init__(self.saying(f"({row}, {col})"))

    def saying(self, cell: str) -> str:
        """The message, with the cell written as ``cell``."""
        raise NotImplementedError

    def described(self, names: CellNames | None) -> str:
        square = None if names is None else names(self.row, self.col)
        if square is None:
            return str(self)
        return self.saying(f"{square} ({self.row}, {self.col})")
