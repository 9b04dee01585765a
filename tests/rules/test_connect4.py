"""Connect Four's rules (``app/rules/connect4.py``) against the slow reference
(``tests/rules/connect4_reference.py``): random games move by move, every position of small
boards, posted boards of every kind, real positions (Pascal Pons' test sets), the notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.squares import Squares
from app.rules.connect4 import (
    BoardError,
    ColumnFull,
    NotationError,
    Position,
    check_shape,
    column_letter,
    parse_column,
    read_transcript,
    square,
    write_transcript,
)
from app.rules.errors import RuleError
from tests.rules.connect4_reference import Game, Judged, judge, windows

DATA = Path(__file__).resolve().parents[1] / "data"
PONS = sorted(DATA.glob("connect4-Test_*"))
PLAYER = {"X": 1, "O": 2}


def play(position: Position, columns: Sequence[int]) -> Position:
    for column in columns:
        position.drop(column)
    return position


def assert_judged_alike(position: Position, judged: Judged) -> None:
    """The engine's position says what the reference's verdict on its rows says."""
    assert judged.refused is None
    assert position.player == (None if judged.mark is None else PLAYER[judged.mark])
    assert position.winner == (0 if judged.winner is None else PLAYER[judged.winner])
    assert position.over == judged.over
    expected_reason = "line" if judged.winner else "board_full" if judged.over else None
    assert position.reason == expected_reason
    assert position.status == ("won" if judged.winner else "draw" if judged.over else "in_progress")
    assert position.legal_columns() == list(judged.columns)
    assert {cell for line in position.lines for cell in line} == judged.lines


def assert_checks_alike(position: Position, game: Game, over: bool) -> None:
    """Every column asked about, by the engine and by the reference, on the same board
    (``over``: as the reference judged it)."""
    for column in range(game.width):
        check = position.check(column)
        full = game.landing_row(column) is None
        refusal = "game_over" if over else "column_full" if full else None
        assert check.reason == refusal
        assert check.legal == (refusal is None)
        if refusal is None:
            row = game.landing_row(column)
            assert (check.row, check.square) == (row, square(row or 0, column, game.height))
            assert check.wins == game.wins_if_dropped(column)
        else:
            assert (check.row, check.square, check.wins) == (None, None, False)


# --- random games, move by move -----------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[int, int, int, list[int]]:
    """A board, k, and what is done on it: a column dropped into, or -1 for a takeback. Columns
    are often drawn from the first few, so that lines and full columns happen."""
    width = draw(st.integers(4, 8) | st.integers(4, 20))
    height = draw(st.integers(4, 8) | st.integers(4, 20))
    k = draw(st.integers(3, min(5, max(width, height))) | st.just(max(width, height)))
    narrow = draw(st.integers(1, width))
    actions = st.integers(0, narrow - 1) | st.integers(0, width - 1) | st.just(-1)
    return width, height, k, draw(st.lists(actions, max_size=min(width * height + 8, 100)))


@settings(max_examples=300, deadline=None)
@given(games())
def test_random_games_agree_with_the_reference_move_by_move(
    game_spec: tuple[int, int, int, list[int]],
) -> None:
    width, height, k, actions = game_spec
    position, game = Position(width, height, k), Game(width, height, k)
    for action in actions:
        if action == -1:
            if game.history:
                assert position.undo(game.history[-1]) == game.undo()
        else:
            refusal = "game_over" if game.over() else game.refusal(action)
            assert position.refusal(action) == refusal
            before = position.rows()
            if refusal == "game_over":
                with pytest.raises(ValueError, match="over"):
                    position.drop(action)
            elif refusal == "column_full":
                with pytest.raises(ColumnFull):
                    position.drop(action)
            else:
                check = position.check(action)
                mark = game.mark()
                row = game.drop(action)
                drop = position.drop(action)
                assert (drop.player, drop.column, drop.row) == (PLAYER[mark], action, row)
                assert check.row == row
                assert check.wins == drop.wins
                through = {c for w in windows(game.grid, mark, k) if (row, action) in w for c in w}
                assert {cell for line in drop.lines for cell in line} == through
                assert position.owner(row, action) == PLAYER[mark]
            if refusal is not None:
                assert position.rows() == before  # a refused drop changes nothing
        assert position.rows() == game.rows()
        assert position.moves == len(game.history)
        assert_judged_alike(position, judge(game.rows(), k))


# --- every position of small boards -------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "k"), [(4, 4, 3), (4, 4, 4)])
def test_every_reachable_position_of_a_small_board_agrees_with_the_reference(
    width: int, height: int, k: int
) -> None:
    """Every game played out from the empty board, by the reference's legal columns, the engine
    dropping and taking back alongside: at every position reached, the engine's state, its
    answer about every column (whether a drop wins: whether the reference finds a winner after
    it) and its reading of the same board posted agree with the reference's."""
    position, game = Position(width, height, k), Game(width, height, k)
    judged_of: dict[tuple[str, ...], Judged] = {}

    def visit() -> Judged:
        rows = tuple(game.rows())
        if rows in judged_of:
            return judged_of[rows]
        judged = judged_of[rows] = judge(rows, k)
        assert_judged_alike(position, judged)
        assert_judged_alike(Position.from_rows(rows, k), judged)
        checks = [position.check(column) for column in range(width)]
        for column, check in enumerate(checks):
            if column not in judged.columns:
                refusal = "game_over" if judged.over else "column_full"
                assert (check.legal, check.reason, check.row, check.wins) == (
                    False, refusal, None, False
                )  # fmt: skip
        for column in judged.columns:
            row = game.drop(column)
            assert position.drop(column).row == row
            assert (checks[column].legal, checks[column].row) == (True, row)
            assert checks[column].square == square(row, column, height)
            assert checks[column].wins == (visit().winner is not None)
            assert position.undo(column) == game.undo()
        return judged

    visit()
    assert position.moves == 0
    assert position.rows() == game.rows()
    endings = Counter(
        "in_progress" if not j.over else j.winner or "draw" for j in judged_of.values()
    )
    assert set(endings) == {"in_progress", "draw", "X", "O"}


