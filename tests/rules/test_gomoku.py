"""Five in a row (``app/rules/gomoku.py``): renju's forbidden points on every test position of two
public engines (``tests/data/renju-forbidden.json``), the engine against the slow reference of
``gomoku_reference.py`` on those and on random positions, and each rule's edges by hand."""

from __future__ import annotations

import json
import math
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from app.rules.gomoku import (
    DIRECTIONS,
    Color,
    GomokuBoard,
    Line,
    MoveCheck,
    RowsBoard,
    Rule,
    Stones,
    check_move,
    forbidden,
    forbidden_points,
)
from tests.rules import gomoku_reference as reference

DATA = Path(__file__).resolve().parents[1] / "data" / "renju-forbidden.json"
POSITIONS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["positions"]
IDS = [f"{Path(p['file']).stem}-{p['test']}-{p['case']}" for p in POSITIONS]
Cell = tuple[int, int]
LineSet = set[tuple[str, tuple[Cell, ...]]]


def board(*rows: str) -> GomokuBoard:
    """A 15 × 15 board whose top left corner is ``rows`` (the rest empty)."""
    return GomokuBoard.from_rows(
        [row.ljust(15, ".") for row in rows] + ["." * 15] * (15 - len(rows))
    )


def both_boards(rows: list[str]) -> list[Stones]:
    """A position as the engine is given it: a session's board of stones (whose cells the renju
    checks read one by one, as they need them) and a posted board's rows (read whole)."""
    return [GomokuBoard.from_rows(rows), RowsBoard(rows)]


def lines_of(check: MoveCheck) -> LineSet:
    return {(line.shape, line.cells) for line in check.lines}


def black(*cells: Cell) -> GomokuBoard:
    return GomokuBoard(15, dict.fromkeys(cells, "B"))


# --- the sources' positions --------------------------------------------------------------------


def realcore_board(moves: str) -> list[str]:
    """realcore's move list: column letter, then row letter from the top; Black first; ``pp`` a
    pass (the turn still changes)."""
    grid = [["."] * 15 for _ in range(15)]
    for i in range(0, len(moves), 2):
        if moves[i : i + 2] != "pp":
            grid[ord(moves[i + 1]) - 97][ord(moves[i]) - 97] = "B" if i % 4 == 0 else "W"
    return ["".join(row) for row in grid]


def quintet_board(display: list[str]) -> list[str]:
    """quintet's text board: top line first, ``o`` Black, ``x`` White, cells between spaces."""
    return [line.replace(" ", "").replace("o", "B").replace("x", "W") for line in display]


def source_cell(name: str) -> Cell:
    """A point as the source names it: realcore ``KH`` (column K, row H from the top), quintet
    ``Point(10, 7)`` (x from the left, y from the bottom)."""
    if match := re.fullmatch(r"Point\((\d+), (\d+)\)", name):
        return 14 - int(match[2]), int(match[1])
    return ord(name[1]) - 65, ord(name[0]) - 65


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_a_source_position_is_the_board_its_notation_writes(position: dict[str, Any]) -> None:
    if "moves" in position:
        assert realcore_board(position["moves"]) == position["board"]
    else:
        assert quintet_board(position["display"]) == position["board"]
    for point in expected_points(position) + (position.get("expected_forbidden_points") or []):
        row, col = point["row"], point["col"]
        assert source_cell(point["source_name"]) == (row, col)
        assert point["square"] == "abcdefghijklmno"[col] + str(15 - row)  # RIF: row 1 at the bottom
        assert position["board"][row][col] == "."


def expected_points(position: dict[str, Any]) -> list[dict[str, Any]]:
    points: list[dict[str, Any]] = position.get("expected_points", [])
    return points


