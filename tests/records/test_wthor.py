"""WTHOR files as the French Othello Federation publishes them: every game of a real year
replays with the slow reference, passes inferred, and its stored score is the federation's count
of the final position; a file that is not such a file is refused by the byte where it breaks
(and the game and move, inside a game), and what is written reads back the same."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.records.errors import RecordError
from app.records.wthor import WthorGame, WthorHeader, read_wthor, write_wthor
from tests.records.refusals import read_or_refusal
from tests.rules.reference import reversi_flips, reversi_moves, reversi_play

DATA = Path(__file__).resolve().parents[1] / "data"
YEAR_1988 = (DATA / "WTH_1988.wtb").read_bytes()
MAX = 10_000
START = ["........"] * 3 + ["...WB...", "...BW..."] + ["........"] * 3


def cell(square: str) -> tuple[int, int]:
    """(row, col) of an Othello square name, rows counted from the top: written out here, not
    taken from the code under test."""
    return int(square[1:]) - 1, "abcdefgh".index(square[0])


def replay(moves: tuple[str, ...]) -> list[str] | None:
    """The board after ``moves`` from the standard start, a pass inferred wherever the colour to
    move has no legal move; None if a move is illegal."""
    grid, color = START, "B"
    for square in moves:
        row, col = cell(square)
        if not reversi_flips(grid, row, col, color):
            if reversi_moves(grid, color):
                return None  # it had a move: this one is illegal, not a pass
            color = "W" if color == "B" else "B"
            if not reversi_flips(grid, row, col, color):
                return None
        grid = reversi_play(grid, row, col, color)
        color = "W" if color == "B" else "B"
    return grid


def federation_score(grid: list[str]) -> int:
    """Black's score as the federation counts a finished game: the discs, the empty squares
    added to the winner (split equally on a draw)."""
    black, white = "".join(grid).count("B"), "".join(grid).count("W")
    empty = 64 - black - white
    return black + empty if black > white else black if black < white else black + empty // 2


def test_every_game_of_1988_replays_and_every_finished_games_stored_score_is_the_federations() -> (
    None
):
    header, games = read_wthor(YEAR_1988, MAX)
    finished = unfinished = agree_federation = agree_discs = 0
    for game in games:
        grid = replay(game.moves)
        assert grid is not None, f"game {game.index} does not replay"
        if reversi_moves(grid, "B") or reversi_moves(grid, "W"):
            unfinished += 1  # the record stops before the end: resigned, lost on time, adjudicated
            continue
        finished += 1
        agree_federation += game.stored_score == federation_score(grid)
        agree_discs += game.stored_score == "".join(grid).count("B")
    assert header.games == finished + unfinished == 1823
    # Every finished game's stored score is the federation's count; the plain disc count agrees
    # only where no square is left empty or the game is drawn (60 finished games end with empty
    # squares, given to the winner). The 8 other games stop before the end of the game and store
    # the score their tournament gave: not a count of the position the record reaches.
    assert (finished, agree_federation, agree_discs, unfinished) == (1815, 1815, 1755, 8)


def test_the_header_is_read_as_stored() -> None:
    header, _ = read_wthor(YEAR_1988, MAX)
    assert header == WthorHeader(20, 6, 7, 12, 1823, 0, 1988, 8, 0, 24)


def test_a_game_is_read_with_its_place_players_scores_and_moves() -> None:
    _, games = read_wthor(YEAR_1988, MAX)
    first, second = next(games), next(games)
    assert (first.index, first.offset, second.index, second.offset) == (1, 16, 2, 84)
    tournament, black, white, stored, theoretical = struct.unpack_from("<3H2B", YEAR_1988, 84)
    assert (second.tournament, second.black, second.white) == (tournament, black, white)
    assert (second.stored_score, second.theoretical_score) == (stored, theoretical)
    assert first.moves[:4] == ("f5", "f6", "e6", "f4")  # 56 66 65 46
    assert (len(first.moves), len(second.moves)) == (59, 60)  # the first ends on a zero byte


def test_games_come_one_at_a_time() -> None:
    _, games = read_wthor(YEAR_1988, MAX)
    assert isinstance(games, Iterator)
    assert next(games).index == 1


def test_the_1988_file_is_written_back_byte_for_byte() -> None:
    header, games = read_wthor(YEAR_1988, MAX)
    assert write_wthor(header, list(games)) == YEAR_1988


# --- files that are not WTHOR files ---------------------------------------------------------

SMALL = YEAR_1988[: 16 + 3 * 68]
SMALL = SMALL[:4] + struct.pack("<I", 3) + SMALL[8:]  # a file of the first three games


def read_all(data: bytes, max_moves: int = MAX, max_games: int | None = None) -> list[WthorGame]:
    return list(read_wthor(data, max_moves, max_games)[1])


def refusal(data: bytes, max_moves: int = MAX, max_games: int | None = None) -> RecordError:
    """The RecordError reading ``data`` comes to, reading every game."""
    with pytest.raises(RecordError) as refused:
        read_all(data, max_moves, max_games)
    return refused.value


def with_byte(data: bytes, at: int, value: int) -> bytes:
    return data[:at] + bytes([value]) + data[at + 1 :]


def test_a_small_file_reads() -> None:
    header, games = read_wthor(SMALL, MAX)
    assert header.games == 3
    assert [game.index for game in games] == [1, 2, 3]


def test_every_truncation_of_a_file_is_refused_at_once_by_its_length() -> None:
    for end in range(len(SMALL)):
        with pytest.raises(RecordError) as refused:
            read_wthor(SMALL[:end], MAX)  # before any game is asked for
        assert refused.value.where == {"byte": end}


@pytest.mark.parametrize(("count", "byte"), [(4, 16 + 3 * 68), (2, 16 + 2 * 68), (0, 16)])
def test_a_header_whose_count_disagrees_with_the_body_is_refused(count: int, byte: int) -> None:
    data = SMALL[:4] + struct.pack("<I", count) + SMALL[8:]
    error = refusal(data)
    assert error.where == {"byte": byte}
    assert "bytes 4-7" in error.message


def test_an_absurd_game_count_is_refused_by_the_length_not_allocated() -> None:
    data = SMALL[:4] + struct.pack("<I", 0xFFFFFFFF) + SMALL[8:]
    assert refusal(data).where == {"byte": len(data)}


def test_a_10_by_10_file_is_refused() -> None:
    error = refusal(with_byte(SMALL, 12, 10))
    assert error.where == {"byte": 12}
    assert "8 × 8" in error.message


def test_more_games_than_allowed_are_refused_before_the_first() -> None:
    assert refusal(SMALL, max_games=2).where == {"byte": 4, "game": 3}
    assert read_wthor(SMALL, MAX, max_games=3)[0].games == 3


@pytest.mark.parametrize("code", [9, 19, 90, 10, 200, 255, 1, 89])
def test_a_move_byte_that_is_not_a_square_is_refused_by_byte_game_and_move(code: int) -> None:
    at = 16 + 68 + 8 + 5  # game 2, move 6
    assert refusal(with_byte(SMALL, at, code)).where == {"byte": at, "game": 2, "move": 6}


def test_a_move_after_the_moves_end_is_refused() -> None:
    at = 16 + 2 * 68 + 8 + 10  # game 3, move 11 ends the moves...
    data = with_byte(SMALL, at, 0)
    error = refusal(data)
    assert error.where == {"byte": at + 1, "game": 3, "move": 12}  # ...and move 12 follows
    assert "ends" in error.message


def test_games_before_a_broken_one_are_read_first() -> None:
    data = with_byte(SMALL, 16 + 2 * 68 + 8, 99)
    _, games = read_wthor(data, MAX)
    assert [next(games).index, next(games).index] == [1, 2]
    with pytest.raises(RecordError) as refused:
        next(games)
    assert refused.value.where["game"] == 3


def test_more_moves_than_the_bound_are_refused() -> None:
    # Game 1 has 59 moves, game 2 has 60: the bound of 59 lets the first through.
    assert refusal(SMALL, max_moves=59).where == {"byte": 84 + 8 + 59, "game": 2, "move": 60}


@given(st.binary(max_size=400))
def test_any_bytes_are_read_or_refused_as_a_record(data: bytes) -> None:
    read = read_or_refusal(read_all, data)
    if isinstance(read, RecordError):
        assert "byte" in read.where


@given(st.lists(st.binary(min_size=68, max_size=68), max_size=4))
def test_any_game_bytes_under_a_true_header_are_read_or_refused_by_byte_and_game(
    records: list[bytes],
) -> None:
    data = SMALL[:4] + struct.pack("<I", len(records)) + SMALL[8:16] + b"".join(records)
    read = read_or_refusal(read_all, data)
    if isinstance(read, RecordError):
        assert {"byte", "game", "move"} == set(read.where)
        assert 16 <= read.where["byte"] < len(data)


# --- writing ----------------------------------------------------------------------------------

names = st.sampled_from([f"{column}{row}" for column in "abcdefgh" for row in range(1, 9)])
games = st.builds(
    WthorGame,
    index=st.just(0),
    offset=st.just(0),
    tournament=st.integers(0, 0xFFFF),
    black=st.integers(0, 0xFFFF),
    white=st.integers(0, 0xFFFF),
    stored_score=st.integers(0, 64),
    theoretical_score=st.integers(0, 64),
    moves=st.lists(names, max_size=60).map(tuple),
)


@given(st.lists(games, max_size=5), st.dates(date(1900, 1, 1), date(2155, 12, 31)))
def test_written_games_read_back_the_same(written: list[WthorGame], made: date) -> None:
    header = WthorHeader(
        made.year // 100, made.year % 100, made.month, made.day, len(written), 0, made.year, 8,
        0, 22,
    )  # fmt: skip
    read_header, read = read_wthor(write_wthor(header, written), MAX)
    assert read_header == header
    for index, (game, back) in enumerate(zip(written, read, strict=True), 1):
        assert (back.index, back.offset) == (index, 16 + (index - 1) * 68)
        assert replace(back, index=0, offset=0) == game


def test_writing_what_the_format_cannot_hold_is_a_value_error() -> None:
    header, games = read_wthor(SMALL, MAX)
    game = next(games)
    for bad in (
        [game, game],  # the header counts 3
        [replace(game, moves=("i9",))] * 3,
        [replace(game, moves=("f5",) * 61)] * 3,
        [replace(game, black=70_000)] * 3,
        [replace(game, stored_score=-1)] * 3,
    ):
        with pytest.raises(ValueError):  # noqa: PT011 (one ValueError for all, by design)
            write_wthor(header, bad)