# --- explicit games -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("columns", "line"),
    [
        ([0, 1, 0, 1, 0, 1, 0], [(2, 0), (3, 0), (4, 0), (5, 0)]),  # a column
        ([3, 3, 4, 4, 5, 5, 6], [(5, 3), (5, 4), (5, 5), (5, 6)]),  # a row
        ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], [(2, 3), (3, 2), (4, 1), (5, 0)]),  # rising
        ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], [(2, 3), (3, 4), (4, 5), (5, 6)]),  # falling
    ],
)
def test_four_in_a_row_wins_on_the_standard_board(
    columns: list[int], line: list[tuple[int, int]]
) -> None:
    position = play(Position(), columns[:-1])
    assert position.check(columns[-1]).wins
    drop = position.drop(columns[-1])
    assert drop.lines == (tuple(line),)
    assert (position.status, position.winner, position.reason) == ("won", 1, "line")
    assert position.player is None
    assert position.legal_columns() == []


def test_a_drop_completing_two_lines_names_both() -> None:
    # X holds a1 b1 c1 and e2 f3 g4; d1 completes the bottom row and the rising diagonal.
    position = play(Position(), [0, 4, 1, 5, 2, 5, 4, 6, 5, 6, 1, 6, 6, 0])
    assert position.check(3).wins
    drop = position.drop(3)
    bottom_row = ((5, 0), (5, 1), (5, 2), (5, 3))
    rising = ((2, 6), (3, 5), (4, 4), (5, 3))
    assert drop.lines == position.lines == (bottom_row, rising)
    assert position.winner == 1