def test_only_the_two_renju_world_positions_are_read_against_their_source() -> None:
    marked = [p for p in POSITIONS if "contradicts_contract" in p]
    assert [(p["file"], p["test"], p["case"]) for p in marked] == [
        ("test/bit_board/BitBoardForbiddenTest.cc", "IsDoubleThreeTest", 4),
        ("test/bit_board/BitBoardForbiddenTest.cc", "IsDoubleThreeTest", 5),
    ]
    for position in marked:
        assert "連珠世界" in position["title"]  # Renju World, the magazine both cite
        ours = [point["forbidden"] for point in position["expected_points"]]
        theirs = [point["forbidden"] for point in position["source_expected_points"]]
        assert ours != theirs


@cache
def reference_answers(index: int) -> dict[Cell, tuple[str | None, bool, LineSet]]:
    """The reference's answer for Black at every empty point of a data position (slow: once)."""
    stones = reference.board_of(POSITIONS[index]["board"])
    return {
        (r, c): reference.renju_black(stones, (r, c))
        for r in range(15)
        for c in range(15)
        if (r, c) not in stones
    }


def assert_finds_what_the_source_asserts(
    position: dict[str, Any], points: list[tuple[int, int, str]]
) -> None:
    found = {(r, c): kind for r, c, kind in points}
    if position.get("expected_forbidden_points") is not None:
        expected = position["expected_forbidden_points"]
        assert found == {(p["row"], p["col"]): p["forbidden"] for p in expected}
    for point in expected_points(position):
        assert found.get((point["row"], point["col"])) == point["forbidden"], point["square"]


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_engine_finds_what_the_source_asserts(position: dict[str, Any]) -> None:
    for stones in both_boards(position["board"]):
        points = forbidden_points(stones, 15)
        assert_finds_what_the_source_asserts(position, points)
        for point in expected_points(position):
            found = forbidden(stones, 15, point["row"], point["col"])
            assert (found and found[0]) == point["forbidden"]


@pytest.mark.parametrize("index", range(len(POSITIONS)), ids=IDS)
def test_reference_finds_what_the_source_asserts(index: int) -> None:
    answers = reference_answers(index)
    points = sorted((r, c, kind) for (r, c), (kind, _, _) in answers.items() if kind)
    assert_finds_what_the_source_asserts(POSITIONS[index], points)


@pytest.mark.parametrize("index", range(len(POSITIONS)), ids=IDS)
def test_engine_agrees_with_the_reference_at_every_point_of_a_source_position(index: int) -> None:
    for stones in both_boards(POSITIONS[index]["board"]):
        for (row, col), (kind, wins, lines) in reference_answers(index).items():
            check = check_move(stones, 15, row, col, "B", "renju")
            found = (check.forbidden, check.wins, lines_of(check))
            assert found == (kind, wins, lines), (type(stones).__name__, row, col)
            assert check.legal == (kind is None)
            assert check.reason == (None if kind is None else "forbidden")
            assert check_move(stones, 15, row, col, "W", "renju").legal  # White: none forbidden


# --- random positions, engine against reference ------------------------------------------------


