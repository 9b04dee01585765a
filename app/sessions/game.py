"""The Game aggregate: one n × n tic-tac-toe session, its moves, and its rules.

``Game.play`` checks a move (bounds, game over, turn, occupancy) before changing anything, so a
refused move leaves the game exactly as it was; an accepted move is adjudicated in O(1) by the
line counters. Snapshots (``GameState``, ``Move``) are immutable values for the HTTP edge.

The move list is a flat ``array`` of (row, col) pairs — the player follows from the move's
number — rather than a list of ``Move`` objects: 8 bytes a move and nothing for Python's cycle
collector to walk. With one object per move, 200,000 stored moves made every full collection
take ~35 ms, which showed up as the moves endpoint's p99 latency.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Literal

from app.rules.lines import LineCounters, Player
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds

Status = Literal["in_progress", "won", "draw"]
Winner = Literal[0, 1, 2]  # 0: nobody (yet)


@dataclass(frozen=True, slots=True)
class Move:
    seq: int
    row: int
    col: int
    player: Player


@dataclass(frozen=True, slots=True)
class GameState:
    id: str
    n: int
    status: Status
    winner: Winner
    next_player: Player | None
    version: int
    move_count: int
    last_move: Move | None


@dataclass(frozen=True, slots=True)
class MoveResult:
    winner: Winner
    move: Move
    state: GameState
    replayed: bool = False  # the answer to a retried request (same Idempotency-Key and body)


def next_player_of(status: Status, version: int) -> Player | None:
    """Who moves after ``version`` moves, or None once the game is over."""
    if status != "in_progress":
        return None
    return 1 if version % 2 == 0 else 2


def result_at(game_id: str, n: int, move: Move, now: GameState) -> MoveResult:
    """The answer a move got when it was accepted, rebuilt from the game as it is ``now``.

    Right after move ``seq`` the game was at version ``seq``, and it was over only if no move
    came after it, so the state at that moment follows from the move and the current state.
    """
    last = move.seq == now.version
    status: Status = now.status if last else "in_progress"
    winner: Winner = now.winner if last else 0
    state = GameState(
        game_id, n, status, winner, next_player_of(status, move.seq), move.seq, move.seq, move
    )
    return MoveResult(winner=winner, move=move, state=state, replayed=True)


@dataclass(slots=True)
class Game:
    id: str
    n: int
    token_hashes: tuple[str, str]  # players 1 and 2
    lines: LineCounters = field(init=False)
    cells: array[int] = field(default_factory=lambda: array("i"))  # row, col of each move
    status: Status = "in_progress"
    winner: Winner = 0

    def __post_init__(self) -> None:
        self.lines = LineCounters(self.n)

    @property
    def next_player(self) -> Player | None:
        return next_player_of(self.status, self.version)

    @property
    def version(self) -> int:
        """How many moves were accepted."""
        return len(self.cells) // 2

    def move(self, seq: int) -> Move:
        """Move number ``seq`` (1-based; the caller checks 1 ≤ seq ≤ version)."""
        row, col = self.cells[2 * seq - 2], self.cells[2 * seq - 1]
        return Move(seq=seq, row=row, col=col, player=1 if seq % 2 else 2)

    def moves(self, since: int = 0, limit: int | None = None) -> list[Move]:
        """The moves with ``seq > since``, in order, at most ``limit``."""
        last = self.version if limit is None else min(self.version, since + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def state(self) -> GameState:
        return GameState(
            id=self.id,
            n=self.n,
            status=self.status,
            winner=self.winner,
            next_player=self.next_player,
            version=self.version,
            move_count=self.version,
            last_move=self.move(self.version) if self.version else None,
        )

    def check(self, row: int, col: int, player: Player) -> None:
        """Raise the rule error that refuses this move, if any. Changes nothing."""
        if not (0 <= row < self.n and 0 <= col < self.n):
            raise OutOfBounds(row, col, self.n)
        next_player = self.next_player
        if next_player is None:
            raise GameOver(self.status, self.winner)
        if player != next_player:
            raise NotYourTurn(player, next_player)
        if self.lines.owner(row, col) is not None:
            raise CellOccupied(row, col)

    def play(self, row: int, col: int, player: Player) -> MoveResult:
        """Apply a legal move, or raise without changing anything."""
        self.check(row, col, player)
        self.cells.extend((row, col))
        move = Move(seq=self.version, row=row, col=col, player=player)
        if self.lines.play(row, col, player):
            self.status, self.winner = "won", player
        elif self.version == self.n * self.n:
            self.status = "draw"
        return MoveResult(winner=self.winner, move=move, state=self.state())

    def rows(self) -> list[str]:
        """The board as strings of ``X``, ``O``, ``.`` (O(n²): only for small n)."""
        grid = [["."] * self.n for _ in range(self.n)]
        for move in self.moves():
            grid[move.row][move.col] = "X" if move.player == 1 else "O"
        return ["".join(line) for line in grid]