def test_the_last_empty_cell_without_a_line_draws() -> None:
    position = play(Position(4, 4, 4), [3, 2, 1, 0, 2, 0, 0, 0, 3, 3, 1, 2, 3, 1, 2, 1])
    assert position.rows() == ["OOXX", "XOOO", "OXXX", "OXOX"]
    assert (position.status, position.winner, position.reason) == ("draw", 0, "board_full")
    assert position.player is None
    assert position.legal_columns() == []
    assert not windows(position.rows(), "X", 4)
    assert not windows(position.rows(), "O", 4)


def test_a_full_column_is_refused_with_its_own_error_and_nothing_changes() -> None:
    position = play(Position(7, 4, 4), [2, 2, 2, 2])
    rows = position.rows()
    assert position.refusal(2) == "column_full"
    with pytest.raises(ColumnFull) as refused:
        position.drop(2)
    error = refused.value
    assert isinstance(error, RuleError)
    assert error.code == "column_full"
    assert error.details() == {"column": 2}
    assert str(error) == "column c (2) is full: it holds 4 discs"
    assert position.rows() == rows
    assert position.player == 1


def test_game_over_outranks_a_full_column() -> None:
    position = play(Position(4, 4, 4), [0, 1, 0, 1, 0, 1, 0])
    assert position.refusal(0) == "game_over"
    assert position.refusal(3) == "game_over"
    assert position.check(0).reason == "game_over"


def test_a_takeback_of_the_winning_drop_puts_the_game_back_on() -> None:
    position = play(Position(), [0, 1, 0, 1, 0, 1, 0])
    assert position.undo(0) == 2  # X's fourth disc in column a, on the third row from the top
    assert (position.status, position.winner, position.lines, position.player) == (
        "in_progress", 0, (), 1
    )  # fmt: skip


def test_a_takeback_must_name_the_column_of_the_last_drop() -> None:
    position = play(Position(), [0, 1])
    with pytest.raises(ValueError, match="last drop"):
        position.undo(0)  # X's disc is on top of column a, but O dropped last
    with pytest.raises(ValueError, match="last drop"):
        position.undo(5)  # an empty column
    assert position.undo(1) == 5
    assert position.moves == 1
    with pytest.raises(ValueError, match="last drop"):
        Position().undo(0)


def test_a_column_off_the_board_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="not on a board 7 columns wide"):
        Position().check(7)
    with pytest.raises(ValueError, match="not on a board"):
        Position().drop(-1)


@pytest.mark.parametrize(
    ("width", "height", "k", "kind"),
    [(3, 6, 4, "board_size"), (7, 21, 4, "board_size"), (7, 6, 2, "k_range"),
     (7, 6, 8, "k_range"), (4, 20, 20, "ok"), (20, 4, 20, "ok"), (4, 4, 3, "ok")],
)  # fmt: skip
def test_board_shapes_and_k_are_bounded(width: int, height: int, k: int, kind: str) -> None:
    if kind == "ok":
        check_shape(width, height, k)
        assert Position(width, height, k).legal_columns() == list(range(width))
        return
    with pytest.raises(BoardError) as refused:
        Position(width, height, k)
    assert refused.value.type == kind


# --- posted boards ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "kind", "message"),
    [
        ([".......", "..X....", ".......", "......."], "floating_disc",
         "floating disc at c3: the cell under it, c2, is empty"),
        (["X...", "....", "X...", "O..."], "floating_disc",
         "floating disc at a4: the cell under it, a3, is empty"),
        (["....", "....", "....", "XX.."], "bad_counts", "X has 2 discs and O 0"),
        (["....", "....", "....", "O..."], "bad_counts", "X has 0 discs and O 1"),
        (["O...", "OX..", "OX..", "OXX."], "both_won", "both X and O have 3 in a row"),
        (["....", "....", "...."], "board_size", "this one has 3 rows of 4 cells"),
        (["....", "...", "....", "...."], "board_not_rectangular", "row 1 has 3 cells"),
        (["....", "....", "..x.", "...."], "board_cell", "row 2, column 2: 'x'"),
    ],
)  # fmt: skip
def test_posted_boards_are_refused_naming_why(rows: list[str], kind: str, message: str) -> None:
    k = 3 if kind == "both_won" else 4
    with pytest.raises(BoardError) as refused:
        Position.from_rows(rows, k)
    assert refused.value.type == kind == judge(rows, k).refused
    assert message in str(refused.value)


