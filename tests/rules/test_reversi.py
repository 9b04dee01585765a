"""The bitboard engine against the cell-by-cell direction walk, on many positions and shapes."""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import reversi
from app.rules.reversi import OPENING, Board
from tests.rules.reference import reversi_flips, reversi_moves, reversi_play


def random_game_positions(seed: int, count: int) -> list[tuple[list[str], str]]:
    """Positions (and the colour to move) from random legal play on 8 × 8, per the reference."""
    rng = random.Random(seed)
    positions: list[tuple[list[str], str]] = []
    while len(positions) < count:
        grid, color = list(OPENING), "B"
        while len(positions) < count:
            positions.append((grid, color))
            moves = reversi_moves(grid, color)
            other = "W" if color == "B" else "B"
            if not moves:
                if not reversi_moves(grid, other):
                    break
                color = other
                continue
            grid = reversi_play(grid, *rng.choice(moves), color)
            color = other
    return positions


def random_board(rng: random.Random, rows: int, cols: int) -> list[str]:
    weights = rng.choice([(1, 1, 1), (3, 1, 1), (1, 3, 3), (6, 1, 2)])
    return ["".join(rng.choices(".BW", weights, k=cols)) for _ in range(rows)]


def assert_engine_matches_reference(grid: list[str]) -> None:
    from_rows = Board.from_rows(grid)
    assert from_rows.to_rows() == grid
    # The same position built from bitboards answers the same (its rows are derived lazily).
    from_bits = Board.from_bitboards(len(grid), len(grid[0]), from_rows.black, from_rows.white)
    assert from_bits.to_rows() == grid
    for board in (from_rows, from_bits):
        assert_board_matches_reference(board, grid)


def assert_board_matches_reference(board: Board, grid: list[str]) -> None:
    checks = reversi.BoardChecks(board)  # a batch's questions, answered by the board's masks
    for color in ("B", "W"):
        expected_moves = reversi_moves(grid, color)
        moves = reversi.legal_moves(board, color)
        assert [(m.row, m.col) for m in moves] == expected_moves
        assert reversi.has_legal_move(board, color) == bool(expected_moves)
        for move in moves:
            assert move.flips == len(reversi_flips(grid, move.row, move.col, color))
        for r in range(len(grid)):
            for c in range(len(grid[0])):
                check = reversi.check_move(board, r, c, color)
                assert checks.check(r, c, color) == check
                expected = reversi_flips(grid, r, c, color)
                assert check.flips == expected
                flips = reversi.move_flips(board, r, c, color)  # the bitboard path of a move
                if grid[r][c] != ".":
                    assert flips is None
                else:
                    assert flips is not None
                    assert board.cells(flips) == expected
                    assert board.cell_lists(flips) == [list(cell) for cell in expected]
                assert check.legal == bool(expected)
                if grid[r][c] != ".":
                    assert check.reason == "occupied"
                elif not expected:
                    assert check.reason == "no_bracket"
                else:
                    assert check.reason is None


def test_random_8x8_game_positions_match_reference() -> None:
    for grid, _ in random_game_positions(seed=1, count=2000):
        assert_engine_matches_reference(grid)


@pytest.mark.parametrize("seed", range(4))
def test_random_boards_of_every_shape_up_to_10x10_match_reference(seed: int) -> None:
    rng = random.Random(seed)
    for rows in range(1, 11):
        for cols in range(1, 11):
            assert_engine_matches_reference(random_board(rng, rows, cols))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 32).flatmap(
        lambda cols: st.lists(
            st.text(alphabet=".BW", min_size=cols, max_size=cols), min_size=1, max_size=32
        )
    )
)
def test_any_board_up_to_32x32_matches_reference(grid: list[str]) -> None:
    board = Board.from_rows(grid)
    assert board.to_rows() == grid
    checks = reversi.BoardChecks(board)
    for color in ("B", "W"):
        assert [(m.row, m.col) for m in reversi.legal_moves(board, color)] == reversi_moves(
            grid, color
        )
        for r, c in {(len(grid) - 1, len(grid[0]) - 1), (len(grid) // 2, len(grid[0]) // 2)}:
            assert checks.check(r, c, color).flips == reversi_flips(grid, r, c, color)


def assert_turn_matches_reference(grid: list[str], row: int, col: int, color: str) -> None:
    """``after_move`` of a legal move against the reference: the rows after it (written from
    the bitboards), the bitboards and lanes, and who moves next."""
    board = Board.from_rows(grid)
    flips = reversi.move_flips(board, row, col, color)
    assert flips
    after, next_color, passed = reversi.after_move(board, row, col, color, flips)
    expected = reversi_play(grid, row, col, color)
    assert after.to_rows() == expected
    assert after.bits() == Board.from_rows(expected).bits()
    assert after.lanes() == Board.from_rows(expected).lanes()
    other = "W" if color == "B" else "B"
    if reversi_moves(expected, other):
        assert (next_color, passed) == (other, False)
    elif reversi_moves(expected, color):
        assert (next_color, passed) == (color, True)
    else:
        assert (next_color, passed) == (None, False)


@pytest.mark.parametrize("seed", range(4))
def test_moves_on_random_boards_of_every_shape_up_to_10x10_match_reference(seed: int) -> None:
    rng = random.Random(100 + seed)
    for rows in range(1, 11):
        for cols in range(1, 11):
            grid = random_board(rng, rows, cols)
            for color in ("B", "W"):
                for row, col in reversi_moves(grid, color):
                    assert_turn_matches_reference(grid, row, col, color)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 32).flatmap(
        lambda cols: st.lists(
            st.text(alphabet=".BW", min_size=cols, max_size=cols), min_size=1, max_size=32
        )
    ),
    st.sampled_from(["B", "W"]),
    st.randoms(use_true_random=False),
)
def test_any_move_on_any_board_up_to_32x32_matches_reference(
    grid: list[str], color: str, rng: random.Random
) -> None:
    board = Board.from_rows(grid)
    black, white = board.bits()
    assert Board.from_bitboards(len(grid), len(grid[0]), black, white).to_rows() == grid
    moves = reversi_moves(grid, color)
    assert reversi.has_legal_move(board, color) == bool(moves)
    row, col = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
    flips = reversi.move_flips(board, row, col, color)
    if grid[row][col] != ".":
        assert flips is None
    else:
        assert flips is not None
        assert board.cells(flips) == reversi_flips(grid, row, col, color)
    for row, col in rng.sample(moves, min(3, len(moves))):
        assert_turn_matches_reference(grid, row, col, color)


