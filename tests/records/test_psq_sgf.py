"""PSQ and SGF, read and written (``app/records/psq.py``, ``app/records/sgf.py``).

What each reader returns is checked against the formats' own words: PSQ's ``x,y,ms`` counted from
1 at the top-left corner (the Gomocup protocol's board, as Gomocup's manager writes its files:
the header, the moves, the two engines, ``-1``, then ``result,tournament``); SGF's two letters,
the column then the row from the top-left, ``B[]`` a pass (``tt`` before FF[4]), escapes, and the
first variation as the game. The layouts below are written by hand from those descriptions (no
file of either community is copied). Every refusal names its line and column.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.records.errors import RecordError
from app.records.psq import PsqGame, read_psq, write_psq
from app.records.sgf import SgfGame, SgfMove, read_sgf, write_sgf

# A game as Gomocup's manager lays one out: two opening stones given (0 ms), then the engines'.
GOMOCUP = (
    "Piskvorky 15x15, 11:11, 0\n"
    "8,8,0\n"
    "9,8,0\n"
    "10,9,1534\r\n"
    "7,7,2210\n"
    "pbrain-one.zip\n"
    "pbrain-two.zip\n"
    "-1\n"
    "2,Renju\n"
)


def test_psq_counts_x_as_the_column_and_y_from_the_top_from_one() -> None:
    game = read_psq(GOMOCUP, 100)
    assert game.size == 15
    assert game.stones == ((7, 7), (7, 8), (8, 9), (6, 6))  # (row, col) = (y - 1, x - 1)
    assert game.milliseconds == (0, 0, 1534, 2210)
    assert game.players == ("pbrain-one.zip", "pbrain-two.zip")
    assert game.result == 2
    assert game.rule == "renju"


@pytest.mark.parametrize(
    ("tournament", "rule"),
    [
        ("Freestyle15_1", "freestyle"),
        ("Fastgame", "freestyle"),
        ("standard", "standard"),
        ("Caro", "caro"),
        ("Renju2024", "renju"),
        ("Exhibition", None),
    ],
)
def test_psq_reads_the_rule_from_gomocups_division_names(tournament: str, rule: str | None) -> None:
    text = f"Piskvorky 20x20, 11:11, 0\n10,10,0\na\nb\n-1\n1,{tournament}\n"
    assert read_psq(text, 10).rule == rule


def test_psq_without_a_tail_or_times_is_read() -> None:
    game = read_psq("Piskvorky 20x20, 11:11, 0\n1,1\n20, 20 ,5\n", 10)
    assert game.stones == ((0, 0), (19, 19))
    assert game.milliseconds == (None, 5)
    assert (game.rule, game.result, game.players) == (None, None, None)


def test_psq_round_trips() -> None:
    rng = random.Random(7)
    for _ in range(50):
        size = rng.randint(5, 40)
        cells = rng.sample([(r, c) for r in range(size) for c in range(size)], rng.randint(0, 20))
        game = PsqGame(
            size,
            tuple(cells),
            tuple(rng.randint(0, 10**6) for _ in cells),
            rng.choice(["freestyle", "standard", "renju", "caro"]),
            rng.choice([0, 1, 2]),
            ("player 1", "player 2"),
        )
        assert read_psq(write_psq(game), 100) == game


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, 1, "Piskvorky"),
        ("Gomoku 15x15\n8,8,0\n", 1, 1, "Piskvorky"),
        ("Piskvorky 15x19, 11:11, 0\n", 1, 1, "square"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n", 3, 1, "16,1"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n0,3,0\n", 3, 1, "count from 1"),
    ],
)
def test_psq_that_is_not_a_game_is_refused_where_it_broke(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(RecordError) as refused:
        read_psq(text, 100)
    assert refused.value.where["line"] == line
    assert refused.value.where["column"] == column
    assert words in refused.value.message


def test_psq_of_more_moves_than_the_bound_is_refused_at_the_first_beyond() -> None:
    text = "Piskvorky 20x20, 11:11, 0\n" + "".join(f"{c},{r},0\n" for r in (1, 2) for c in (1, 2))
    assert len(read_psq(text, 4).stones) == 4
    with pytest.raises(RecordError) as refused:
        read_psq(text, 3)
    assert refused.value.where["move"] == 4
    assert refused.value.where["line"] == 5


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n\n9,9,0\n", 4, "after the end of the moves"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\nname\n9,9,0\n-1\n", 4, "after the end"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0;\n", 3, "not a move"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0,1\n9,9,0\n", 2, "not a move"),
        ("Piskvorky 15x15, 11:11, 0\n1000,1,0\n", 2, "not a move"),
    ],
)
def test_psq_moves_are_not_read_past(text: str, line: int, words: str) -> None:
    """The moves end at the first line that is none; a move further on, or a line that begins
    as one, would be a move the audit reads past: refused."""
    with pytest.raises(RecordError) as refused:
        read_psq(text, 100)
    assert refused.value.where["line"] == line
    assert words in refused.value.message


def test_psq_after_the_minus_one_is_free_text() -> None:
    game = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\na\nb\n-1\n1,Caro\n9,9,0\n", 10)
    assert (game.stones, game.result, game.rule) == (((7, 7),), 1, "caro")


def test_psq_writes_the_boards_its_header_can_name() -> None:
    assert read_psq(write_psq(PsqGame(999, ((998, 0),), (None,))), 10).stones == ((998, 0),)
    with pytest.raises(ValueError, match="999"):
        write_psq(PsqGame(1000, (), ()))


# --- SGF ---------------------------------------------------------------------------------------


def test_sgf_points_are_the_column_then_the_row_from_the_top_left() -> None:
    game = read_sgf("(;FF[4]GM[4]SZ[15]RU[4];B[hh];W[ai];B[ob];W[])", 10)
    assert game.size == 15
    assert game.rule == "renju"
    assert game.moves == (
        SgfMove("B", (7, 7)),
        SgfMove("W", (8, 0)),
        SgfMove("B", (1, 14)),
        SgfMove("W", None),
    )


@pytest.mark.parametrize(
    ("written", "rule"),
    [("0", "freestyle"), ("1", "standard"), ("4", "renju"), ("8", "caro"), ("Renju", "renju"),
     ("gomoku", "freestyle"), (" Caro ", "caro")],
)  # fmt: skip
def test_sgf_reads_gomocups_rule_numbers_and_the_rules_names(written: str, rule: str) -> None:
    assert read_sgf(f"(;GM[4]SZ[15]RU[{written}])", 10).rule == rule


def test_sgf_keeps_the_main_line_and_passes_over_the_variations() -> None:
    text = "(;GM[4]SZ[15];B[hh](;W[ii];B[jj](;W[kk])(;W[aa]C[a \\] bracket]))(;W[gg];B[ff]))"
    game = read_sgf(text, 10)
    assert [move.point for move in game.moves] == [(7, 7), (8, 8), (9, 9), (10, 10)]


def test_sgf_values_unescape_and_a_tt_is_a_pass_before_ff4() -> None:
    game = read_sgf("(;FF[3]GM[4]SZ[15]PB[a\\]b\\\\c]PW[x\\\ny];B[hh];W[tt])", 10)
    assert game.black == "a]b\\c"
    assert game.white == "xy"  # an escaped line break is no character
    assert game.moves[-1] == SgfMove("W", None)
    with pytest.raises(RecordError, match="not a point"):
        read_sgf("(;FF[4]GM[4]SZ[15];B[tt])", 10)


def test_sgf_round_trips() -> None:
    rng = random.Random(11)
    for _ in range(50):
        size = rng.randint(1, 52)
        cells = rng.sample([(r, c) for r in range(size) for c in range(size)], min(size, 20))
        moves = tuple(
            SgfMove("B" if i % 2 == 0 else "W", None if rng.random() < 0.1 else cell)
            for i, cell in enumerate(cells)
        )
        game = SgfGame(size, rng.choice(["freestyle", "standard", "renju", "caro"]), moves,
                       "a]b\\c", "player 2", rng.choice(["B+", "W+R", "0"]))  # fmt: skip
        assert read_sgf(write_sgf(game), 100) == game


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, 1, "begins with ("),
        ("(;GM[4]SZ[15];B[hh]", 1, 20, "ends inside"),
        ("(;GM[1]SZ[19];B[dd])", 1, 6, "GM[4]"),
        ("(;SZ[15];B[hh])", 1, 1, "GM[4]"),
        ("(;GM[4];B[hh])", 1, 1, "SZ[15]"),
        ("(;GM[4]SZ[15:19])", 1, 11, "square"),
        ("(;GM[4]SZ[53])", 1, 11, "1 to 52"),
        ("(;GM[4]SZ[15]RU[2])", 1, 17, "RU[2]"),
        ("(;GM[4]SZ[15];B[hh])(;GM[4]SZ[15])", 1, 21, "another"),
        ("(;GM[4]SZ[15];B[hh]) x", 1, 22, "nothing may follow"),
        ("(;GM[4]SZ[15];B[hh]W[ii])", 1, 20, "one move"),
        ("(;GM[4]SZ[15]AB[hh][ii])", 1, 14, "sets up"),
        ("(;GM[4]SZ[15];B[h])", 1, 17, "two letters"),
        ("(;GM[4]SZ[15];B[hh\n", 1, 16, "not closed"),
        ("(;GM[4]SZ[15];b[hh])", 1, 15, "upper-case"),
        ("(;GM[4]SZ[15];B[hh];SZ[19])", 1, 21, "first node"),
        ("(;GM[4]SZ[15]C[x]C[y])", 1, 18, "twice"),
        ("(;GM[4]SZ[15]\n;B[hh];W[pp])", 2, 10, "not a point of a 15 × 15"),
        ("(GM[4])", 1, 2, "begins with a node"),
    ],
)
def test_sgf_that_is_not_one_gomoku_game_is_refused_where_it_broke(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(RecordError) as refused:
        read_sgf(text, 100)
    assert refused.value.where["line"] == line, refused.value
    assert refused.value.where["column"] == column, refused.value
    assert words in refused.value.message


def test_sgf_without_ff_is_ff1_whose_tt_is_a_pass() -> None:
    assert read_sgf("(;GM[4]SZ[15];B[hh];W[tt])", 10).moves[-1] == SgfMove("W", None)


def test_sgf_escapes_are_read_in_one_pass_and_a_value_is_bounded() -> None:
    many = "\\a" * 30_000  # 30,000 escapes: read once each
    game = read_sgf(f"(;GM[4]SZ[15]PB[{many}];B[hh])", 10)
    assert game.black == "a" * 30_000
    with pytest.raises(RecordError, match="at most 65,536 characters"):
        read_sgf(f"(;GM[4]SZ[15]C[{'x' * 70_000}])", 10)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;GM[4]SZ[15];B[hh](;W[ii]);B[jj];W[kk])", "a node after a variation"),
        ("(;GM[4]SZ[15];B[hh](;W[ii])())", "begins with a node"),
        ("(;GM[4]SZ[15];RU[Renju];B[hh])", "RU belongs to the game's first node"),
        ("(;GM[4]SZ[15][19];B[hh])", "SZ holds one value"),
        ("(;GM[4]SZ[15]RU[4][0];B[hh])", "RU holds one value"),
    ],
)
def test_sgf_that_would_audit_another_game_than_written_is_refused(text: str, words: str) -> None:
    with pytest.raises(RecordError, match=re.escape(words)):
        read_sgf(text, 10)


def test_sgf_of_more_nodes_than_the_bound_says_nodes() -> None:
    with pytest.raises(RecordError, match="nodes without one") as refused:
        read_sgf("(;GM[4]SZ[15]" + ";C[x]" * 80 + ")", 10)
    assert "move" not in refused.value.where


def test_sgf_of_more_moves_than_the_bound_is_refused_at_the_first_beyond() -> None:
    text = "(;GM[4]SZ[15]" + "".join(f";B[{c}a];W[{c}b]" for c in "abc") + ")"
    assert len(read_sgf(text, 6).moves) == 6
    with pytest.raises(RecordError) as refused:
        read_sgf(text, 5)
    assert refused.value.where["move"] == 6


def test_sgf_nested_a_hundred_thousand_deep_costs_no_stack() -> None:
    depth = 100_000
    text = "(;GM[4]SZ[15]" + "(;C[x]" * depth + ")" * (depth + 1)
    with pytest.raises(RecordError, match="at most"):  # nodes beyond the bound are refused
        read_sgf(text, 10)
    text = "(;GM[4]SZ[15];B[hh](;W[ii])" + "(;C[x]" * depth + ")" * (depth + 1)
    assert len(read_sgf(text, 10).moves) == 2  # a deep variation passed over


# --- hostile text ------------------------------------------------------------------------------

SGF_PIECES = st.sampled_from(
    ["(", ")", ";", "[", "]", "\\", "GM", "[4]", "SZ", "[15]", "B", "W", "[hh]", "[]", "AB", "RU",
     "[Renju]", "FF[3]", "[tt]", "C", " ", "\n", "\x00", "\ud800", "ü", "SZ[0]", "[99:99]"]
)  # fmt: skip
PSQ_PIECES = st.sampled_from(
    ["Piskvorky 15x15, 11:11, 0\n", "8,8,0\n", "16,1,0\n", "0,0,0\n", ",", "\n", "\r\n", "-1\n",
     "1,Renju\n", "99999,1\n", "x", " ", "\x00", "\ud800", "Piskvorky 9999x9999\n"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(SGF_PIECES, max_size=40))
def test_any_text_is_an_sgf_game_or_a_refusal_saying_where(pieces: list[str]) -> None:
    text = "".join(pieces)
    where: set[str] | None = None
    try:
        game = read_sgf(text, 20)
    except RecordError as error:
        where = set(error.where)
    if where is not None:
        assert {"line", "column"} <= where
        return
    assert 1 <= game.size <= 52
    assert all(m.point is None or max(m.point) < game.size for m in game.moves)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(PSQ_PIECES, max_size=40))
def test_any_text_is_a_psq_game_or_a_refusal_saying_where(pieces: list[str]) -> None:
    text = "".join(pieces)
    where: set[str] | None = None
    try:
        game = read_psq(text, 20)
    except RecordError as error:
        where = set(error.where)
    if where is not None:
        assert {"line", "column"} <= where
        return
    assert len(game.stones) <= 20
    assert all(max(stone) < game.size for stone in game.stones)
