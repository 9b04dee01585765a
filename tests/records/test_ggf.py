"""GGF as GGS writes Othello games: real games from GGS's archive are read with their players,
clock, result, start position and moves (passes as pass and PA), and replay with the slow
reference to the result they state; one record is one game; what the service cannot referee
(komi, anti, octagonal games) and what is not GGF is refused by line and column (and move, and
game); and a written game reads back the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.records.errors import RecordError
from app.records.ggf import (
    MAX_VALUE,
    PASS,
    GgfGame,
    GgfMove,
    GgfResult,
    iter_ggf,
    read_ggf,
    write_ggf,
)
from tests.records.refusals import read_or_refusal
from tests.rules.reference import reversi_flips, reversi_moves, reversi_play

DATA = Path(__file__).resolve().parents[1] / "data"
FANGR = (DATA / "ggs-2000-fangr-patzer.ggf").read_text()
SAIO = (DATA / "ggs-2003-saio.ggf").read_text()
SYNCHRO = (DATA / "ggs-2009-synchro-rand.ggf").read_text()
KOMI = (DATA / "ggs-2010-komi.ggf").read_text()
WHITE_STARTS = (DATA / "ggs-2011-white-starts.ggf").read_text()
REAL_GAMES = [*iter_ggf(FANGR, 100), *iter_ggf(SAIO, 100), *iter_ggf(SYNCHRO, 100)]
REAL_GAMES.append(read_ggf(WHITE_STARTS, 100))
START = ("........",) * 3 + ("...WB...", "...BW...") + ("........",) * 3
MAX = 10_000
HEAD = "(;GM[Othello]PC[test]TY[8]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]"


def final_board(game: GgfGame) -> list[str]:
    """The board after the game's moves, each checked as written: a move for the colour whose
    turn it is, legal, and a pass only where that colour has no legal move."""
    grid, color = list(game.start_rows or START), game.to_move
    for move in game.moves:
        assert move.color == color
        if move.square == PASS:
            assert not reversi_moves(grid, color)
        else:
            row, col = int(move.square[1:]) - 1, "abcdefgh".index(move.square[0])
            assert reversi_flips(grid, row, col, color)
            grid = reversi_play(grid, row, col, color)
        color = "W" if color == "B" else "B"
    return grid


@pytest.mark.parametrize("game", REAL_GAMES, ids=lambda game: f"{game.black}-{game.white}")
def test_a_real_game_replays_to_the_result_it_states(game: GgfGame) -> None:
    grid = final_board(game)
    assert not reversi_moves(grid, "B")
    assert not reversi_moves(grid, "W")  # played out
    black, white = "".join(grid).count("B"), "".join(grid).count("W")
    assert game.result == GgfResult(black - white, "")


def test_a_ggs_game_is_read_with_its_players_clock_result_and_moves() -> None:
    game = read_ggf(FANGR, MAX)
    assert (game.height, game.width, game.start_rows, game.to_move) == (8, 8, None, "B")
    assert (game.black, game.white, game.time_control) == ("fangr", "patzer", "15:00//02:00")
    assert game.result == GgfResult(-40.0, "")
    assert game.properties["RB"] == "1457.12"
    assert game.properties["DT"] == "2000-4-16 11:13 EST"
    assert game.moves[:2] == (
        GgfMove("B", "e6", None, "4.09"),  # B[E6//4.09]: squares come in lower case
        GgfMove("W", "f4", "-48.50", "0.93"),
    )
    assert [move for move in game.moves if move.square == PASS] == [
        GgfMove("B", PASS, None, "1.67"),  # B[pass//1.67]
        GgfMove("B", PASS, None, "2.10"),
    ]
    assert len(game.moves) == 62
    assert list(game.properties) == [
        "GM", "PC", "DT", "PB", "PW", "RB", "RW", "TI", "TY", "RE", "BO",
    ]  # fmt: skip


def test_a_random_start_with_white_to_move_is_read_as_its_rows() -> None:
    game = read_ggf(WHITE_STARTS, MAX)
    assert game.to_move == "W"
    assert game.start_rows == (
        "........",
        "........",
        "..WWWB..",
        ".WBWWB..",
        "..WBWW..",
        "..WBBB..",
        "..WB....",
        "........",
    )


def test_passes_are_read_however_ggs_wrote_them() -> None:
    synchro = list(iter_ggf(SYNCHRO, MAX))
    assert GgfMove("B", PASS) in synchro[1].moves  # B[PA]
    assert GgfMove("B", PASS) in read_ggf(SAIO, MAX).moves  # B[pass]
    game = read_ggf(HEAD + "B[Pa]W[PASS/1.00/2];)", MAX)
    assert game.moves == (GgfMove("B", PASS), GgfMove("W", PASS, "1.00", "2"))


def test_colours_are_returned_as_written_for_the_audit_to_judge() -> None:
    game = read_ggf(HEAD + "B[f5]B[d6]W[pass];)", MAX)
    assert [move.color for move in game.moves] == ["B", "B", "W"]


def test_a_game_needs_neither_board_nor_type_nor_moves() -> None:
    game = read_ggf("(;GM[othello];)", MAX)
    assert (game.height, game.start_rows, game.to_move, game.moves) == (8, None, "B", ())
    assert game.result is None
    assert read_ggf(HEAD + "RE[?];)", MAX).result is None


@pytest.mark.parametrize(
    ("value", "result"),
    [
        ("+12.000", GgfResult(12.0)),
        ("-4", GgfResult(-4.0)),
        ("+64.00:r", GgfResult(64, "r")),
        ("-2:t", GgfResult(-2, "t")),
        ("0.5:s", GgfResult(0.5, "s")),
        ("+0.000", GgfResult(0)),
    ],
)
def test_results_are_read_with_how_the_game_ended(value: str, result: GgfResult) -> None:
    assert read_ggf(f"(;GM[Othello]RE[{value}];)", MAX).result == result


def test_a_file_of_games_is_read_game_by_game_with_ggs_match_counts() -> None:
    text = f"{SYNCHRO}\n1 {FANGR}\n1 {SAIO}"
    games = iter_ggf(text, MAX)
    assert [game.black for game in games] == ["edax", "Roxane", "fangr", "Saio1200"]


# --- one record, one game ------------------------------------------------------------------


def test_a_synchro_match_is_not_one_record() -> None:
    with pytest.raises(RecordError) as refused:
        read_ggf(SYNCHRO, MAX)  # "2 (;…;)(;…;)"
    assert refused.value.where == {"line": 1, "column": 1}
    second = SYNCHRO.index("(;", 5)
    with pytest.raises(RecordError, match="one game") as refused:
        read_ggf(SYNCHRO[2:], MAX)  # the same games without their count
    assert refused.value.where == {"line": 1, "column": second - 1}


def test_a_match_count_of_one_is_allowed_before_a_record() -> None:
    assert read_ggf("1 " + FANGR, MAX).black == "fangr"


@pytest.mark.parametrize("count", ["1", "3"])
def test_a_match_count_that_disagrees_with_its_games_is_refused(count: str) -> None:
    with pytest.raises(RecordError) as refused:
        list(iter_ggf(count + SYNCHRO[1:], MAX))
    assert refused.value.where == {"line": 1, "column": 1}


def test_a_file_of_more_games_than_allowed_is_refused_at_the_first_too_many() -> None:
    games = iter_ggf(FANGR + SAIO + FANGR, MAX, max_games=2)
    assert next(games).black == "fangr"
    assert next(games).black == "Saio1200"
    with pytest.raises(RecordError) as refused:
        next(games)
    assert refused.value.where == {"line": 3, "column": 1, "game": 3}


def test_an_error_in_a_files_game_names_the_game() -> None:
    broken = SAIO.replace("W[c5//0.01]", "W[c9//0.01]")
    with pytest.raises(RecordError) as refused:
        list(iter_ggf(FANGR + broken, MAX))
    assert refused.value.where["game"] == 2
    assert refused.value.where["move"] == 2


# --- what is refused ------------------------------------------------------------------------


def where(text: str | bytes, max_moves: int = MAX) -> dict[str, int]:
    with pytest.raises(RecordError) as refused:
        read_ggf(text, max_moves)
    return dict(refused.value.where)


def test_a_komi_game_is_refused() -> None:
    with pytest.raises(RecordError, match="komi"):
        read_ggf(KOMI, MAX)
    with pytest.raises(RecordError, match="komi"):
        read_ggf("(;GM[Othello]KM[0.5];)", MAX)


@pytest.mark.parametrize(
    ("game_type", "why"),
    [
        ("8a", "anti"),
        ("8k", "komi"),
        ("88", "octagonal"),
        ("10", "size 10"),
        ("s8x", "'x'"),
        ("s", "no board size"),
        ("8 8", "' '"),
        ("8r", "'r'"),
        ("8s8", "two board sizes"),
        ("888", "size 888"),
    ],
)
def test_a_game_type_the_service_cannot_referee_is_refused(game_type: str, why: str) -> None:
    text = HEAD.replace("TY[8]", f"TY[{game_type}]") + ";)"
    with pytest.raises(RecordError, match=why) as refused:
        read_ggf(text, MAX)
    assert refused.value.where == {"line": 1, "column": text.index("TY[") + 4}


@pytest.mark.parametrize("game_type", ["8", "s8", "8r18", "s8r20", "b8", "8w", "S8R19"])
def test_game_types_with_a_standard_winner_are_read(game_type: str) -> None:
    assert read_ggf(HEAD.replace("TY[8]", f"TY[{game_type}]") + ";)", MAX).height == 8


@pytest.mark.parametrize(
    ("board", "size"),
    [
        ("6 ------ ------ --O*-- --*O-- ------ ------ *", 6),
        ("10 " + "-" * 44 + "O*" + "-" * 8 + "*O" + "-" * 44 + " O", 10),
        ("4\n-O*-\n----\n----\n----\nO", 4),
        ("8 " + "-" * 27 + "O*------*O" + "-" * 27 + "*", 8),  # no space before the colour
    ],
)
def test_boards_of_other_sizes_are_read_row_by_row(board: str, size: int) -> None:
    game = read_ggf(f"(;GM[Othello]BO[{board}];)", MAX)
    assert (game.height, game.width) == (size, size)
    assert (game.start_rows is None) == (size == 8)  # only 8 × 8 has "the standard start"


@pytest.mark.parametrize(
    "board",
    [
        "8 " + "-" * 63 + " *",  # a square short
        "8 " + "-" * 65 + " *",
        "8 " + "-" * 64 + " -",  # no colour to move
        "8 " + "-" * 63 + "x *",
        "8" + "-" * 64 + " *",  # no space after the size
        "88 " + "-" * 88 + " *",
        "27 " + "-" * 729 + " *",
        "0  *",
        "",
    ],
)
def test_a_board_that_is_not_one_is_refused_at_its_value(board: str) -> None:
    text = f"(;GM[Othello]BO[{board}];)"
    assert where(text) == {"line": 1, "column": text.index("BO[") + 4}


@pytest.mark.parametrize(
    ("moves", "move"),
    [
        ("B[f5]W[i9]", 2),  # not a square of 8 × 8
        ("B[f5]W[f0]", 2),
        ("B[f55]", 1),
        ("B[]", 1),
        ("B[f5/x]", 1),
        ("B[f5/1.0/2s]", 1),
        ("B[f5/1/2/3]", 1),
        ("B[ f5]", 1),
        ("B[f5]W[d6]B[c3]W[d3]B[c4/1e9]", 5),
    ],
)
def test_a_move_that_is_not_one_is_refused_by_its_index(moves: str, move: int) -> None:
    assert where(HEAD + moves + ";)")["move"] == move


def test_more_moves_than_the_bound_are_refused_at_the_first_over_it() -> None:
    text = HEAD + "B[f5]W[d6]\nB[c3]W[d3];)"
    assert read_ggf(text, 4).moves[-1].square == "d3"
    assert where(text, 3) == {"move": 4, "line": 2, "column": 6}
    assert where(HEAD + "B[f5]" * 1_000_000 + ";)")["move"] == MAX + 1


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("(;GM[Chess];)", 6),
        ("(;GM[Othello]GM[Othello];)", 14),
        ("(;PB[x];)", 1),  # no GM
        (HEAD + "B[f5]BO[8 " + "-" * 64 + " *];)", len(HEAD) + 6),  # the board after moves
        ("(;GM[Othello]pb[x];)", 14),
        ("(;GM[Othello]PBX[x];)", 16),
        ("(;GM[Othello]PB [x];)", 16),
        ("(;GM[Othello]RE[W+3];)", 17),
        ("(;GM[Othello]RE[+3:q];)", 17),
        ("(;GM[Othello];", 14),
        ("(;GM[Othello]", 14),
        ("(;GM[Othello];);)", 16),
        ("(;GM[Othello]PB[x", 16),
        ("((;GM[Othello];)", 1),
        (";(GM[Othello];)", 1),
        ("", 1),
    ],
)
def test_text_that_is_not_a_ggf_game_is_refused_where_it_breaks(text: str, column: int) -> None:
    assert where(text) == {"line": 1, "column": column}


def test_every_truncation_of_a_real_game_is_refused_by_line_and_column() -> None:
    for end in range(len(FANGR.rstrip())):
        with pytest.raises(RecordError) as refused:
            read_ggf(FANGR[:end], MAX)
        assert {"line", "column"} <= set(refused.value.where)


@pytest.mark.parametrize("nested", ["(" * 100_000, "(;" * 100_000, "(;GM[Othello]" + "(;" * 50_000])
def test_deeply_nested_parentheses_are_refused_without_recursion(nested: str) -> None:
    assert set(where(nested)) == {"line", "column"}


def test_a_huge_property_value_is_refused_at_its_bracket() -> None:
    text = "(;GM[Othello]PB[" + "x" * 1_000_000 + "];)"
    with pytest.raises(RecordError, match=str(MAX_VALUE)) as refused:
        read_ggf(text, MAX)
    assert refused.value.where == {"line": 1, "column": 16}
    assert read_ggf("(;GM[Othello]PB[" + "x" * MAX_VALUE + "];)", MAX).black == "x" * MAX_VALUE


def test_bytes_that_are_not_utf8_are_refused_by_line_column_and_byte() -> None:
    data = b"(;GM[Othello]\nPB[\xc3\x28];)"
    assert where(data) == {"line": 2, "column": 4, "byte": 17}
    assert read_ggf(FANGR.encode("utf-8"), MAX).black == "fangr"


GGF_ALPHABET = "(;)[]/: \n*-O.BWGMPATYREKScdefgh0123456789+-"


@given(st.text(GGF_ALPHABET) | st.text())
def test_any_text_is_read_or_refused_as_a_record(text: str) -> None:
    for read in (read_or_refusal(read_ggf, text, 20), read_or_refusal(list, iter_ggf(text, 20))):
        if isinstance(read, RecordError):
            assert {"line", "column"} <= set(read.where)


@given(st.binary())
def test_any_bytes_are_read_or_refused_as_a_record(data: bytes) -> None:
    read = read_or_refusal(read_ggf, data, 20)
    if isinstance(read, RecordError):
        assert {"line", "column"} <= set(read.where)


@given(st.integers(0, len(FANGR) - 1), st.characters())
def test_any_character_changed_in_a_real_game_is_read_or_refused(at: int, char: str) -> None:
    read = read_or_refusal(read_ggf, FANGR[:at] + char + FANGR[at + 1 :], MAX)
    if isinstance(read, RecordError):
        assert {"line", "column"} <= set(read.where)


# --- writing --------------------------------------------------------------------------------


def test_a_real_game_written_and_read_again_is_the_same_game() -> None:
    for game in REAL_GAMES:
        assert read_ggf(write_ggf(game), MAX) == game


def test_a_game_is_written_as_ggs_writes_it() -> None:
    game = GgfGame.of(
        [GgfMove("B", "f5"), GgfMove("W", "d6", None, "0.01"), GgfMove("B", PASS, "-2.00")],
        black="ann",
        white="bob",
        result=GgfResult(12),
        time_control="15:00//02:00",
        date=datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=1))),
    )
    assert write_ggf(game) == (
        "(;GM[Othello]PC[adjudicator]DT[2026.01.02_02:04:05.UTC]PB[ann]PW[bob]"
        "TI[15:00//02:00]TY[8]RE[+12.000]BO[8 -------- -------- -------- ---O*--- ---*O--- "
        "-------- -------- -------- *]B[f5]W[d6//0.01]B[PA/-2.00];)"
    )


def test_squares_are_written_in_lower_case() -> None:
    game = GgfGame.of([GgfMove("B", "F5"), GgfMove("W", "D6")])
    assert [move.square for move in game.moves] == ["f5", "d6"]
    assert "B[f5]W[d6]" in write_ggf(game)


def test_text_ggf_cannot_hold_is_made_writable() -> None:
    game = GgfGame.of([], black="a]b\nc", white="x" * (MAX_VALUE + 10))
    back = read_ggf(write_ggf(game), MAX)
    assert (back.black, back.white) == ("a)b c", "x" * MAX_VALUE)


@pytest.mark.parametrize(
    "bad",
    [
        {"size": 27},
        {"size": 7},  # an odd size has no standard start
        {"start_rows": ["........"] * 7},
        {"start_rows": ["...X...."] * 8},
        {"moves": [GgfMove("B", "i9")]},
        {"moves": [GgfMove("B", "f5", "1.5e3")]},
        {"date": datetime(2026, 1, 1)},  # a naive date: which time zone?
    ],
)
def test_a_game_that_cannot_be_written_is_a_value_error(bad: dict[str, object]) -> None:
    arguments: dict[str, object] = {"moves": [], **bad}
    with pytest.raises(ValueError):  # noqa: PT011
        GgfGame.of(**arguments)  # type: ignore[arg-type]


def test_writing_a_value_ggf_cannot_hold_is_a_value_error() -> None:
    game = read_ggf(FANGR, MAX)
    for broken in (
        {**game.properties, "PB": "a]b"},
        {**game.properties, "pb": "x"},
        {**game.properties, "B": "f5"},
    ):
        with pytest.raises(ValueError):  # noqa: PT011
            write_ggf(GgfGame(**{**_fields(game), "properties": broken}))  # type: ignore[arg-type]
    for move in (GgfMove("B", "f5]"), GgfMove("B", "f5", "1]"), GgfMove("B", "f5", None, "x")):
        with pytest.raises(ValueError):  # noqa: PT011
            write_ggf(GgfGame(**{**_fields(game), "moves": (move,)}))  # type: ignore[arg-type]


def _fields(game: GgfGame) -> dict[str, object]:
    return {name: getattr(game, name) for name in GgfGame.__slots__}


@st.composite
def games(draw: st.DrawFn) -> GgfGame:
    size = draw(st.integers(1, 12))
    odd = size % 2 == 1  # an odd size has no standard start: its rows are given
    squares = [f"{'abcdefghijkl'[col]}{row}" for col in range(size) for row in range(1, size + 1)]
    numbers = st.none() | st.integers(-9999, 9999).map(lambda n: f"{n / 100:.2f}")
    move = st.builds(
        GgfMove, st.sampled_from(["B", "W"]), st.sampled_from([*squares, PASS]), numbers, numbers
    )
    rows = st.lists(st.text(".BW", min_size=size, max_size=size), min_size=size, max_size=size)
    text = st.text(st.characters(blacklist_characters="]", min_codepoint=32), max_size=30)
    return GgfGame.of(
        draw(st.lists(move, max_size=70)),
        size=size,
        start_rows=draw(rows if odd else st.none() | rows),
        to_move=draw(st.sampled_from(["B", "W"])),
        black=draw(st.none() | text),
        white=draw(st.none() | text),
        result=draw(
            st.none()
            | st.builds(
                GgfResult,
                st.integers(-128, 128).map(lambda n: n / 2),
                st.sampled_from(["", "r", "t", "s"]),
            )
        ),
        time_control=draw(st.none() | text),
        date=draw(st.none() | st.datetimes(timezones=st.just(UTC))),
        site=draw(text),
    )


@given(games())
def test_a_written_game_reads_back_as_the_same_game(game: GgfGame) -> None:
    assert read_ggf(write_ggf(game), MAX) == game
