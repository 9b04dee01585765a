"""n × n tic-tac-toe, k in a row wins (k = n by default; gomoku is n = 15, k = 5).

``TicTacToe.play`` checks a move (bounds, game over, turn, occupancy) before changing anything, so
a refused move leaves the game exactly as it was; an accepted move is adjudicated in O(1) whatever
n and k are: by the line counters (``rules/lines.py``) for k = n, by the run lengths kept at the
runs' ends (``rules/runs.py``) for k < n.

The move list is a flat ``array`` of (row, col) pairs — the player follows from the move's
number — rather than a list of ``Move`` objects: 8 bytes a move and nothing for Python's cycle
collector to walk. With one object per move, 200,000 stored moves made every full collection
take ~35 ms, which showed up as the moves endpoint's p99 latency.

The kind's stateless question, ``validate`` (can a posted position occur in a legal game, and
whose turn is it: ``VALIDATE``), is declared on its face; the edge mounts it under
``/v1/tictactoe`` beside its batch (``app.api.tictactoe``'s ``validate-batch``).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Annotated, ClassVar, Literal, NotRequired

from pydantic import Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from app.contract.boards import TicTacToeBoard
from app.contract.fields import INTEGRAL, Body, JsonInt
from app.contract.games import (
    EARLY_DRAW_DOC,
    KIND_DOC,
    LARGEST_N,
    LAST_MOVE,
    TOKENS_DOC,
    CreateIn,
    Face,
    GameCommon,
    MoveOut,
    Question,
    Tokens,
    within_max_side,
)
from app.contract.problems import CELL_REFUSALS
from app.contract.stateless import ValidateResponse
from app.rules import tictactoe
from app.rules.dead import Liveness
from app.rules.lines import LineCounters
from app.rules.runs import RunLengths
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds
from app.sessions.kind import (
    NO_LEGAL_MOVES,
    Alternating,
    FastPath,
    LegalMove,
    LegalMoves,
    Move,
    Placement,
    Played,
    Player,
    Reason,
    Status,
    Winner,
    cell_page,
    early_draw_param,
    free_cells,
    other,
)


class TicTacToeFacts(TypedDict):
    """What a tic-tac-toe game's state says of its kind."""

    n: int
    k: int
    early_draw: NotRequired[Annotated[bool, Field(description=EARLY_DRAW_DOC)]]


class TicTacToeGameOut(GameCommon, TicTacToeFacts):
    """An n × n tic-tac-toe game, k in a row wins."""

    game: Annotated[Literal["tictactoe"], Field(description=KIND_DOC)]
    last_move: Annotated[MoveOut | None, LAST_MOVE]


class CreatedTicTacToeOut(TicTacToeGameOut):
    tokens: Annotated[Tokens, Field(description=TOKENS_DOC)]


class TicTacToeBoardOut(TypedDict):
    n: int
    rows: Annotated[list[str], Field(description="`X` (player 1), `O` (player 2), `.` empty.")]


class CreateTicTacToeIn(CreateIn):
    """An n × n tic-tac-toe game: k in a row wins (a longer run too); k is n unless given."""

    kind: ClassVar[str] = "tictactoe"
    game: Literal["tictactoe"] = Field(
        "tictactoe", description="The game's kind; without it, tic-tac-toe."
    )
    n: JsonInt = Field(ge=1, le=LARGEST_N, description="Board side.")
    k: Annotated[int, Field(strict=True, ge=1, le=LARGEST_N), INTEGRAL] | None = Field(
        None, description="Stones in a row that win, at most n; n if not given (gomoku: 5)."
    )
    early_draw: bool = Field(False, strict=True, description=EARLY_DRAW_DOC)

    @field_validator("n")
    @classmethod
    def _at_most_max_n(cls, value: int, info: ValidationInfo) -> int | None:
        return within_max_side("n", value, info)

    @field_validator("k")
    @classmethod
    def _k_at_most_n(cls, k: int | None, info: ValidationInfo) -> int | None:
        n = info.data.get("n")  # absent if n itself was refused
        if k is not None and n is not None and k > n:
            raise PydanticCustomError("k_over_n", "k must be at most n = {n}", {"n": n})
        return k

    def params(self) -> dict[str, object]:
        params: dict[str, object] = {"n": self.n, "k": self.n if self.k is None else self.k}
        if self.early_draw:
            params["early_draw"] = True
        return params


def player_of(seq: int) -> Player:
    """Player 1 (X) makes the odd-numbered moves."""
    return 1 if seq % 2 else 2


