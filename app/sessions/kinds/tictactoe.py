"""n × n tic-tac-toe, k in a row wins (k = n by default; gomoku is n = 15, k = 5).

``TicTacToe.play`` checks a move (bounds, game over, turn, occupancy) before changing anything, so
a refused move leaves the game exactly as it was; an accepted move is adjudicated in O(1) whatever
n and k are: by the line counters (``rules/lines.py``) for k = n, by the run lengths kept at the
runs' ends (``rules/runs.py``) for k < n.

The move list is a flat ``array`` of (row, col) pairs — the player follows from the move's
number — rather than a list of ``Move`` objects: 8 bytes a move and nothing for Python's cycle
collector to walk. With one object per move, 200,000 stored moves made every full collection
take ~35 ms, which showed up as the moves endpoint's p99 latency.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping

from typing_extensions import TypedDict

from app.rules.lines import LineCounters
from app.rules.runs import RunLengths
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds
from app.sessions.kind import Move, Placement, Player, Reason, Status, Winner, other


class TicTacToeFacts(TypedDict):
    """What a tic-tac-toe game's state says of its kind."""

    n: int
    k: int


def player_of(seq: int) -> Player:
    """Player 1 (X) makes the odd-numbered moves."""
    return 1 if seq % 2 else 2


class TicTacToe:
    """The board of one n × n, k-in-a-row game: its win detector and the moves in order."""

    __slots__ = ("cells", "k", "lines", "n", "status", "winner")

    def __init__(self, n: int, k: int | None = None) -> None:
        self.n = n
        self.k = n if k is None else k
        self.lines: LineCounters | RunLengths = (
            LineCounters(n) if self.k == n else RunLengths(n, self.k)
        )
        self.cells: array[int] = array("i")  # row, col of each move
        self.status: Status = "in_progress"
        self.winner: Winner = 0

    @property
    def move_count(self) -> int:
        return len(self.cells) // 2

    @property
    def reason(self) -> Reason | None:
        if self.status == "won":
            return "line"
        return "board_full" if self.status == "draw" else None

    @property
    def next_player(self) -> Player | None:
        if self.status != "in_progress":
            return None
        return player_of(self.move_count + 1)

    def move(self, seq: int) -> Move:
        row, col = self.cells[2 * seq - 2], self.cells[2 * seq - 1]
        return Move(seq=seq, row=row, col=col, player=player_of(seq))

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, since + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

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

    def play(self, placement: Placement, player: Player) -> Move:
        self.check(placement, player)
        row, col = placement.row, placement.col
        self.cells.extend((row, col))
        if self.lines.play(row, col, player):
            self.status, self.winner = "won", player
        elif self.move_count == self.n * self.n:
            self.status = "draw"
        return Move(seq=self.move_count, row=row, col=col, player=player)

    def facts(self) -> TicTacToeFacts:
        return {"n": self.n, "k": self.k}

    def rows(self) -> list[str]:
        """The board as strings of ``X``, ``O``, ``.`` (O(n²): only for small n)."""
        grid = [["."] * self.n for _ in range(self.n)]
        for move in self.moves(0, self.move_count):
            grid[move.row][move.col] = "X" if move.player == 1 else "O"
        return ["".join(line) for line in grid]

    def encode(self) -> str:
        return ",".join(map(str, self.cells))


class TicTacToeKind:
    """The kind: makes positions, and encodes them and their moves for stores."""

    name = "tictactoe"
    dimensions = ("n",)
    position = TicTacToe

    def new(self, params: Mapping[str, object]) -> TicTacToe:
        n = _integer(params, "n")
        return self.position(n, _integer(params, "k") if "k" in params else n)

    def decode(self, params: Mapping[str, object], text: str) -> TicTacToe:
        position = self.new(params)
        cells = [int(value) for value in text.split(",")] if text else []
        for seq, (row, col) in enumerate(zip(cells[::2], cells[1::2], strict=True), start=1):
            position.play(Placement(row, col), player_of(seq))
        return position

    def encode_move(self, move: Move) -> str:
        return f"{move.row}:{move.col}"

    def decode_move(self, seq: int, text: str) -> Move:
        row, _, col = text.partition(":")
        return Move(seq=seq, row=int(row), col=int(col), player=player_of(seq))

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        return other(move.player), facts_now  # players alternate; the board's size is fixed


def _integer(params: Mapping[str, object], name: str) -> int:
    value = params[name]
    if not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    return value


KIND = TicTacToeKind()
