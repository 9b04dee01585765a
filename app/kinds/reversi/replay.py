"""A whole Othello record replayed at once (an audit's ``CellReplay``), and its move records
made when they are read, or written straight to canonical JSON for the hash chain.

A session's move is ``Reversi.play``: the flips found, the move played, whether the opponent
can move asked, and a ``Move`` made with its flips as cell lists and the score. An audit of a
60-move game needs the first three, and of the rest only what its answer shows: a summary, the
hash chain of the records; a WTHOR file's line, nothing but the end. So the cells are played by
``rules.reversi.play_through`` (the same rules: ``_flips`` and ``_can_move``, passes inferred
where they matter), which keeps each move's flips as a bitboard, and the records are made
from those when read (``ReversiMoves``): as ``Move`` values where an answer lists them, or
written as the canonical JSON of their record (``canonical``) by ``RecordWriter``, which
writes the bytes ``canonical_json(move_json(move, names))`` writes, from pieces written once
a board size (each cell's ``[row,col]`` and name). The writer checks itself against that slow
path on a move of every shape when it is made, and is not used if they differ.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import overload

from app.contract.render import Json, Names, move_json
from app.contract.squares import Squares
from app.records.canonical import canonical_json
from app.rules import reversi
from app.rules.colors import Color
from app.rules.errors import CellError, RuleError
from app.rules.reversi import BLACK, Board, Geometry
from app.sessions.errors import CellOccupied, GameOver, OutOfBounds
from app.sessions.kind import Move, Placement, Player, Position

# The position a replay leaves (the kind's): its board, who moves, how many moves were played
# and the last one's record (None: none was).
Rebuilt = Callable[[Board, Color | None, int, Move | None], Position]

PLAYERS: dict[Color, Player] = {"B": 1, "W": 2}


class ReversiMoves(Sequence[Move]):
    """The records of moves ``play_through`` played from a new game: made when read. ``cells``
    are the moves, ``flips`` their flips (bitboards), ``passes`` the indices of the moves after
    which the opponent passed, ``first`` the player of the first, ``start`` and ``end`` the stones
    (Black's, White's) before the first and after the last. ``last``, the last move's record, is
    made at once (a state shows it)."""

    __slots__ = ("_made", "cells", "first", "flips", "geometry", "last", "passes", "start")

    def __init__(
        self, geometry: Geometry, cells: list[Placement], flips: list[int], passes: list[int],
        first: Player, start: tuple[int, int], end: tuple[int, int],
    ) -> None:  # fmt: skip
        self.geometry, self.cells, self.flips, self.passes = geometry, cells, flips, passes
        self.first, self.start = first, start
        self._made: list[Move] | None = None
        self.last: Move | None = None
        if flips:
            count = len(flips) - 1
            black, white = end
            self.last = _move(
                count + 1, cells[count], self.player(count), count in passes, flips[count],
                geometry, black, white,
            )  # fmt: skip

    def player(self, index: int) -> Player:
        """The player of move ``index`` (0-based): the players alternate, but for a pass."""
        skipped = bisect_left(self.passes, index)  # passes before it: its player moved again
        return self.first if (index - skipped) % 2 == 0 else (3 - self.first)  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.flips)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if isinstance(index, int) and index in (-1, len(self.flips) - 1) and self.last:
            return self.last
        return self.made()[index]

    def __iter__(self) -> Iterator[Move]:
        return iter(self.made())

    def made(self) -> list[Move]:
        """Every move's ``Move``, as ``Reversi.play`` made it (made once, when first read)."""
        if self._made is None:
            geometry, passes = self.geometry, set(self.passes)
            black, white = self.start
            player = self.first
            made = []
            for index, (cell, flips) in enumerate(zip(self.cells, self.flips, strict=True)):
                turned = flips.bit_count()
                if player == 1:
                    black, white = black + turned + 1, white - turned
                else:
                    black, white = black - turned, white + turned + 1
                passed = index in passes
                made.append(_move(index + 1, cell, player, passed, flips, geometry, black, white))
                if not passed:
                    player = 3 - player  # type: ignore[assignment]
            self._made = made
        return self._made

    def canonical(self, names: Names | None) -> Iterator[bytes] | None:
        """Each record's canonical JSON, in order, as ``canonical_json(move_json(move,
        names))`` writes it; None where the writer cannot (a board without names)."""
        if names is None:
            return None
        writer = record_writer(self.geometry, names)
        if writer is None:
            return None
        return writer.records(self.cells, self.flips, self.passes, self.first)

    def shown(self, names: Names | None) -> list[Json] | None:
        """Each record as ``move_json(move, names)`` renders it (its members in that order),
        made without a ``Move``; None where the writer cannot (a board without names)."""
        writer = None if names is None else record_writer(self.geometry, names)
        if writer is None:
            return None
        return writer.shown(self.cells, self.flips, self.passes, self.first)