class TicTacToe:
    """The board of one n × n, k-in-a-row game: its win detector and the moves in order."""

    __slots__ = ("cells", "ended", "k", "lines", "liveness", "n", "status", "winner")

    def __init__(self, n: int, k: int | None = None, early_draw: bool = False) -> None:
        self.n = n
        self.k = n if k is None else k
        self.lines: LineCounters | RunLengths = (
            LineCounters(n) if self.k == n else RunLengths(n, self.k)
        )
        self.cells: array[int] = array("i")  # row, col of each move
        self.status: Status = "in_progress"
        self.winner: Winner = 0
        self.ended: Reason | None = None
        # With early_draw, the windows each player can still fill (``rules/dead.py``).
        self.liveness = Liveness(n, self.k) if early_draw else None

    @property
    def move_count(self) -> int:
        return len(self.cells) // 2

    @property
    def reason(self) -> Reason | None:
        return self.ended

    @property
    def next_player(self) -> Player | None:
        if self.status != "in_progress":
            return None
        return player_of(self.move_count + 1)

    def move(self, seq: int) -> Move:
        row, col = self.cells[2 * seq - 2], self.cells[2 * seq - 1]
        return Move(seq, Placement(row, col), player_of(seq))

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, since + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """Every empty cell, row-major. The occupied cells are the detector's (keyed by the
        same index, ``row * n + col``), so a page costs its cells and the marks it skips."""
        if self.status != "in_progress":
            return NO_LEGAL_MOVES
        total, occupied = self.n * self.n, self.lines.cells
        page, next_after = cell_page(free_cells(total, occupied, after + 1), self.n, limit)
        moves = tuple(LegalMove(cell) for cell in page)
        return LegalMoves(total - len(occupied), moves, next_after)

    def check(self, placement: Placement, player: Player) -> None:
        """Raise the rule error that refuses this move, if any. Changes nothing."""
        row, col = placement.row, placement.col
        if not (0 <= row < self.n and 0 <= col < self.n):
            raise OutOfBounds(row, col, self.n)
        next_player = self.next_player
        if next_player is None:
            raise GameOver(self.status, self.winner, self.reason)
        if player != next_player:
            raise NotYourTurn(player, next_player)
        if self.lines.owner(row, col) is not None:
            raise CellOccupied(row, col)

    def play(self, played: Played, player: Player) -> Move:
        placement = Placement.of(played)
        self.check(placement, player)
        row, col = placement.row, placement.col
        self.cells.extend((row, col))
        lines = self.lines
        if lines.play(row, col, player):
            self.status, self.winner, self.ended = "won", player, "line"
        elif self.move_count == self.n * self.n:
            self.status, self.ended = "draw", "board_full"
        elif self.liveness is not None:
            self.liveness.played(lambda r, c: lines.owner(r, c) or 0, row, col, player)
            if self.liveness.dead(self.n * self.n - self.move_count, other(player)):
                self.status, self.ended = "draw", "dead_position"
        return Move(self.move_count, placement, player)

    def undo(self, taken: Sequence[Move], before: Move | None) -> None:
        lines, liveness = self.lines, self.liveness
        for move in reversed(taken):
            cell = Placement.of(move.played)
            if liveness is not None:  # read with the stone still there
                liveness.played(lambda r, c: lines.owner(r, c) or 0, cell.row, cell.col,
                                move.player, by=-1)  # fmt: skip
            lines.remove(cell.row, cell.col)
        del self.cells[2 * (len(self.cells) // 2 - len(taken)) :]
        self.status, self.winner, self.ended = "in_progress", 0, None

    def facts(self) -> TicTacToeFacts:
        if self.liveness is not None:
            return {"n": self.n, "k": self.k, "early_draw": True}
        return {"n": self.n, "k": self.k}

    def rows(self) -> list[str]:
        """The board as strings of ``X``, ``O``, ``.`` (O(n²): only for small n)."""
        grid = [["."] * self.n for _ in range(self.n)]
        for seq, (row, col) in enumerate(
            zip(self.cells[::2], self.cells[1::2], strict=True), start=1
        ):
            grid[row][col] = "X" if player_of(seq) == 1 else "O"
        return ["".join(line) for line in grid]

    def encode(self) -> str:
        return ",".join(map(str, self.cells))


# --- the stateless question ---------------------------------------------------------------------


class ValidateRequest(Body):
    board: TicTacToeBoard
    k: Annotated[int, Field(strict=True, ge=1), INTEGRAL] | None = Field(
        None, description="Marks in a row that win, 1 ≤ k ≤ n; default n."
    )

    @field_validator("k")
    @classmethod
    def _at_most_n(cls, value: int | None, info: ValidationInfo) -> int | None:
        board: tuple[str, ...] | None = info.data.get("board")
        if value is not None and board is not None and value > len(board):
            raise PydanticCustomError("k_too_large", "k must be at most n = {n}", {"n": len(board)})
        return value


def verdict_json(verdict: tictactoe.Verdict) -> ValidateResponse:
    return {
        "valid": verdict.valid,
        "reason": verdict.reason,
        "status": verdict.status,
        "next": verdict.next,
        "winner": verdict.winner,
        "counts": {"X": verdict.x_count, "O": verdict.o_count},
    }


def validate_answer(query: ValidateRequest) -> ValidateResponse:
    """The answer of ``validate`` (and of ``adjudicator check tictactoe``; of each item of
    ``validate-batch``: ``position_answer``)."""
    return position_answer((query.board, query.k))


def position_answer(position: tuple[tuple[str, ...], int | None]) -> ValidateResponse:
    """The answer of ``validate`` about a board and its k (None: n)."""
    return verdict_json(tictactoe.check_position(*position))


VALIDATE = Question(
    path="/validate",
    name="validate",
    endpoint="validate_position",
    body=ValidateRequest,
    examples={
        "classic": {
            "summary": "Classic 3 × 3: valid, X to move",
            "value": {"board": ["XOX", "O O", "XOX"]},
        },
        "five_in_a_row": {
            "summary": "5 × 5 board, 3 in a row wins",
            "value": {"board": ["XXX..", "OO...", ".....", ".....", "....."], "k": 3},
        },
    },
    answer=validate_answer,
    response_model=ValidateResponse,
    summary="Can this position occur in a legal game? Whose turn is it?",
    description="X moves first, players alternate, play stops at the first k in a row (row, "
    "column or diagonal) or a full board. Closed-form check, no search: fine up to 100 × 100.",
    offline=(),
)


class TicTacToeKind(Alternating):
    """The kind: makes positions, and encodes them and their moves for stores."""

    name = "tictactoe"
    dimensions = ("n",)
    position = TicTacToe
    # Every game on a store's line engine: k in a row on an n × n board, cells one at a time.
    rules: tuple[str, ...] = ()
    fast_path = FastPath(
        "lines", lambda params: True,
        lambda p: {"n": p["n"], "k": p.get("k", p["n"]), **early_draw_param(p)},
    )  # fmt: skip
    face = Face(
        title="Tic-tac-toe",
        create=CreateTicTacToeIn,
        examples={
            "classic": {"summary": "Classic 3 × 3", "value": {"n": 3}},
            "gomoku": {
                "summary": "15 × 15, five in a row (as freestyle gomoku)",
                "value": {"game": "tictactoe", "n": 15, "k": 5},
            },
            "blitz": {
                "summary": "Five in a row with clocks: 3 minutes each, 2 seconds a move",
                "value": {
                    "game": "tictactoe",
                    "n": 15,
                    "k": 5,
                    "clock": {"initial_seconds": 180, "increment_seconds": 2},
                },
            },
        },
        state=TicTacToeGameOut,
        created=CreatedTicTacToeOut,
        record=MoveOut,
        board=TicTacToeBoardOut,
        known_as="n × n tic-tac-toe",
        row_one="bottom",  # as gomoku's and renju's players write it (RIF): a1 bottom left
        refusals=CELL_REFUSALS,
        page={"marks": {"1": "X", "2": "O"}, "empty": ".", "names": {"1": "X", "2": "O"}},
        questions=(VALIDATE,),
    )

    def new(self, params: Mapping[str, object]) -> TicTacToe:
        n = _integer(params, "n")
        k = _integer(params, "k") if "k" in params else n
        return self.position(n, k, early_draw=params.get("early_draw") is True)

    def decode(self, params: Mapping[str, object], text: str) -> TicTacToe:
        position = self.new(params)
        cells = [int(value) for value in text.split(",")] if text else []
        for seq, (row, col) in enumerate(zip(cells[::2], cells[1::2], strict=True), start=1):
            position.play(Placement(row, col), player_of(seq))
        return position

    def encode_move(self, move: Move) -> str:
        return move.played.text()  # row:col

    def decode_move(self, seq: int, text: str) -> Move:
        row, _, col = text.partition(":")
        return Move(seq, Placement(int(row), int(col)), player_of(seq))


def _integer(params: Mapping[str, object], name: str) -> int:
    value = params[name]
    if not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    return value


KIND = TicTacToeKind()
