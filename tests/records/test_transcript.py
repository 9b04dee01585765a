"""Transcripts as players write them (f5d6c3d3c4, h8i9j10): read square by square, in either
case, with spaces and line breaks allowed between squares and nothing else; anything else is
refused where it stands (line and column), and a transcript longer than the bound is refused at
its first move over it, without reading the rest."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.contract.squares import SquareError
from app.records.errors import RecordError
from app.records.transcript import read_transcript, write_transcript
from tests.records.refusals import read_or_refusal

MAX = 10_000


@pytest.mark.parametrize(
    ("text", "squares"),
    [
        ("f5d6c3d3c4", ["f5", "d6", "c3", "d3", "c4"]),
        ("F5D6c3", ["f5", "d6", "c3"]),
        ("h8i9j10", ["h8", "i9", "j10"]),  # gomoku: a letter followed by its digits
        ("a10b1", ["a10", "b1"]),
        ("f5 d6\nc3\r\n\td3  ", ["f5", "d6", "c3", "d3"]),
        ("", []),
        (" \n ", []),
        (b"\xef\xbb\xbff5d6", ["f5", "d6"]),  # a file saved with a byte-order mark
        (b"f5d6", ["f5", "d6"]),
        ("z9y26", ["z9", "y26"]),  # names only: which board has them is the caller's to say
    ],
)
def test_squares_are_read_in_order_and_lower_case(text: str | bytes, squares: list[str]) -> None:
    assert read_transcript(text, MAX) == squares


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("f5d6x", 1, 5),  # a letter without a row number
        ("f5,d6", 1, 3),
        ("1. f5 d6", 1, 1),  # move numbers
        ("f5d0", 1, 3),  # rows count from 1
        ("f5d06", 1, 3),
        ("f5\nd6\n  e", 3, 3),
        ("f5\r\nd6 ?", 2, 4),
        ("f5pa", 1, 3),  # Othello transcripts never write passes
        ("f5--d6", 1, 3),
        ("f5d6é3", 1, 5),  # a letter, but not an ASCII one
        ("f5\x00", 1, 3),
        ("f５", 1, 1),  # a digit, but not an ASCII one
        ("f5 a123456789", 1, 12),  # at most 7 digits: refused at the 8th
    ],
)
def test_text_that_names_no_square_is_refused_where_it_stands(
    text: str, line: int, column: int
) -> None:
    with pytest.raises(RecordError) as refused:
        read_transcript(text, MAX)
    assert refused.value.where == {"line": line, "column": column}


def test_a_pass_is_refused_with_a_reason_that_says_passes_are_inferred() -> None:
    with pytest.raises(RecordError, match="inferred"):
        read_transcript("f5d6pa", MAX)


def test_bytes_that_are_not_utf8_are_refused_by_line_column_and_byte() -> None:
    with pytest.raises(RecordError) as refused:
        read_transcript(b"f5d6\nc3\xffd3", MAX)
    assert refused.value.where == {"line": 2, "column": 3, "byte": 7}


def test_a_lone_surrogate_is_refused_as_text_no_utf8_holds() -> None:
    with pytest.raises(RecordError) as refused:
        read_transcript("f5\nd6\ud800", MAX)
    assert refused.value.where == {"line": 2, "column": 3}


def test_a_million_moves_are_refused_at_the_first_move_over_the_bound() -> None:
    with pytest.raises(RecordError) as refused:
        read_transcript("f5" * 1_000_000, MAX)
    assert refused.value.where == {"move": MAX + 1, "line": 1, "column": 2 * MAX + 1}


def test_the_bound_itself_is_allowed() -> None:
    assert len(read_transcript("f5 " * 7, 7)) == 7
    with pytest.raises(RecordError) as refused:
        read_transcript("f5 " * 8, 7)
    assert refused.value.where["move"] == 8


def test_every_prefix_of_a_transcript_reads_or_is_refused_as_a_record() -> None:
    text = "h8i9j10\nk11 L12"
    for end in range(len(text) + 1):
        squares = read_or_refusal(read_transcript, text[:end], MAX)
        if isinstance(squares, RecordError):
            assert set(squares.where) == {"line", "column"}
        else:
            assert "".join(squares) == text[:end].lower().replace("\n", "").replace(" ", "")


@given(st.text())
def test_any_text_is_read_or_refused_as_a_record(text: str) -> None:
    read = read_or_refusal(read_transcript, text, 50)
    if isinstance(read, RecordError):
        assert {"line", "column"} <= set(read.where)


@given(st.binary())
def test_any_bytes_are_read_or_refused_as_a_record(data: bytes) -> None:
    read = read_or_refusal(read_transcript, data, 50)
    if isinstance(read, RecordError):
        assert {"line", "column"} <= set(read.where)


squares = st.builds(
    lambda letter, row, upper: (letter.upper() if upper else letter) + str(row),
    st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
    st.integers(1, 1_000_000),
    st.booleans(),
)


@given(st.lists(squares, max_size=40))
def test_a_written_transcript_reads_back_as_the_same_squares(names: list[str]) -> None:
    text = write_transcript(names)
    assert text == text.lower()
    assert read_transcript(text, MAX) == [name.lower() for name in names]


@pytest.mark.parametrize("bad", ["pass", "f0", "5f", "", "f5 "])
def test_writing_anything_but_square_names_is_a_value_error(bad: str) -> None:
    with pytest.raises(SquareError):
        write_transcript(["f5", bad])


@given(
    st.lists(st.tuples(squares, st.sampled_from(["", " ", "\n", "\t ", "\r\n"])), max_size=40),
    st.sampled_from(["", " ", "\n"]),
)
def test_squares_between_spaces_read_as_the_squares_and_within_the_bound(
    written: list[tuple[str, str]], before: str
) -> None:
    """Read at once or a square at a time (a transcript that is squares and spaces only is read
    at once): the same squares, and the bound refused at the same move."""
    text = before + "".join(name + space for name, space in written)
    names = [name.lower() for name, _ in written]
    assert read_transcript(text, len(names)) == names
    if names:
        with pytest.raises(RecordError) as refused:
            read_transcript(text, len(names) - 1)
        assert refused.value.where["move"] == len(names)