def _move(
    seq: int, cell: Placement, player: Player, passed: bool, flips: int, geometry: Geometry,
    black: int, white: int,
) -> Move:  # fmt: skip
    """The record ``Reversi.play`` makes of a move (its flips as cell lists, in (row, col)
    order; the score right after it)."""
    width, cells = geometry.width, []
    while flips:
        low = flips & -flips
        index = low.bit_length() - 1
        cells.append([index // width, index % width])
        flips ^= low
    facts = {"flips": cells, "passed": passed}
    return Move(seq, cell, player, facts, {"score": {"1": black, "2": white}})


class CellsReplayed:
    """An Othello position's ``CellReplay``: cells played by ``rules.reversi.play_through``,
    the refusals those of ``Reversi.play``."""

    __slots__ = (
        "_board", "_cells", "_first", "_flips", "_moves", "_next", "_no_bracket", "_passes",
        "_rebuilt", "_start",
    )  # fmt: skip

    def __init__(
        self, board: Board, next_color: Color | None, no_bracket: type[CellError],
        rebuilt: Rebuilt,
    ) -> None:  # fmt: skip
        """From a new game's ``board`` and colour to move; ``no_bracket``: the refusal of a
        stone that brackets nothing, and ``rebuilt``, the position left: the kind's."""
        self._board, self._next = board, next_color
        self._no_bracket, self._rebuilt = no_bracket, rebuilt
        self._start = self._board.counts()
        self._first: Player = PLAYERS[self._next or BLACK]
        self._cells: list[Placement] = []
        self._flips: list[int] = []
        self._passes: list[int] = []
        self._moves: ReversiMoves | None = None

    def play(self, cells: Sequence[Placement]) -> tuple[int, RuleError] | None:
        through = reversi.play_through(self._board, self._next, cells)
        self._moves = None  # (made again when read)
        played = len(through.flips)
        done = len(self._flips)
        self._cells += cells[:played] if through.stopped else cells
        self._flips += through.flips
        self._passes += [done + index for index in through.passes]
        self._board, self._next = through.board, through.next
        if through.stopped is None:
            return None
        index, why, _ = through.stopped
        cell = cells[index]
        board = self._board
        error: RuleError
        if why == "game_over":
            black, white = board.counts()
            winner = 1 if black > white else 2 if white > black else 0
            error = GameOver("won" if winner else "draw", winner, "no_moves")
        elif why == "outside":
            error = OutOfBounds(cell.row, cell.col, board.rows, board.cols)
        elif why == "occupied":
            error = CellOccupied(cell.row, cell.col)
        else:
            error = self._no_bracket(cell.row, cell.col)
        return index, error

    def moves(self) -> ReversiMoves:
        if self._moves is None:
            self._moves = ReversiMoves(
                self._board.geometry, self._cells, self._flips, self._passes, self._first,
                self._start, self._board.counts(),
            )  # fmt: skip
        return self._moves

    def position(self) -> Position:
        """The position after the cells played (``rebuilt``)."""
        return self._rebuilt(self._board, self._next, len(self._flips), self.moves().last)


# The flips written by a writer, kept by their bitboard: a real game's flips are mostly ones
# seen before (110,000 moves of 1988 flip 5,263 sets of stones). At most this many a writer.
FLIPS_KEPT = 8192


class RecordWriter:
    """The canonical JSON of Othello move records on one board with names, written from each
    move's cell, flips (a bitboard), player and ``passed``: the members in RFC 8785's order
    (``col``, ``flip_squares``, ``flips``, ``passed``, ``player``, ``row``, ``seq``,
    ``square``), each cell's record a template written once, and each set of flips's two lists
    written once (``FLIPS_KEPT``)."""

    __slots__ = ("_flipped", "_names", "_pairs", "_played", "_squares", "_width")

    def __init__(self, geometry: Geometry, names: Names) -> None:
        self._width = width = geometry.width
        self._names: dict[int, bytes] = {}  # a cell's name, by its bit: b'"d4"'
        self._pairs: dict[int, bytes] = {}  # the cell as a pair: b"[3,3]"
        # A move's record, by its cell's index, not passed and passed: the flips' names and
        # pairs, the player and the number to fill in.
        self._played: list[tuple[bytes, bytes]] = [(b"", b"")] * (geometry.rows * width)
        self._flipped: dict[int, bytes] = {}  # b'"d4"],"flips":[[3,3]', by the flips' bits
        self._squares = [""] * (geometry.rows * width)  # a cell's name, by its index: "d4"
        for row in range(geometry.rows):
            for col in range(geometry.cols):
                index = row * width + col
                name = canonical_json(names.squares.name(row, col))
                self._names[1 << index] = name
                self._pairs[1 << index] = b"[%d,%d]" % (row, col)
                self._squares[index] = names.squares.name(row, col)
                self._played[index] = tuple(  # type: ignore[assignment]
                    b'{"col":%d,"flip_squares":[%%s],"passed":%s,"player":%%d,"row":%d,'
                    b'"seq":%%d,"square":%s}' % (col, passed, row, name)
                    for passed in (b"false", b"true")
                )

    def records(
        self, cells: Sequence[Placement], flips: Sequence[int], passes: Sequence[int],
        first: Player,
    ) -> Iterator[bytes]:  # fmt: skip
        """The records of moves numbered from 1: their cells, flips, the indices of those after
        which the opponent passed, and the first one's player."""
        played, width, flipped = self._played, self._width, self._flipped.get
        passed_after = set(passes)
        player = first
        for index, (cell, turned) in enumerate(zip(cells, flips, strict=True)):
            lists = flipped(turned) or self._written(turned)
            not_passed, passed = played[cell.row * width + cell.col]
            if index in passed_after:
                yield passed % (lists, player, index + 1)
            else:
                yield not_passed % (lists, player, index + 1)
                player = 3 - player  # type: ignore[assignment]

    def shown(
        self, cells: Sequence[Placement], flips: Sequence[int], passes: Sequence[int],
        first: Player,
    ) -> list[Json]:  # fmt: skip
        """The records of moves numbered from 1 (as ``records`` takes them) as ``move_json``
        renders them: ``seq``, ``row``, ``col``, ``square``, ``player``, ``flips``,
        ``flip_squares``, ``passed``."""
        width, squares = self._width, self._squares
        passed_after = set(passes)
        player = first
        shown = []
        for index, (cell, turned) in enumerate(zip(cells, flips, strict=True)):
            pairs, names = [], []
            while turned:
                low = turned & -turned
                at = low.bit_length() - 1
                pairs.append([at // width, at % width])
                names.append(squares[at])
                turned ^= low
            row, col = cell.row, cell.col
            passed = index in passed_after
            shown.append(
                {"seq": index + 1, "row": row, "col": col, "square": squares[row * width + col],
                 "player": player, "flips": pairs, "flip_squares": names, "passed": passed}
            )  # fmt: skip
            if not passed:
                player = 3 - player  # type: ignore[assignment]
        return shown

    def _written(self, flips: int) -> bytes:
        """A set of flips's names and pairs, as a record writes them between its brackets."""
        names, pairs, turned = [], [], flips
        while turned:
            low = turned & -turned
            names.append(self._names[low])
            pairs.append(self._pairs[low])
            turned ^= low
        if len(self._flipped) >= FLIPS_KEPT:
            self._flipped.clear()
        lists = self._flipped[flips] = b",".join(names) + b'],"flips":[' + b",".join(pairs)
        return lists

    def agrees(self, geometry: Geometry, names: Names) -> bool:
        """Whether this writer renders what ``move_json(move, names)`` renders (its members in
        the same order) and writes what ``canonical_json`` writes of it, on records of every
        shape: no flip, one, several; passed or not; either player; the first cell of the board
        and its last."""
        last = divmod(geometry.rows * geometry.width - 2, geometry.width)
        cells = [Placement(0, 0), Placement(*last), Placement(0, 0), Placement(*last)]
        several = (1 << (geometry.width + 1)) | (1 << 1) | (1 << geometry.width)
        flips = [0, 1 << 1, several, several]
        moves = ReversiMoves(geometry, cells, flips, [1], 1, (0, 0), (0, 0))
        rendered = [move_json(move, names) for move in moves]
        shown = self.shown(cells, flips, [1], 1)
        written = list(self.records(cells, flips, [1], 1))
        in_order = [list(move.items()) for move in shown] == [list(m.items()) for m in rendered]
        return in_order and written == [canonical_json(move) for move in rendered]


# The writers made, by board shape and names (a board of each size a writer: sizes are few, and
# at most 15 × 12 with names: even sides, 26 columns at most). None: that writer did not agree
# with the general path.
_WRITERS: dict[tuple[Geometry, Squares, tuple[tuple[str, str], ...]], RecordWriter | None] = {}


def record_writer(geometry: Geometry, names: Names) -> RecordWriter | None:
    """The writer of a board's records (made once a board size); None if it does not write
    what the general path writes (then the records are rendered and written one by one)."""
    key = (geometry, names.squares, tuple(names.cell_lists.items()))
    if key not in _WRITERS:
        writer = RecordWriter(geometry, names)
        _WRITERS[key] = writer if writer.agrees(geometry, names) else None
    return _WRITERS[key]