def test_apply_move_matches_reference_and_reports_turns_through_whole_games() -> None:
    rng = random.Random(7)
    for _ in range(60):
        grid, color = list(OPENING), "B"
        while True:
            moves = reversi_moves(grid, color)
            if not moves:
                break  # only reached for the very first colour when the game is over
            row, col = rng.choice(moves)
            outcome = reversi.apply_move(Board.from_rows(grid), row, col, color)
            after = reversi_play(grid, row, col, color)
            assert outcome.board.to_rows() == after
            # The board after the move carries rows and bitboards; both must say the same.
            assert outcome.board.lanes() == Board.from_rows(after).lanes()
            assert outcome.flips == reversi_flips(grid, row, col, color)
            text = "".join(after)
            assert outcome.score == {"B": text.count("B"), "W": text.count("W")}
            other = "W" if color == "B" else "B"
            if reversi_moves(after, other):
                assert (outcome.next, outcome.passed, outcome.game_over) == (other, False, False)
            elif reversi_moves(after, color):
                assert (outcome.next, outcome.passed, outcome.game_over) == (color, True, False)
            else:
                assert (outcome.next, outcome.passed, outcome.game_over) == (None, False, True)
                b, w = text.count("B"), text.count("W")
                assert outcome.winner == ("B" if b > w else "W" if w > b else "draw")
                break
            assert outcome.winner is None
            grid, color = after, outcome.next


def test_illegal_apply_raises_with_reason() -> None:
    board = Board.from_rows(OPENING)
    with pytest.raises(reversi.IllegalMove) as occupied:
        reversi.apply_move(board, 3, 3, "B")
    assert occupied.value.reason == "occupied"
    with pytest.raises(reversi.IllegalMove) as no_bracket:
        reversi.apply_move(board, 0, 0, "B")
    assert no_bracket.value.reason == "no_bracket"
    assert no_bracket.value.code == "illegal_move"


def test_moves_do_not_wrap_around_board_edges() -> None:
    # A W run that reaches the right edge must not continue onto the next row's first cell.
    grid = ["..WW", "B...", "....", "...."]
    board = Board.from_rows(grid)
    assert reversi.check_move(board, 0, 1, "B").legal is False
    assert reversi.legal_moves(board, "B") == []


def test_position_out_of_board_is_refused() -> None:
    with pytest.raises(IndexError):
        reversi.check_move(Board.from_rows(OPENING), 8, 0, "B")
    with pytest.raises(IndexError):
        reversi.BoardChecks(Board.from_rows(OPENING)).check(0, 8, "W")


class At(NamedTuple):
    row: int
    col: int


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 6), (8, 8), (6, 10)])
def test_play_through_plays_whole_games_as_the_reference_does(rows: int, cols: int) -> None:
    """Cells played at once (an audit's replay): each move's flips, the passes, the board and
    who moves after them are the reference's, played a move at a time; the first cell the
    colour to move cannot play stops it, with why."""
    rng = random.Random(rows * cols)
    start = reversi.standard_start(rows, cols)
    passes = 0
    for _ in range(40):
        grid, color, cells, flips, passed = start, "B", [], [], []
        while reversi_moves(grid, color) and rng.random() > 0.02:
            row, col = rng.choice(reversi_moves(grid, color))
            flipped = reversi_flips(grid, row, col, color)
            grid = reversi_play(grid, row, col, color)
            other = "W" if color == "B" else "B"
            color = other if reversi_moves(grid, other) else color
            cells.append((row, col))
            flips.append(flipped)
            if color != other:
                passed.append(len(cells) - 1)
        to_move = color if reversi_moves(grid, color) else None
        through = reversi.play_through(Board.from_rows(start), "B", map(At._make, cells))
        assert through.stopped is None
        assert [through.board.cells(f) for f in through.flips] == flips
        assert through.passes == [i for i in passed if i < len(cells) - 1 or to_move]
        assert (through.board.to_rows(), through.next) == (grid, to_move)
        passes += len(through.passes)
        # One more cell: outside, occupied, bracketing nothing, or after the end.
        row, col = rng.choice([(-1, 0), (0, cols), (rows // 2, cols // 2), (0, 0)])
        stopped = reversi.play_through(
            Board.from_rows(start), "B", map(At._make, [*cells, (row, col)])
        )
        if to_move is None:
            assert stopped.stopped == (len(cells), "game_over", None)
        elif not (0 <= row < rows and 0 <= col < cols):
            assert stopped.stopped == (len(cells), "outside", to_move)
        elif grid[row][col] != ".":
            assert stopped.stopped == (len(cells), "occupied", to_move)
        elif not reversi_flips(grid, row, col, to_move):
            assert stopped.stopped == (len(cells), "no_bracket", to_move)
        else:
            assert stopped.stopped is None
    if rows * cols <= 24:
        assert passes
