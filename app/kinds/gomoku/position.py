"""One gomoku game's position: its stones, who moves, how it stands, and its moves in order;
a move is adjudicated by reading at most five cells each way from it (``Gomoku.play`` checks
the cell, the turn, the swap2 step and the rule before it places anything)."""

from __future__ import annotations

import json
from array import array
from collections.abc import Mapping, Sequence
from typing import Literal

from app.contract.squares import Squares
from app.contract.stateless import lines_out
from app.kinds.gomoku.answers import Foul, GomokuFacts
from app.kinds.gomoku.moves import CHOICE, COLORS, PASS, array_row, color_of, encode_move
from app.kinds.gomoku.refusals import ForbiddenMove
from app.kinds.gomoku.swap2 import (
    FIXED_COLORS,
    PLACE_TWO,
    PLACED_BY,
    SWAP2,
    TO_ACT,
    WANTED,
    Step,
    Swap2Choice,
    flip,
    opening_facts,
)
from app.rules import gomoku
from app.rules.colors import Color
from app.rules.dead import Liveness
from app.rules.gomoku import FIVE, GomokuBoard, Rule
from app.sessions.errors import (
    NO_OPENING_CHOICE,
    CellOccupied,
    GameOver,
    NotYourTurn,
    OutOfBounds,
    PassNotAllowed,
    WrongStep,
)
from app.sessions.kind import (
    NO_LEGAL_MOVES,
    LegalMove,
    LegalMoves,
    Move,
    Pass,
    Placement,
    Played,
    Player,
    Reason,
    Status,
    Winner,
    cell_page,
    free_cells,
    other,
)

STONE: dict[Color | None, Literal[1, 2]] = {"B": 1, "W": 2}  # a colour as rules/dead.py counts it


class _Occupied:
    """The cells of a board that hold a stone, or that Black may not take, by cell index
    (``row * size + col``), as ``free_cells`` asks."""

    __slots__ = ("barred", "cells", "size")

    def __init__(self, board: GomokuBoard, barred: frozenset[int] = frozenset()) -> None:
        self.cells, self.size, self.barred = board.cells, board.size, barred

    def __contains__(self, index: object) -> bool:
        assert isinstance(index, int)
        return index in self.barred or divmod(index, self.size) in self.cells


