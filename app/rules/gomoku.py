"""Five in a row — freestyle, standard, renju and caro: is a move legal, does it win, and which
points Black may not play under renju.

The rules (``API.md``, "Five in a row as its players play it"):

* ``freestyle``: five or more in a row wins, either colour.
* ``standard``: exactly five wins, either colour; a longer run does not win and play goes on.
* ``renju`` (15 × 15): Black wins with exactly five, White with five or more. Black may not play a
  forbidden point (overline, double-four, double-three); a move that makes exactly five wins even
  if it also makes a forbidden shape. White has no forbidden points.
* ``caro`` (Gomocup's): six or more in a row wins, even blocked; exactly five wins unless the
  opponent's stones block it at both ends (the board's edge does not block).

Definitions, as the RIF rules text (*The International Rules of Renju*, 1996/1998) words them,
for Black, whose "five" is exactly five:

* **Five**: an unbroken row of five stones. **Overline**: an unbroken row of six or more.
* **Four**: four stones in a line to which one more stone makes a five. A move *makes* a four in
  a line when one more stone there makes a five that holds both stones; the four's stones are
  that five without the added one. One line can hold two fours at once (``X.XXX.X`` and
  ``XX.XX.XX`` played in the middle): two points, each completing a different four stones.
* **Straight four**: an unbroken four to which a stone at either end makes a five (``.XXXX.``,
  neither end extending into six). It is one four with two five points, not two fours: both
  points complete the same four stones.
* **Three**: three stones in a line to which one more stone makes a straight four, *without at
  the same time making a five* (RIF's words). A **real** three, the only kind a double-three
  counts (RIF; the contract), is one where that stone is also not itself a forbidden point,
  judged in the position after the three's move: so whether a three is real is the same
  question asked again, one stone later. A line holds at most one
  three through a move: its straight-four points (one, or two for ``..XXX..``) complete the same
  three stones, and two threes on one line would need a run of six to be straight fours.
* **Double-four** / **double-three**: a move that makes two or more fours / two or more real
  threes that meet at the move. No line makes both a four and a three through one move (checked
  over every window), so a line is counted once.

Two readings differ in published sources; the contract fixes both. A three whose only
straight-four point would also make a five (in another line) is *not* a real three: that is
RIF's wording, and Gomocup's judge agrees; two of realcore's test positions, citing the
magazine Renju World (2000/11 and 2001/09), read it the other way, and ``tests/data`` marks them.
In caro an overline wins even when blocked at both ends (Gomocup's rule 8).

**Bounded reading.** Whether a stone makes a five, an overline, a four or a three in one line
depends on at most five cells each way: a five holding the move spans four cells each side, and
one more cell says whether it is exactly five; a straight four holding the move spans three
cells each side, its five points one more, and whether they make exactly five one more again.
So each line is read as an 11-cell window centred on the move (Black's stones, empty, and
"blocked": White or off the board), and the window alone decides the line's shapes. There are
at most 3¹⁰ windows, and each one's shapes are worked out once and remembered. A window is one
slice of the position framed by five blocked cells a side (``_View``): a posted board is read
whole, in C; a session's is read a cell at a time, only where windows cover it. The other rules
read the run through the move, at most five cells each way, to decide; only a winning overline
is walked to its ends, to name its stones.

**Why the recursion ends.** Whether a three is real asks whether its straight-four point is
forbidden in the position with the three's stone added; that may ask the same of another point
with one more stone, and so on. Every step adds a Black stone to an empty point of a finite board
and never removes one, so a chain of questions is at most as long as the board has empty points
(225 at most); each question reads a bounded region (the windows of its point), so every check
ends. In practice it is short: at most five questions deep in the sources' test positions
(``tests/data/renju-forbidden.json``), and at most three in random positions.

Sources read for the rules and for test data (no code taken): the RIF rules text; Koichi
Nabetani's *realcore* (``starpentagon/realcore``, MIT) and Renju Note's *quintet*
(``renju-note/quintet``, MIT), whose forbidden-point test positions are in
``tests/data/renju-forbidden.json``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, Protocol

from app.rules.colors import Color

Rule = Literal["freestyle", "standard", "renju", "caro"]
Forbidden = Literal["overline", "double_four", "double_three"]
Shape = Literal["five", "overline", "four", "three"]
Reason = Literal["occupied", "forbidden"]

RULES: tuple[Rule, ...] = ("freestyle", "standard", "renju", "caro")
# How players and their programs name the rules: each rule's name in records (SGF's ``RU``,
# Gomocup's division names), and its number in the Gomocup protocol's ``INFO rule`` (bits: 1
# exactly five, 4 renju, 8 caro), which c-gomoku-cli writes as SGF's ``RU``.
RULE_NAMES: dict[Rule, str] = {
    "freestyle": "Freestyle", "standard": "Standard", "renju": "Renju", "caro": "Caro",
}  # fmt: skip
GOMOCUP_NUMBERS: dict[Rule, int] = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}
RENJU_SIZE = 15
FIVE = 5  # stones in a row that win (six or more too, under some rules)
MIN_SIZE = FIVE  # five in a row needs five cells
# (row step, column step) of the four lines through a cell.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
_STONE: dict[str, Color] = {"B": "B", "W": "W"}
REACH = 5  # cells read each way from a move, to decide every shape of a line (see above)
# A cell as Black's renju checks read it: Black, empty, blocked (White or off the board), and
# not yet read from the board.
BLACK, EMPTY, BLOCKED, UNREAD = "X", ".", "O", "?"
Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A shape a move makes: its kind and the cells of the stones that form it, sorted."""

    shape: Shape
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The answer about one move: whether it may be played, why not, whether it wins, and the
    lines that decide the answer (the five or overline that wins, or the fours, threes or
    overline that make it forbidden; none otherwise)."""

    legal: bool
    reason: Reason | None
    forbidden: Forbidden | None
    wins: bool
    lines: tuple[Line, ...]


class Stones(Protocol):
    """What the engine reads of a board: the colour at a cell, None if empty or off the board."""

    def at(self, row: int, col: int) -> Color | None: ...


class GomokuBoard:
    """A size × size board that holds only its stones, so any size costs what its stones cost."""

    __slots__ = ("cells", "size")

    def __init__(self, size: int, cells: Mapping[Cell, Color] | None = None) -> None:
        if size < 1:
            raise ValueError(f"a board has at least one row, got size {size}")
        self.size = size
        self.cells: dict[Cell, Color] = {}
        for (row, col), color in (cells or {}).items():
            if not (0 <= row < size and 0 <= col < size):
                raise ValueError(f"({row}, {col}) is off a {size} × {size} board")
            if color not in ("B", "W"):
                raise ValueError(f"a stone is 'B' or 'W', got {color!r}")
            self.cells[row, col] = color

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> GomokuBoard:
        """A board from its rows, top to bottom: ``B``, ``W`` or ``.`` a cell; square."""
        size = len(rows)
        cells: dict[Cell, Color] = {}
        for row, line in enumerate(rows):
            if len(line) != size:
                raise ValueError(f"row {row} has {len(line)} cells, the board has {size} rows")
            for col, mark in enumerate(line):
                if mark in _STONE:
                    cells[row, col] = _STONE[mark]
                elif mark != ".":
                    raise ValueError(f"row {row}, column {col}: {mark!r} is not B, W or .")
        return cls(size, cells)

    @classmethod
    def from_cells(cls, size: int, cells: Mapping[Cell, Color]) -> GomokuBoard:
        """A board from its stones, keyed by (row, col)."""
        return cls(size, cells)

    def at(self, row: int, col: int) -> Color | None:
        return self.cells.get((row, col))

    def rows(self) -> list[str]:
        """The board as rows of ``B``, ``W`` and ``.`` (reads every cell: small boards only)."""
        return [
            "".join(self.cells.get((row, col), ".") for col in range(self.size))
            for row in range(self.size)
        ]


class RowsBoard:
    """A posted board kept as its rows, top to bottom (``B``, ``W`` and ``.``, checked by the
    body that posted it): reading a cell indexes a string, so taking a board in costs nothing
    beyond its text, however many stones it holds."""

    __slots__ = ("rows", "size")

    def __init__(self, rows: Sequence[str]) -> None:
        self.rows = tuple(rows)
        self.size = len(self.rows)

    def at(self, row: int, col: int) -> Color | None:
        if 0 <= row < self.size and 0 <= col < self.size:
            return _STONE.get(self.rows[row][col])
        return None


# --- every rule but Black's renju: the run through the move ------------------------------------


def check_move(
    stones: Stones, size: int, row: int, col: int, color: Color, rule: Rule
) -> MoveCheck:
    """Whether ``color`` may play (row, col) under ``rule``, and whether the move wins."""
    _check_point(size, row, col, rule)
    if stones.at(row, col) is not None:
        return MoveCheck(legal=False, reason="occupied", forbidden=None, wins=False, lines=())
    if rule == "renju" and color == "B":
        return _check_black_renju(_View(stones, size), row, col)
    wins = tuple(_winning_lines(stones, row, col, color, rule))
    return MoveCheck(legal=True, reason=None, forbidden=None, wins=bool(wins), lines=wins)


def _check_point(size: int, row: int, col: int, rule: Rule) -> None:
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}")
    if rule == "renju" and size != RENJU_SIZE:
        raise ValueError(f"renju is played on {RENJU_SIZE} × {RENJU_SIZE}, not {size} × {size}")
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"({row}, {col}) is off a {size} × {size} board")


def _winning_lines(stones: Stones, row: int, col: int, color: Color, rule: Rule) -> Iterable[Line]:
    """The runs through a new stone of ``color`` that win under ``rule`` (not Black's renju)."""
    other = "W" if color == "B" else "B"
    for dr, dc in DIRECTIONS:
        back = _reach(stones, row, col, -dr, -dc, color, REACH)
        ahead = _reach(stones, row, col, dr, dc, color, REACH)
        length = back + 1 + ahead  # exact up to 10; 11 means "at least 11"
        if length < 5 or (rule == "standard" and length > 5):
            continue
        if rule == "caro" and length == 5:
            # Blocked at both ends by the opponent: no win. The board's edge reads as None.
            before = stones.at(row - (back + 1) * dr, col - (back + 1) * dc)
            after = stones.at(row + (ahead + 1) * dr, col + (ahead + 1) * dc)
            if before == other and after == other:
                continue
        if length > 5:  # an overline that wins: walk it to its ends to name its stones
            back = _reach(stones, row, col, -dr, -dc, color, None)
            ahead = _reach(stones, row, col, dr, dc, color, None)
        cells = tuple((row + k * dr, col + k * dc) for k in range(-back, ahead + 1))
        yield Line("five" if length == 5 else "overline", tuple(sorted(cells)))


def _reach(
    stones: Stones, row: int, col: int, dr: int, dc: int, color: Color, limit: int | None
) -> int:
    """How many stones of ``color`` follow (row, col) in direction (dr, dc), up to ``limit``."""
    count = 0
    while (limit is None or count < limit) and stones.at(
        row + (count + 1) * dr, col + (count + 1) * dc
    ) == color:
        count += 1
    return count


# --- renju: Black's shapes, read in 11-cell windows ---------------------------------------------


@dataclass(frozen=True, slots=True)
class _LineShapes:
    """What a Black stone at a window's centre (offset 5) makes in that line. Offsets 0..10."""

    run: tuple[int, int]  # first and last offset of the unbroken run through the centre
    fours: tuple[tuple[int, ...], ...]  # each four: its four stones' offsets
    three: tuple[int, ...]  # the three's stones' offsets; () if none (or the line has a four)
    straight_four_points: tuple[int, ...]  # the offsets that make the three a straight four

    @property
    def length(self) -> int:
        """The run's length: exact up to 10, and any run reaching the window's end is ≥ 6."""
        return self.run[1] - self.run[0] + 1


def _run_through(window: str, centre: int) -> tuple[int, int]:
    """First and last offset of the unbroken run of X through ``centre``, inside the window."""
    first = last = centre
    while first > 0 and window[first - 1] == BLACK:
        first -= 1
    while last < len(window) - 1 and window[last + 1] == BLACK:
        last += 1
    return first, last


@cache
def _shapes(window: str) -> _LineShapes:
    """The shapes a Black stone at the centre of ``window`` makes in its line (cached: at most
    3¹⁰ windows). ``X`` Black, ``.`` empty, ``O`` blocked (White or off the board)."""
    run = _run_through(window, REACH)
    if run[1] - run[0] + 1 >= 5:
        return _LineShapes(run, (), (), ())
    fours: list[tuple[int, ...]] = []
    for point in range(1, 10):  # a five holding the centre lies within four cells of it
        if window[point] != EMPTY:
            continue
        placed = window[:point] + BLACK + window[point + 1 :]
        first, last = _run_through(placed, REACH)
        # Exactly five, and holding the new stone (else the run through the centre is unchanged).
        if last - first == 4 and first <= point <= last:
            four = tuple(k for k in range(first, last + 1) if k != point)
            if four not in fours:  # a straight four's two points complete the same four
                fours.append(four)
    if fours:
        return _LineShapes(run, tuple(fours), (), ())
    three: tuple[int, ...] = ()
    points: list[int] = []
    for point in range(2, 9):  # a straight four holding the centre lies within three cells of it
        if window[point] != EMPTY:
            continue
        placed = window[:point] + BLACK + window[point + 1 :]
        first, last = _run_through(placed, REACH)
        if last - first == 3 and first <= point <= last and _open_four(placed, first, last):
            three = tuple(k for k in range(first, last + 1) if k != point)
            points.append(point)
    return _LineShapes(run, (), three, tuple(points))


def _open_four(window: str, first: int, last: int) -> bool:
    """Whether the unbroken four ``first..last`` becomes exactly five at either end."""
    return (
        window[first - 1] == EMPTY
        and window[last + 1] == EMPTY
        and window[first - 2] != BLACK
        and window[last + 2] != BLACK
    )


_READING = str.maketrans({"B": BLACK, "W": BLOCKED})
_MARK: dict[Color | None, str] = {None: EMPTY, "B": BLACK, "W": BLOCKED}  # a stone as read


def _framed(rows: Sequence[str]) -> str:
    """Square rows of cells, framed by ``REACH`` blocked cells each side, row after row."""
    side = BLOCKED * REACH
    edge = BLOCKED * (REACH * (len(rows) + 2 * REACH))
    return edge + side + (side * 2).join(rows) + side + edge


@cache
def _unread_board(size: int) -> str:
    """A size × size board in its frame, its cells not yet read."""
    return _framed([UNREAD * size] * size)


class _View:
    """Black's reading of a position for the renju checks: ``X`` Black, ``.`` empty, ``O`` White
    or off the board, kept as one list of the board's cells row after row, framed by ``REACH``
    blocked cells on every side. A line's 11-cell window is then one slice of it (every step is
    positive: 1 along a row, the width down a column, the width ± 1 along the diagonals).

    A posted board (``RowsBoard``) is read whole at once, row by row in C; any other board's
    cells are read from its stones when a window first covers them and remembered (``?`` until
    then), so a check touches only the cells its windows cover. Stones tried in the recursion
    are laid on the view and taken back, never on the caller's board."""

    __slots__ = ("_flat", "_size", "_steps", "_stones", "_width")

    def __init__(self, stones: Stones, size: int) -> None:
        self._stones = stones
        self._size = size
        width = self._width = size + 2 * REACH
        self._steps = tuple(dr * width + dc for dr, dc in DIRECTIONS)
        if isinstance(stones, RowsBoard):
            self._flat = list(_framed(stones.rows).translate(_READING))
        else:
            self._flat = list(_unread_board(size))

    def _index(self, row: int, col: int) -> int:
        if not (-REACH <= row < self._size + REACH and -REACH <= col < self._size + REACH):
            raise ValueError(f"({row}, {col}) is beyond the frame of the view")
        return (row + REACH) * self._width + col + REACH

    def cell(self, row: int, col: int) -> str:
        index = self._index(row, col)
        mark = self._flat[index]
        return self._read(row, col, index) if mark == UNREAD else mark

    def _read(self, row: int, col: int, index: int) -> str:
        mark = self._flat[index] = _MARK[self._stones.at(row, col)]
        return mark

    def set(self, row: int, col: int, mark: str) -> None:
        self._flat[self._index(row, col)] = mark

    def shapes(self, row: int, col: int) -> list[_LineShapes]:
        """The shapes a Black stone at the empty (row, col) makes in each of its four lines."""
        flat, centre = self._flat, self._index(row, col)
        found = []
        for (dr, dc), step in zip(DIRECTIONS, self._steps, strict=True):
            start, stop = centre - REACH * step, centre + REACH * step + 1
            window = "".join(flat[start:stop:step])
            if UNREAD in window:
                at = self._stones.at
                for k, mark in enumerate(window, -REACH):
                    if mark == UNREAD and k:
                        flat[centre + k * step] = _MARK[at(row + k * dr, col + k * dc)]
                window = "".join(flat[start:stop:step])
            found.append(_shapes(window[:REACH] + BLACK + window[REACH + 1 :]))
        return found


def _cells(
    row: int, col: int, direction: tuple[int, int], offsets: Iterable[int]
) -> tuple[Cell, ...]:
    """The board cells at window offsets along ``direction`` from the centre (row, col)."""
    dr, dc = direction
    return tuple(sorted((row + (k - REACH) * dr, col + (k - REACH) * dc) for k in offsets))


def _check_black_renju(view: _View, row: int, col: int) -> MoveCheck:
    shapes = view.shapes(row, col)
    fives = [
        Line("five", _cells(row, col, d, range(s.run[0], s.run[1] + 1)))
        for d, s in zip(DIRECTIONS, shapes, strict=True)
        if s.length == 5
    ]
    if fives:  # exactly five wins, whatever else the move makes
        return MoveCheck(legal=True, reason=None, forbidden=None, wins=True, lines=tuple(fives))
    found = _forbidden_shapes(view, row, col, shapes)
    if found is None:
        return MoveCheck(legal=True, reason=None, forbidden=None, wins=False, lines=())
    kind, lines = found
    return MoveCheck(legal=False, reason="forbidden", forbidden=kind, wins=False, lines=lines)


def _forbidden_shapes(
    view: _View, row: int, col: int, shapes: list[_LineShapes]
) -> tuple[Forbidden, tuple[Line, ...]] | None:
    """Why Black may not play the empty (row, col), whose lines make ``shapes`` and no five."""
    overlines = [d for d, s in zip(DIRECTIONS, shapes, strict=True) if s.length >= 6]
    if overlines:
        return "overline", tuple(Line("overline", _walk(view, row, col, d)) for d in overlines)
    fours = [
        Line("four", _cells(row, col, d, four))
        for d, s in zip(DIRECTIONS, shapes, strict=True)
        for four in s.fours
    ]
    if len(fours) >= 2:
        return "double_four", tuple(fours)
    candidates = [(d, s) for d, s in zip(DIRECTIONS, shapes, strict=True) if s.three]
    if len(candidates) < 2:
        return None
    threes: list[Line] = []
    view.set(row, col, BLACK)
    try:
        for i, (d, s) in enumerate(candidates):
            if len(threes) + len(candidates) - i < 2:
                break  # too few lines left to make a double-three
            if _real_three(view, row, col, d, s):
                threes.append(Line("three", _cells(row, col, d, s.three)))
    finally:
        view.set(row, col, EMPTY)
    if len(threes) >= 2:
        return "double_three", tuple(threes)
    return None


def _real_three(
    view: _View, row: int, col: int, direction: tuple[int, int], shapes: _LineShapes
) -> bool:
    """Whether a three is real: one of its straight-four points makes no five and is
    not forbidden, in the position with the three's stone on the view."""
    dr, dc = direction
    for point in shapes.straight_four_points:
        r, c = row + (point - REACH) * dr, col + (point - REACH) * dc
        at_point = view.shapes(r, c)
        if any(s.length == 5 for s in at_point):
            continue  # it would make a five at the same time: not a way to a straight four
        if _forbidden_shapes(view, r, c, at_point) is None:
            return True
    return False


def _walk(view: _View, row: int, col: int, direction: tuple[int, int]) -> tuple[Cell, ...]:
    """The cells of the unbroken Black run through the empty (row, col), if Black played it."""
    dr, dc = direction
    back = 0
    while view.cell(row - (back + 1) * dr, col - (back + 1) * dc) == BLACK:
        back += 1
    ahead = 0
    while view.cell(row + (ahead + 1) * dr, col + (ahead + 1) * dc) == BLACK:
        ahead += 1
    return tuple(sorted((row + k * dr, col + k * dc) for k in range(-back, ahead + 1)))


def forbidden(
    stones: Stones, size: int, row: int, col: int
) -> tuple[Forbidden, tuple[Line, ...]] | None:
    """Why Black may not play the empty point (row, col) under renju, with the lines that make it
    forbidden; None if Black may play it (a move that makes exactly five always may)."""
    _check_point(size, row, col, "renju")
    if stones.at(row, col) is not None:
        raise ValueError(f"({row}, {col}) is not empty")
    return _forbidden_at(_View(stones, size), row, col)


def _forbidden_at(view: _View, row: int, col: int) -> tuple[Forbidden, tuple[Line, ...]] | None:
    shapes = view.shapes(row, col)
    if any(s.length == 5 for s in shapes):
        return None
    return _forbidden_shapes(view, row, col, shapes)


def forbidden_points(stones: Stones, size: int) -> list[tuple[int, int, Forbidden]]:
    """Every empty point Black may not play under renju, with why, sorted by (row, col)."""
    if size != RENJU_SIZE:
        raise ValueError(f"renju is played on {RENJU_SIZE} × {RENJU_SIZE}, not {size} × {size}")
    view = _View(stones, size)  # shared: each cell is read from the stones once
    points: list[tuple[int, int, Forbidden]] = []
    for row in range(size):
        for col in range(size):
            if view.cell(row, col) == EMPTY:
                found = _forbidden_at(view, row, col)
                if found is not None:
                    points.append((row, col, found[0]))
    return points