def test_a_posted_board_with_a_line_is_over_whoever_moved_last() -> None:
    # X's four in the bottom row, and O has as many discs: by the counts O moved after the
    # line, which no game does; the board is still over, won by X (see the module's docs).
    posted = Position.from_rows(["....", "O...", "OOO.", "XXXX"], 4)
    assert (posted.status, posted.winner, posted.player, posted.legal_columns()) == (
        "won", 1, None, []
    )  # fmt: skip
    assert posted.lines == (((3, 0), (3, 1), (3, 2), (3, 3)),)
    assert {posted.check(c).reason for c in range(4)} == {"game_over"}


def test_a_posted_board_is_not_searched_for_a_history() -> None:
    # No game reaches it (O's disc lies under X's, yet X drops first), but its answers are
    # defined: X to move, as the counts say.
    position = Position.from_rows(["....", "....", "X...", "O..."], 4)
    assert (position.player, position.legal_columns()) == (1, [0, 1, 2, 3])
    assert position.check(0) == (True, None, 1, "a3", False)


def boards(width: int, height: int) -> st.SearchStrategy[list[str]]:
    """Boards mostly made by gravity (columns of discs from the bottom, as games leave them)
    and then sometimes broken: a cell changed anywhere (a floating disc, wrong counts)."""

    @st.composite
    def build(draw: st.DrawFn) -> list[str]:
        columns = [
            draw(st.text("XO", max_size=height)).ljust(height, ".")[::-1] for _ in range(width)
        ]
        rows = ["".join(column[r] for column in columns) for r in range(height)]
        for _ in range(draw(st.integers(0, 2))):
            r, c = draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1))
            cell = draw(st.sampled_from("XO.xZ" if draw(st.integers(0, 9)) == 0 else "XO."))
            rows[r] = rows[r][:c] + cell + rows[r][c + 1 :]
        return rows

    return build()


@settings(max_examples=600, deadline=None)
@given(
    st.tuples(st.integers(3, 9), st.integers(3, 9)).flatmap(
        lambda size: st.tuples(boards(*size), st.integers(2, 6))
    )
)
def test_posted_boards_are_judged_as_the_reference_judges_them(
    board: tuple[list[str], int],
) -> None:
    rows, k = board
    judged = judge(rows, k)
    if judged.refused is not None:
        with pytest.raises(BoardError) as refused:
            Position.from_rows(rows, k)
        assert refused.value.type == judged.refused
        if judged.message is not None:
            assert str(refused.value) == judged.message
        return
    position = Position.from_rows(rows, k)
    assert_judged_alike(position, judged)
    game = Game(len(rows[0]), len(rows), k)
    game.grid = [list(row) for row in rows]
    game.history = [0] * (position.moves)  # only its length: whose turn it is
    assert_checks_alike(position, game, judged.over)
    assert position.rows() == rows


# --- real positions: Pascal Pons' test sets -----------------------------------------------------