class Gomoku:
    """One gomoku game: its stones, who moves, how it stands, and its moves in order — all of
    them, or (a position a store rebuilt from ``encode``'s text) those from move ``first`` on.

    ``turn`` is the colour to move; ``colors`` each seat's colour (None while a swap2 opening
    has not fixed them); ``step`` the swap2 step pending (None: none). ``opened`` keeps, for
    each move of a swap2 opening, the facts it left (``opening_facts``): who acts after it does
    not follow from the colours as it does later."""

    __slots__ = (
        "board", "colors", "ended", "first", "foul", "liveness", "opened", "passes", "played",
        "rule", "status", "step", "swap2", "turn", "winner",
    )  # fmt: skip

    def __init__(
        self,
        size: int,
        rule: Rule,
        foul: Foul = "refuse",
        first: int = 1,
        swap2: bool = False,
        early_draw: bool = False,
    ) -> None:
        self.board = GomokuBoard(size)
        self.rule: Rule = rule
        self.foul: Foul = foul
        self.first = first  # the number of the first move in ``played``
        self.played: array[int] = array("i")  # row, col, player, colour of each move
        self.status: Status = "in_progress"
        self.winner: Winner = 0
        self.ended: Reason | None = None
        self.passes = 0  # passes in a row, up to now
        self.turn: Color = "B"
        self.swap2 = swap2
        self.step: Step | None = "place_three" if swap2 else None
        self.colors: tuple[Color, Color] | None = None if swap2 else ("B", "W")
        self.opened: dict[int, Mapping[str, object]] = {}
        # With early_draw, the windows each colour can still fill (``rules/dead.py``).
        self.liveness = Liveness(size, FIVE, rule == "standard") if early_draw else None

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def move_count(self) -> int:
        return self.first - 1 + len(self.played) // 4

    @property
    def reason(self) -> Reason | None:
        return self.ended

    @property
    def next_player(self) -> Player | None:
        if self.status != "in_progress":
            return None
        step = self.step
        if step is not None:
            return TO_ACT[step]
        colors = self.colors
        assert colors is not None, "fixed once no step is pending"
        return 1 if colors[0] == self.turn else 2

    def move(self, seq: int) -> Move:
        if seq < self.first:
            raise LookupError(f"move {seq} is in the store's move list, not in this position")
        at = 4 * (seq - self.first)
        row, col, player, color = self.played[at : at + 4]
        mover: Player = 1 if player == 1 else 2
        played: Played
        facts: dict[str, object] = {"color": COLORS[color]}
        if row == PASS:
            played = Pass()
        elif row == CHOICE:
            played = Swap2Choice(PLACE_TWO if col else COLORS[color])
            if col:
                facts = {}
        else:
            played = Placement(row, col)
        return Move(seq, played, mover, facts, self.opened.get(seq))

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, max(since, 0) + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """Every empty cell, row-major; in renju, none of Black's forbidden points (found on the
        15 × 15 board at once: the count needs them all); none while a swap2 choice is due. A
        page costs its cells and the stones it skips, never the whole of a large board."""
        player = self.next_player
        if player is None or self.step in ("choose", "choose_color"):
            return NO_LEGAL_MOVES
        board, size = self.board, self.size
        barred: frozenset[int] = frozenset()
        if self.rule == "renju" and self.turn == "B":
            points = gomoku.forbidden_points(board, size)
            barred = frozenset(row * size + col for row, col, _ in points)
        total = size * size
        taken = _Occupied(board, barred)
        page, next_after = cell_page(free_cells(total, taken, after + 1), size, limit)
        count = total - len(board.cells) - len(barred)
        return LegalMoves(count, tuple(LegalMove(cell) for cell in page), next_after)

    def _mover(self, player: Player) -> None:
        """Refuse a move of ``player`` now: the game is over, or it is the other's turn."""
        next_player = self.next_player
        if next_player is None:
            raise GameOver(self.status, self.winner, self.reason)
        if player != next_player:
            raise NotYourTurn(player, next_player)

    def _no_choice_due(self, what: str) -> None:
        """Refuse ``what`` (a stone, a pass) while a swap2 choice is due."""
        step = self.step
        if step == "choose" or step == "choose_color":
            raise WrongStep(f"player {TO_ACT[step]} {WANTED[step]}, not {what}", step)

    def play(self, played: Played, player: Player) -> Move:
        if isinstance(played, Pass):
            self._mover(player)
            self._no_choice_due("a pass")
            if self.step is not None:
                raise WrongStep("a swap2 opening's stones are placed, never passed", self.step)
            if self.rule != "renju":
                raise PassNotAllowed(self.rule)
            color = self.turn
            self.played.extend((PASS, PASS, player, COLORS.index(color)))
            self.turn = flip(color)
            self.passes += 1
            if self.passes == 2:
                self.status, self.ended = "draw", "passes"
            return self.move(self.move_count)
        if isinstance(played, Swap2Choice):
            return self._choose(played, player)
        cell = Placement.of(played)
        row, col, size = cell.row, cell.col, self.size
        if not (0 <= row < size and 0 <= col < size):
            raise OutOfBounds(row, col, size)
        self._mover(player)
        self._no_choice_due("a stone")
        board = self.board
        if (row, col) in board.cells:
            raise CellOccupied(row, col)
        color = self.turn
        check = gomoku.check_move(board, size, row, col, color, self.rule)
        if check.forbidden is not None and self.foul == "refuse":
            lines = lines_out(check.lines, Squares.of(size, size, "bottom"))
            raise ForbiddenMove(row, col, check.forbidden, lines)
        board.cells[row, col] = color
        self.played.extend((row, col, player, COLORS.index(color)))
        self.turn = flip(color)
        self.passes = 0
        if check.forbidden is not None:  # "foul": "lose"
            self.status, self.winner, self.ended = "won", other(player), "foul"
        elif check.wins:
            self.status, self.winner, self.ended = "won", player, "line"
        elif len(board.cells) == size * size:
            self.status, self.ended = "draw", "board_full"
        elif self.liveness is not None:
            cells = board.cells
            self.liveness.played(lambda r, c: STONE.get(cells.get((r, c)), 0), row, col,
                                 STONE[color])  # fmt: skip
            if self.liveness.dead(size * size - len(cells), STONE[self.turn]):
                self.status, self.ended = "draw", "dead_position"
        step = self.step
        if step is None:
            return Move(self.move_count, cell, player, {"color": color})
        stones, then = PLACED_BY[step]
        if len(board.cells) == stones:
            self.step = then
        return self._opening_move()

    def _choose(self, choice: Swap2Choice, player: Player) -> Move:
        self._mover(player)
        step = self.step
        if step is None:
            why = (
                "the swap2 opening is over: the colours are fixed"
                if self.swap2
                else NO_OPENING_CHOICE
            )
            raise WrongStep(why)
        if step != "choose" and step != "choose_color":
            raise WrongStep(f"player {TO_ACT[step]} {WANTED[step]}: a choice comes after", step)
        option = choice.option
        if option == "B" or option == "W":
            self.colors = (option, flip(option)) if player == 1 else (flip(option), option)
            self.step = None
            self.played.extend((CHOICE, 0, player, COLORS.index(option)))
        elif step == "choose":
            self.step = "place_two"
            self.played.extend((CHOICE, 1, player, 0))
        else:
            raise WrongStep(
                "player 1 chooses a colour now: two more stones were placed already", step
            )
        return self._opening_move()

    def _opening_move(self) -> Move:
        """The move just made in a swap2 opening, with the facts it left."""
        seq = self.move_count
        self.opened[seq] = opening_facts(self.step, self.colors)
        return self.move(seq)

    def undo(self, taken: Sequence[Move], before: Move | None) -> None:
        cells, liveness = self.board.cells, self.liveness
        for move in reversed(taken):
            played, color = move.played, color_of(str((move.facts or {}).get("color")))
            if isinstance(played, Placement):
                if liveness is not None:  # read with the stone still there
                    liveness.played(lambda r, c: STONE.get(cells.get((r, c)), 0), played.row,
                                    played.col, STONE[color], by=-1)  # fmt: skip
                del cells[played.row, played.col]
            self.turn = color
            self.opened.pop(move.seq, None)
        # Passes in a row before the first move taken back: one at most (two end the game).
        self.passes = 1 if before is not None and isinstance(before.played, Pass) else 0
        self.status, self.winner, self.ended = "in_progress", 0, None
        count = self.move_count - len(taken)
        if count >= self.first:
            del self.played[4 * (count - self.first + 1) :]
        else:  # no move left, or a position a store rebuilt: the one before is its last
            self.first = max(count, 1)
            self.played = array("i", array_row(before) if before is not None else ())
            if before is not None and before.state_facts is not None:
                self.opened[count] = before.state_facts

    def facts(self) -> GomokuFacts:
        facts: GomokuFacts = {
            "rule": self.rule, "size": self.size, "foul": self.foul, "colors": FIXED_COLORS,
            "opening": None,
        }  # fmt: skip
        if self.swap2:
            facts.update(opening_facts(self.step, self.colors))  # type: ignore[typeddict-item]
        if self.liveness is not None:
            facts["early_draw"] = True
        return facts

    def rows(self) -> list[str]:
        """The board as strings of ``B``, ``W``, ``.`` (O(size²): only for small boards)."""
        return self.board.rows()

    def encode(self) -> str:
        """The stones, how the game stands and its last move: the move list keeps the others."""
        kept: dict[str, object] = {
            "stones": ",".join(f"{r}.{c}{color}" for (r, c), color in self.board.cells.items()),
            "passes": self.passes,
            "status": self.status,
            "winner": self.winner,
            "reason": self.ended,
            "turn": self.turn,
        }
        if self.swap2:
            kept |= {"step": self.step, "colors": "".join(self.colors or ())}
        if self.move_count:
            kept |= {"count": self.move_count, "last": encode_move(self.move(self.move_count))}
        return json.dumps(kept, separators=(",", ":"))


def new_game(params: Mapping[str, object]) -> Gomoku:
    """A new game of these ``params`` (a creation's, as ``CreateGomokuIn.params`` writes them)."""
    rule, size, foul = params["rule"], params["size"], params.get("foul", "refuse")
    assert rule in gomoku.RULES, rule
    assert isinstance(size, int), size
    assert foul in ("refuse", "lose"), foul
    return Gomoku(
        size, rule, foul, swap2=params.get("opening") == SWAP2,
        early_draw=params.get("early_draw") is True,
    )  # fmt: skip
