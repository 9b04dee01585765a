"""Slow, obviously-right five-in-a-row rules, written from the rules' words, not from the engine.

The engine (``app/rules/gomoku.py``) reads 11-cell windows and remembers their shapes; this reads
the position itself. Freestyle, standard and caro look at every five- and six-cell segment of a
line through the move. Renju copies the board for every stone it tries and walks the whole line
on the copy, and follows the RIF rules text word for word:

* five: an unbroken row of exactly five (Black); overline: six or more;
* four: a row of four stones to which one more stone gives five in a row — one for each distinct
  set of four stones that some empty point completes;
* straight four: an unbroken row of four to which a stone can be added in two different ways to
  give five;
* three: a row of three to which one more stone — one that does not at the same time give five,
  and is not itself forbidden (asked again, on the board with the three's stone) — gives a
  straight four;
* double-four / double-three: a move making two or more fours / threes that meet at it.
"""

from __future__ import annotations

from collections.abc import Mapping

Cell = tuple[int, int]
Board = dict[Cell, str]  # (row, col) -> "B" or "W"; empty cells are absent
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]
RENJU = 15


def board_of(rows: list[str]) -> Board:
    return {
        (r, c): mark for r, line in enumerate(rows) for c, mark in enumerate(line) if mark != "."
    }


# --- freestyle, standard, caro, and White in renju: segments of five and six --------------------


def winning_lines(
    stones: Mapping[Cell, str], row: int, col: int, color: str, rule: str
) -> set[tuple[str, tuple[Cell, ...]]]:
    """The (shape, cells) of each run through the move that wins it, as the rule says. Cells off
    the board are simply absent from ``stones``: neither colour, so an edge blocks nothing."""
    board = {**stones, (row, col): color}
    other = "W" if color == "B" else "B"
    found = set()
    for dr, dc in DIRECTIONS:
        # Every stone of every all-``color`` 5-cell segment holding the move: that is the run,
        # when the run has five or more stones.
        run: set[Cell] = set()
        for start in range(-4, 1):
            segment = [(row + (start + k) * dr, col + (start + k) * dc) for k in range(5)]
            if all(board.get(cell) == color for cell in segment):
                run.update(segment)
        while run:  # extend to the run's real ends (it may be longer than the 9 cells above)
            ends = {(r - dr, c - dc) for r, c in run} | {(r + dr, c + dc) for r, c in run}
            more = {cell for cell in ends - run if board.get(cell) == color}
            if not more:
                break
            run |= more
        if not run:
            continue
        cells = tuple(sorted(run))
        if len(run) == 5:
            first, last = cells[0], cells[-1]  # sorted by row, then column: the run's two ends
            before = board.get((first[0] - dr, first[1] - dc))
            after = board.get((last[0] + dr, last[1] + dc))
            if rule == "caro" and before == other and after == other:
                continue  # caro: a five the opponent closes at both ends does not win
            found.add(("five", cells))
        elif rule != "standard" and not (rule == "renju" and color == "B"):
            found.add(("overline", cells))
    return found


# --- renju, Black: the RIF definitions on copies of the board -----------------------------------


def _on(r: int, c: int) -> bool:
    return 0 <= r < RENJU and 0 <= c < RENJU


def _with(board: Board, cell: Cell) -> Board:
    copy = dict(board)
    copy[cell] = "B"
    return copy


def _line(cell: Cell, direction: Cell) -> list[Cell]:
    """Every cell of the board's line through ``cell`` in ``direction``, in order."""
    (r, c), (dr, dc) = cell, direction
    while _on(r - dr, c - dc):
        r, c = r - dr, c - dc
    cells = []
    while _on(r, c):
        cells.append((r, c))
        r, c = r + dr, c + dc
    return cells


def _black_run(board: Board, cell: Cell, direction: Cell) -> list[Cell]:
    """The unbroken row of Black stones through ``cell`` along its line."""
    line = _line(cell, direction)
    i = j = line.index(cell)
    while i > 0 and board.get(line[i - 1]) == "B":
        i -= 1
    while j < len(line) - 1 and board.get(line[j + 1]) == "B":
        j += 1
    return line[i : j + 1]


def makes_five(board: Board, cell: Cell) -> bool:
    after = _with(board, cell)
    return any(len(_black_run(after, cell, d)) == 5 for d in DIRECTIONS)


def _fours(board: Board, cell: Cell, direction: Cell) -> set[tuple[Cell, ...]]:
    """The fours through the stone at ``cell`` (already on ``board``) along ``direction``: each
    set of four stones, holding ``cell``, that one more stone on the line turns into five."""
    fours = set()
    for point in _line(cell, direction):
        if point in board:
            continue
        run = _black_run(_with(board, point), point, direction)
        if len(run) == 5 and cell in run:
            fours.add(tuple(sorted(set(run) - {point})))
    return fours


def _straight_four(board: Board, cell: Cell, direction: Cell) -> bool:
    """Whether the unbroken row through ``cell`` is four stones that become five in two ways."""
    run = set(_black_run(board, cell, direction))
    if len(run) != 4:
        return False
    ways = []
    for point in _line(cell, direction):
        if point not in board:
            five = set(_black_run(_with(board, point), point, direction))
            if len(five) == 5 and run <= five:
                ways.append(point)
    return len(ways) >= 2


def _three(board: Board, cell: Cell, direction: Cell) -> tuple[Cell, ...] | None:
    """The stones of the (real) three through the stone at ``cell`` along ``direction``, if any:
    one more stone, making no five and not forbidden itself, gives a straight four."""
    for point in _line(cell, direction):
        if point in board:
            continue
        after = _with(board, point)
        if not _straight_four(after, cell, direction) or point not in _black_run(
            after, cell, direction
        ):
            continue
        if makes_five(board, point) or renju_forbidden(board, point) is not None:
            continue
        return tuple(sorted(set(_black_run(after, cell, direction)) - {point}))
    return None


def renju_forbidden(
    board: Board, cell: Cell
) -> tuple[str, set[tuple[str, tuple[Cell, ...]]]] | None:
    """Why Black may not play the empty ``cell``, and the lines why; None if Black may."""
    if makes_five(board, cell):
        return None
    after = _with(board, cell)
    overlines = {
        ("overline", tuple(sorted(run)))
        for d in DIRECTIONS
        if len(run := _black_run(after, cell, d)) >= 6
    }
    if overlines:
        return "overline", overlines
    fours = [("four", four) for d in DIRECTIONS for four in _fours(after, cell, d)]
    if len(fours) >= 2:
        return "double_four", set(fours)
    threes = [("three", three) for d in DIRECTIONS if (three := _three(after, cell, d))]
    if len(threes) >= 2:
        return "double_three", set(threes)
    return None


def renju_black(
    board: Board, cell: Cell
) -> tuple[str | None, bool, set[tuple[str, tuple[Cell, ...]]]]:
    """Black's move under renju: (forbidden kind or None, wins, deciding lines)."""
    after = _with(board, cell)
    fives = {
        ("five", tuple(sorted(run)))
        for d in DIRECTIONS
        if len(run := _black_run(after, cell, d)) == 5
    }
    if fives:
        return None, True, fives
    found = renju_forbidden(board, cell)
    if found is None:
        return None, False, set()
    return found[0], False, found[1]


def renju_forbidden_points(board: Board) -> list[tuple[int, int, str]]:
    points = []
    for r in range(RENJU):
        for c in range(RENJU):
            if (r, c) not in board and (found := renju_forbidden(board, (r, c))) is not None:
                points.append((r, c, found[0]))
    return points