@pytest.mark.parametrize("path", PONS, ids=[path.name for path in PONS])
def test_pons_positions_play_as_the_reference_plays_them(path: Path) -> None:
    """Each line is a game in progress (its moves as column digits) and its exact score for the
    player to move, which is (43 - moves) // 2 exactly when a drop wins at once (a later win
    scores less). The sets hold no such position: no drop of the player to move wins, as the
    reference agrees; every reply to every drop is compared with the reference's too."""
    lines = path.read_text().splitlines()
    assert len(lines) == 1000
    replies_that_win = 0
    for line in lines:
        transcript, score = line.split()
        columns = read_transcript(transcript, 7, 42)
        assert write_transcript(columns, 7) == transcript
        position, game = Position(), Game(7, 6, 4)
        for column in columns:
            assert game.refusal(column) is None
            assert position.drop(column).row == game.drop(column)
        assert not position.over
        assert game.winner() is None
        assert_judged_alike(Position.from_rows(game.rows()), judge(game.rows()))
        assert_checks_alike(position, game, over=False)
        wins_now = any(position.check(column).wins for column in position.legal_columns())
        assert not wins_now, line
        assert int(score) < (43 - len(columns)) // 2, line
        for column in position.legal_columns():
            position.drop(column)
            game.drop(column)
            assert_checks_alike(position, game, game.over())
            replies_that_win += any(position.check(c).wins for c in position.legal_columns())
            assert position.undo(column) == game.undo()
    assert replies_that_win > 0


# --- notation -----------------------------------------------------------------------------------


def test_square_names_are_the_contracts_counted_from_the_bottom() -> None:
    for width, height in [(4, 4), (7, 6), (20, 20), (5, 17)]:
        names = Squares.of(height, width, "bottom")
        assert names is not None
        for row in range(height):
            for col in range(width):
                assert square(row, col, height) == names.name(row, col)
    assert square(5, 3, 6) == "d1"
    assert square(0, 0, 6) == "a6"
    assert column_letter(3) == "d"


@pytest.mark.parametrize(("text", "column"), [("d", 3), ("D", 3), ("a", 0), ("g", 6)])
def test_a_column_letter_names_its_column_in_either_case(text: str, column: int) -> None:
    assert parse_column(text, 7) == column


@pytest.mark.parametrize("text", ["h", "", "dd", "d1", "3", "\u212a", "é"])
def test_anything_but_one_letter_of_the_board_is_not_a_column(text: str) -> None:
    with pytest.raises(NotationError):
        parse_column(text, 7)


@pytest.mark.parametrize(
    ("text", "width", "columns"),
    [("4453", 7, [3, 3, 4, 2]), ("ddec", 7, [3, 3, 4, 2]), ("DdEc", 12, [3, 3, 4, 2]),
     ("44 53\n1", 7, [3, 3, 4, 2, 0]), ("", 7, []), ("ta", 20, [19, 0])],
)  # fmt: skip
def test_transcripts_are_read_as_digits_or_letters(
    text: str, width: int, columns: list[int]
) -> None:
    assert read_transcript(text, width, 400) == columns


@pytest.mark.parametrize(
    ("text", "width", "index", "message"),
    [
        ("44d", 7, 2, "all digits or all letters"),
        ("d4", 7, 1, "all digits or all letters"),
        ("408", 7, 1, "'0' is not a column"),
        ("48", 7, 1, "its columns are 1 to 7"),
        ("ah", 7, 1, "its columns are a to g"),
        ("4", 10, 0, "written in letters"),
        ("4,4", 7, 1, "',' is not a column"),
        ("1234", 7, 3, "at most 3 moves"),
    ],
)
def test_a_transcript_is_refused_where_it_breaks(
    text: str, width: int, index: int, message: str
) -> None:
    with pytest.raises(NotationError) as refused:
        read_transcript(text, width, 3)
    assert refused.value.index == index
    assert message in str(refused.value)


@given(st.integers(4, 20).flatmap(lambda w: st.tuples(st.just(w), st.lists(st.integers(0, w - 1)))))
def test_a_written_transcript_reads_back(spec: tuple[int, list[int]]) -> None:
    width, columns = spec
    text = write_transcript(columns, width)
    assert text.isdigit() or text == "" if width <= 9 else text.isalpha() or text == ""
    assert read_transcript(text, width, len(columns)) == columns
    assert read_transcript(text.upper(), width, len(columns)) == columns


def test_a_column_off_the_board_is_not_written() -> None:
    with pytest.raises(ValueError, match="not on a board"):
        write_transcript([7], 7)
