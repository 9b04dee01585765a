"""Square names as the contract writes them ("Squares in notation"): a column letter and a row
number from 1, Othello's rows counted from the top, tic-tac-toe's (gomoku's, renju's) from the
bottom, only on boards of at most 26 columns; read case-insensitively, written in lower case."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.contract import squares
from app.contract.squares import SquareError, Squares, name, parse

TOP, BOTTOM = False, True  # from_bottom


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("a1", (0, 0)),
        ("f5", (4, 5)),
        ("h8", (7, 7)),
        ("a8", (7, 0)),
        ("h1", (0, 7)),
        # The four legal first moves of the standard game.
        ("d3", (2, 3)),
        ("c4", (3, 2)),
        ("e6", (5, 4)),
    ],
)
def test_othello_counts_rows_from_the_top(text: str, cell: tuple[int, int]) -> None:
    assert parse(text, 8, 8, TOP) == cell
    assert name(*cell, 8, 8, TOP) == text


@pytest.mark.parametrize(
    ("text", "cell"),
    [("a1", (14, 0)), ("h8", (7, 7)), ("o15", (0, 14)), ("a15", (0, 0)), ("o1", (14, 14))],
)
def test_gomoku_counts_rows_from_the_bottom_on_15_by_15(text: str, cell: tuple[int, int]) -> None:
    assert parse(text, 15, 15, BOTTOM) == cell
    assert name(*cell, 15, 15, BOTTOM) == text


def test_three_by_three_tic_tac_toe() -> None:
    assert name(1, 1, 3, 3, BOTTOM) == "b2"  # the centre
    assert name(0, 0, 3, 3, BOTTOM) == "a3"  # top left
    assert name(2, 2, 3, 3, BOTTOM) == "c1"  # bottom right


def test_row_numbers_of_several_digits() -> None:
    assert name(9, 0, 32, 26, TOP) == "a10"
    assert parse("z32", 32, 26, TOP) == (31, 25)
    assert parse("b10", 12, 12, BOTTOM) == (2, 1)
    assert name(2, 1, 12, 12, BOTTOM) == "b10"


def test_26_columns_have_names_and_27_none() -> None:
    assert name(0, 25, 26, 26, BOTTOM) == "z26"
    assert parse("Z1", 26, 26, BOTTOM) == (25, 25)
    assert Squares.of(26, 26, "bottom") is not None
    assert Squares.of(32, 26, "top") is not None
    assert Squares.of(26, 27, "bottom") is None
    assert Squares.of(4, 27, "top") is None
    with pytest.raises(SquareError) as none:
        parse("a1", 27, 27, BOTTOM)
    assert none.value.type == "no_square_names"
    with pytest.raises(ValueError, match="no square names"):
        name(0, 0, 27, 27, BOTTOM)


def test_names_are_read_in_any_case_and_written_in_lower_case() -> None:
    assert parse("F5", 8, 8, TOP) == parse("f5", 8, 8, TOP) == (4, 5)
    assert squares.check_syntax("H10") == "h10"
    assert name(4, 5, 8, 8, TOP) == "f5"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("i1", "outside_board"),  # column i on 8 columns
        ("a9", "outside_board"),  # row 9 on 8 rows
        ("z99", "outside_board"),
        ("a0", "square_syntax"),  # rows start at 1
        ("a01", "square_syntax"),  # no leading zero
        ("aa1", "square_syntax"),
        ("f", "square_syntax"),
        ("5", "square_syntax"),
        ("5f", "square_syntax"),
        ("", "square_syntax"),
        (" f5", "square_syntax"),
        ("f5 ", "square_syntax"),
        ("f5\n", "square_syntax"),
        ("f-5", "square_syntax"),
        ("f+5", "square_syntax"),
        ("f5.0", "square_syntax"),
        ("ｆ５", "square_syntax"),  # full-width letter and digit
        ("f٥", "square_syntax"),  # an Arabic-Indic five: a digit to str.isdigit, not here
        ("é5", "square_syntax"),
        ("a" + "1" * 100_000, "square_syntax"),
    ],
)
def test_a_text_that_names_no_square_says_why(text: str, why: str) -> None:
    with pytest.raises(SquareError) as refused:
        parse(text, 8, 8, TOP)
    assert refused.value.type == why
    assert str(refused.value)


def test_name_refuses_a_cell_outside_the_board() -> None:
    for row, col in ((8, 0), (0, 8), (-1, 0), (0, -1)):
        with pytest.raises(ValueError, match="not a cell"):
            name(row, col, 8, 8, TOP)


boards = st.tuples(st.integers(1, 40), st.integers(1, 26), st.booleans())


@given(
    boards.flatmap(
        lambda b: st.tuples(st.just(b), st.integers(0, b[0] - 1), st.integers(0, b[1] - 1))
    )
)
def test_parse_reads_back_every_name(case: tuple[tuple[int, int, bool], int, int]) -> None:
    (height, width, from_bottom), row, col = case
    text = name(row, col, height, width, from_bottom)
    assert text == text.lower()
    assert parse(text, height, width, from_bottom) == (row, col)
    assert parse(text.upper(), height, width, from_bottom) == (row, col)
    board = Squares(height, width, from_bottom)
    assert board.name(row, col) == text
    assert board.parse(text) == (row, col)


@given(boards)
def test_every_cell_has_its_own_name(board: tuple[int, int, bool]) -> None:
    height, width, from_bottom = board
    names = {name(r, c, height, width, from_bottom) for r in range(height) for c in range(width)}
    assert len(names) == height * width


@given(st.text(max_size=12), boards)
def test_any_text_is_a_cell_of_the_board_or_a_square_error(
    text: str, board: tuple[int, int, bool]
) -> None:
    height, width, from_bottom = board
    try:
        row, col = parse(text, height, width, from_bottom)
    except SquareError:
        return
    assert 0 <= row < height
    assert 0 <= col < width
    assert name(row, col, height, width, from_bottom) == text.lower()