@st.composite
def renju_positions(draw: st.DrawFn) -> dict[Cell, str]:
    """20 to 80 stones in a square of the board, dense enough that they meet (they fill up to
    four fifths of it), Black a half to two thirds of them: positions with fours, threes and
    forbidden points."""
    count = draw(st.integers(20, 80))
    side = draw(st.integers(math.isqrt(count * 5 // 4 - 1) + 1, 15))
    top, left = draw(st.integers(0, 15 - side)), draw(st.integers(0, 15 - side))
    square = [(top + r, left + c) for r in range(side) for c in range(side)]
    cells = draw(st.permutations(square))[:count]
    blacks = draw(st.integers(count // 2, count * 2 // 3))
    return {cell: "B" if i < blacks else "W" for i, cell in enumerate(cells)}


@seed(20250101)
@settings(max_examples=80, deadline=None)
@given(renju_positions())
def test_renju_agrees_with_the_reference_at_every_empty_point(stones: dict[Cell, str]) -> None:
    boards = both_boards(GomokuBoard(15, stones).rows())
    answers = {}
    for r in range(15):
        for c in range(15):
            if (r, c) in stones:
                continue
            kind, wins, lines = answers[r, c] = reference.renju_black(stones, (r, c))
            for board in boards:
                check = check_move(board, 15, r, c, "B", "renju")
                found = (check.forbidden, check.wins, lines_of(check))
                assert found == (kind, wins, lines), (type(board).__name__, r, c)
                white = check_move(board, 15, r, c, "W", "renju")
                assert white.legal
                assert lines_of(white) == reference.winning_lines(stones, r, c, "W", "renju")
    expected = [(r, c, kind) for (r, c), (kind, _, _) in sorted(answers.items()) if kind]
    for board in boards:
        assert forbidden_points(board, 15) == expected


@st.composite
def sparse_positions(draw: st.DrawFn) -> tuple[int, dict[Cell, str], Rule, list[Cell]]:
    """A board of any size, up to 10⁶ × 10⁶, with stones in one small square of it — often at an
    edge or a corner, where caro's edge matters — a rule, and the cells to try. Across the
    square, one line holds a run of three to seven stones of one colour with one hole, each end
    empty, the other colour's, or off the board: runs of five and six, open and closed."""
    size = draw(st.sampled_from([5, 6, 9, 15, 19, 1000, 1_000_000]))
    side = min(size, draw(st.integers(5, 10)))
    top = draw(st.sampled_from([0, size - side]) | st.integers(0, size - side))
    left = draw(st.sampled_from([0, size - side]) | st.integers(0, size - side))
    square = [(top + r, left + c) for r in range(side) for c in range(side)]
    cells = draw(st.permutations(square))[: draw(st.integers(0, len(square) * 3 // 5))]
    colors = draw(st.lists(st.sampled_from("BW"), min_size=len(cells), max_size=len(cells)))
    stones = dict(zip(cells, colors, strict=True))
    mine, other = draw(st.sampled_from([("B", "W"), ("W", "B")]))
    run, ends = draw(st.sampled_from([5, 6, 4, 7, 3])), st.sampled_from([other, "."])
    hole = draw(st.integers(0, run - 1))
    marks = [draw(ends), *(mine * hole), ".", *(mine * (run - 1 - hole)), draw(ends)]
    (dr, dc), start = draw(st.sampled_from(DIRECTIONS)), draw(st.integers(-1, side - 2))
    r, c = {
        (0, 1): (top + draw(st.integers(0, side - 1)), left + start),
        (1, 0): (top + start, left + draw(st.integers(0, side - 1))),
        (1, 1): (top + start, left + start),
        (1, -1): (top + start, left + side - 1 - start),
    }[dr, dc]
    line = [(r + k * dr, c + k * dc) for k in range(len(marks))]
    on_board = [(cell, mark) for cell, mark in zip(line, marks, strict=True) if on(size, cell)]
    for cell, mark in on_board:  # the rest of the line is off the board: an edge
        stones.pop(cell, None)
        if mark != ".":
            stones[cell] = mark
    rule: Rule = draw(st.sampled_from(["freestyle", "standard", "caro"]))
    return size, stones, rule, square + [cell for cell, _ in on_board if cell not in square]


def on(size: int, cell: Cell) -> bool:
    return 0 <= cell[0] < size and 0 <= cell[1] < size


@seed(20250102)
@settings(max_examples=500, deadline=None)
@given(sparse_positions())
def test_freestyle_standard_and_caro_agree_with_the_reference(
    position: tuple[int, dict[Cell, str], Rule, list[Cell]],
) -> None:
    size, stones, rule, tried = position
    engine_board = GomokuBoard(size, stones)
    for row, col in tried:
        for color in ("B", "W"):
            check = check_move(engine_board, size, row, col, color, rule)
            if (row, col) in stones:
                assert check == MoveCheck(False, "occupied", None, False, ())
                continue
            lines = reference.winning_lines(stones, row, col, color, rule)
            assert lines_of(check) == lines, (row, col, color)
            assert len(check.lines) == len(lines)
            assert check.legal
            assert check.wins == bool(lines)


# --- each rule's edges ---------------------------------------------------------------------------


def row_cells(start: int, stop: int) -> tuple[Cell, ...]:
    """Cells ``start`` to ``stop - 1`` of row 7."""
    return tuple((7, c) for c in range(start, stop))


def row_board(size: int, row: str, at: int = 7) -> GomokuBoard:
    """A size × size board with ``row`` written in row ``at`` from column 0."""
    return GomokuBoard(size, {(at, c): mark for c, mark in enumerate(row) if mark in "BW"})


def test_standard_wins_with_exactly_five_and_not_with_six() -> None:
    stones = row_board(15, "BBBB.B.BBBB....")
    six = check_move(stones, 15, 7, 4, "B", "standard")
    assert six == MoveCheck(True, None, None, False, ())
    five = check_move(stones, 15, 7, 11, "B", "standard")
    assert five == MoveCheck(True, None, None, True, (Line("five", row_cells(7, 12)),))


def test_freestyle_wins_with_six_and_names_the_whole_overline() -> None:
    stones = row_board(15, "BBBB.B.........")
    check = check_move(stones, 15, 7, 4, "B", "freestyle")
    assert check == MoveCheck(True, None, None, True, (Line("overline", row_cells(0, 6)),))


def test_caro_five_closed_by_the_opponent_at_both_ends_does_not_win() -> None:
    closed = row_board(15, "..WBBBB.W......")
    assert not check_move(closed, 15, 7, 7, "B", "caro").wins
    assert check_move(closed, 15, 7, 7, "B", "freestyle").wins
    open_at_one_end = row_board(15, "...BBBB.W......")
    assert check_move(open_at_one_end, 15, 7, 7, "B", "caro").wins


def test_caro_five_against_the_board_edge_wins() -> None:
    left_edge = row_board(15, "BBBB.W.........")
    check = check_move(left_edge, 15, 7, 4, "B", "caro")
    assert check == MoveCheck(True, None, None, True, (Line("five", row_cells(0, 5)),))
    # The far corner of a 10⁶ board, along a column: the edge below, White above.
    n = 1_000_000
    far = GomokuBoard(n, {(n - 6, n - 1): "W", **{(n - k, n - 1): "B" for k in (1, 2, 3, 4)}})
    assert check_move(far, n, n - 5, n - 1, "B", "caro").wins


def test_caro_overline_wins_even_closed_at_both_ends() -> None:
    closed = row_board(15, "WBBB.BBW.......")
    check = check_move(closed, 15, 7, 4, "B", "caro")
    assert check == MoveCheck(True, None, None, True, (Line("overline", row_cells(1, 7)),))


def test_renju_black_overline_is_forbidden_and_the_five_beside_it_wins() -> None:
    stones = row_board(15, ".BBBB.B........")
    overline = check_move(stones, 15, 7, 5, "B", "renju")
    assert (overline.legal, overline.reason, overline.forbidden) == (False, "forbidden", "overline")
    assert overline.lines == (Line("overline", row_cells(1, 7)),)
    five = check_move(stones, 15, 7, 0, "B", "renju")
    assert five == MoveCheck(True, None, None, True, (Line("five", row_cells(0, 5)),))
    white = row_board(15, ".WWWW.W........")
    assert check_move(white, 15, 7, 5, "W", "renju").lines == (Line("overline", row_cells(1, 7)),)


def test_renju_black_five_wins_though_the_move_also_makes_an_overline() -> None:
    # Row 7: four Black stones left of (7, 7); column 7: Black above and below it, six with it.
    cells = [(7, 3), (7, 4), (7, 5), (7, 6), (4, 7), (5, 7), (6, 7), (8, 7), (9, 7)]
    check = check_move(black(*cells), 15, 7, 7, "B", "renju")
    assert check == MoveCheck(True, None, None, True, (Line("five", row_cells(3, 8)),))
    without_the_five = black(*cells[1:])
    assert forbidden(without_the_five, 15, 7, 7) is not None


def test_renju_five_takes_precedence_over_a_double_four() -> None:
    fours = [
        (4, 7),
        (5, 7),
        (6, 7),
        (4, 4),
        (5, 5),
        (6, 6),
    ]  # a four on the column, one on the diagonal
    check = check_move(black((7, 3), (7, 4), (7, 5), (7, 6), *fours), 15, 7, 7, "B", "renju")
    assert check == MoveCheck(
        True, None, None, True, (Line("five", ((7, 3), (7, 4), (7, 5), (7, 6), (7, 7))),)
    )
    without_the_five = check_move(black((7, 4), (7, 5), (7, 6), *fours), 15, 7, 7, "B", "renju")
    assert without_the_five.forbidden == "double_four"


@pytest.mark.parametrize(
    ("row", "col", "fours"),
    [
        # XX.XX.XX: the move at (7, 7) makes two fours, completed at (7, 5) and (7, 8).
        ("...BB.B..BB....", 7, {(3, 4, 6, 7), (6, 7, 9, 10)}),
        # X.XXX.X: the move at (7, 6) makes two fours, completed at (7, 4) and (7, 8).
        ("...B.B.B.B.....", 6, {(3, 5, 6, 7), (5, 6, 7, 9)}),
    ],
    ids=["XX.XX.XX", "X.XXX.X"],
)
def test_renju_two_fours_on_one_line_are_a_double_four(
    row: str, col: int, fours: set[tuple[int, ...]]
) -> None:
    check = check_move(row_board(15, row), 15, 7, col, "B", "renju")
    assert (check.legal, check.forbidden) == (False, "double_four")
    assert lines_of(check) == {("four", tuple((7, c) for c in four)) for four in fours}


def test_renju_a_straight_four_is_one_four() -> None:
    check = check_move(row_board(15, "....BBB........"), 15, 7, 7, "B", "renju")
    assert check == MoveCheck(True, None, None, False, ())


def test_renju_a_three_whose_straight_four_point_is_forbidden_is_not_a_three() -> None:
    # (7, 7) makes the three (7, 5) . (7, 7) (7, 8) on row 7, whose only straight-four point is
    # (7, 6), and the open three (6, 7) (7, 7) (8, 7) on column 7. With (7, 7) played, (7, 6)
    # makes the straight four on row 7 and a four on column 6: a double-four, forbidden.
    row_three, column_three = [(7, 5), (7, 8)], [(6, 7), (8, 7)]
    column_six = [(3, 6), (4, 6), (5, 6)]
    stones = black(*row_three, *column_three, *column_six)
    assert forbidden(stones, 15, 7, 7) is None
    played = black(*row_three, *column_three, *column_six, (7, 7))
    assert forbidden(played, 15, 7, 6) == (
        "double_four",
        (
            Line("four", ((7, 5), (7, 6), (7, 7), (7, 8))),
            Line("four", ((3, 6), (4, 6), (5, 6), (7, 6))),
        ),
    )
    # Without the column-six four, (7, 6) is only a straight four: the row's three is real.
    found = forbidden(black(*row_three, *column_three, *column_six[1:]), 15, 7, 7)
    assert found == (
        "double_three",
        (Line("three", ((7, 5), (7, 7), (7, 8))), Line("three", ((6, 7), (7, 7), (8, 7)))),
    )


def test_renju_a_three_whose_only_straight_four_point_makes_a_five_is_not_a_three() -> None:
    # As above, but column 6 holds four Black stones: (7, 6) would make the row's straight four
    # and a five on column 6 at once. RIF's three is made "without at the same time a five".
    row_three, column_three = [(7, 5), (7, 8)], [(6, 7), (8, 7)]
    column_six = [(3, 6), (4, 6), (5, 6), (6, 6)]
    stones = black(*row_three, *column_three, *column_six)
    assert check_move(stones, 15, 7, 7, "B", "renju") == MoveCheck(True, None, None, False, ())
    played = black(*row_three, *column_three, *column_six, (7, 7))
    assert check_move(played, 15, 7, 6, "B", "renju").wins  # the point would win, not make four
    assert forbidden(black(*row_three, *column_three), 15, 7, 7) is not None


def test_renju_white_has_no_forbidden_points() -> None:
    stones = GomokuBoard(15, {(7, 5): "W", (7, 8): "W", (6, 7): "W", (8, 7): "W"})
    assert check_move(stones, 15, 7, 7, "W", "renju") == MoveCheck(True, None, None, False, ())
    as_black = GomokuBoard(15, {(7, 5): "B", (7, 8): "B", (6, 7): "B", (8, 7): "B"})
    assert forbidden_points(as_black, 15) == [(7, 7, "double_three")]


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju", "caro"])
def test_an_occupied_cell_is_refused(rule: Rule) -> None:
    stones = board("B", "W")
    for color in ("B", "W"):
        check = check_move(stones, 15, 1, 0, color, rule)
        assert check == MoveCheck(False, "occupied", None, False, ())


def test_points_off_the_board_and_renju_off_15_are_refused() -> None:
    with pytest.raises(ValueError, match="off"):
        check_move(board(), 15, 15, 0, "B", "freestyle")
    with pytest.raises(ValueError, match="15 × 15"):
        check_move(GomokuBoard(19), 19, 9, 9, "B", "renju")
    with pytest.raises(ValueError, match="15 × 15"):
        forbidden_points(GomokuBoard(19), 19)
    with pytest.raises(ValueError, match="not empty"):
        forbidden(board("B"), 15, 0, 0)


class Recording:
    """A board that notes every cell the engine reads."""

    def __init__(self, stones: GomokuBoard) -> None:
        self.stones, self.read = stones, set[Cell]()

    def at(self, row: int, col: int) -> Color | None:
        self.read.add((row, col))
        return self.stones.at(row, col)


def test_a_move_on_a_huge_board_reads_at_most_five_cells_each_way() -> None:
    # Black's row of 40 (a standard game goes on past six) and White's stones around the move.
    n, centre = 1_000_000, 500_000
    cells: dict[Cell, Color] = {(centre, centre + k): "B" for k in range(-40, 0)}
    cells |= {(centre + dr, centre + dc): "W" for dr in (-1, 1) for dc in (-1, 0, 1)}
    stones = Recording(GomokuBoard(n, cells))
    assert check_move(stones, n, centre, centre, "B", "standard") == MoveCheck(
        True, None, None, False, ()
    )
    for rule in ("freestyle", "standard", "caro"):
        assert not check_move(stones, n, centre, centre, "W", rule).wins
    assert stones.read
    assert all(abs(r - centre) <= 5 and abs(c - centre) <= 5 for r, c in stones.read)
    # Only an overline that wins is walked to its end, to name its stones.
    overline = check_move(stones, n, centre, centre, "B", "freestyle")
    assert overline.lines == (Line("overline", tuple((centre, centre + k) for k in range(-40, 1))),)


def test_the_board_reads_rows_and_cells_alike() -> None:
    rows = ["B..", ".W.", "..B"]
    stones = GomokuBoard.from_rows(rows)
    assert stones.rows() == rows
    assert GomokuBoard.from_cells(3, {(0, 0): "B", (1, 1): "W", (2, 2): "B"}).rows() == rows
    assert (stones.at(1, 1), stones.at(0, 1), stones.at(-1, 0), stones.at(3, 3)) == (
        "W",
        None,
        None,
        None,
    )
    with pytest.raises(ValueError, match="not B, W"):
        GomokuBoard.from_rows(["X.", ".."])
    with pytest.raises(ValueError, match="cells"):
        GomokuBoard.from_rows(["B..", ".."])
