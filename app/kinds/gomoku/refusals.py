"""The refusals gomoku's rules add to a session's: Black's move on a renju forbidden point
(409 ``forbidden_move``, with the shapes that make it so), and a pass under a rule without
passes."""

from __future__ import annotations

from collections.abc import Sequence

from app.contract.problems import ILLEGAL_SESSION_MOVE, Refusal, refusal
from app.contract.squares import Squares
from app.contract.stateless import LineOut, lines_out
from app.rules import gomoku
from app.rules.errors import RuleError
from app.rules.gomoku import RENJU_SIZE, GomokuBoard
from app.sessions.errors import PassNotAllowed

FORBIDDEN_WORDS: dict[gomoku.Forbidden, str] = {
    "overline": "an overline", "double_four": "a double-four", "double_three": "a double-three",
}  # fmt: skip
SQUARES = Squares.of(RENJU_SIZE, RENJU_SIZE, "bottom")  # renju's board: the one with fouls


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
