"""WTHOR database files (``.wtb``): the French Othello Federation's record of tournament games.

A file is a 16-byte header and then one 68-byte record per game, little-endian throughout:

* header: byte 0 the century of the file's creation (``20``), 1 its year in the century, 2 its
  month, 3 its day; bytes 4–7 the number of games (N1, uint32); 8–9 N2 (uint16, a count used
  by the federation's player and tournament files, 0 here); 10–11 the year the games were played
  (uint16); 12 the board size P1 (0 or 8 for 8 × 8, 10 for 10 × 10); 13 the game type P2;
  14 the depth P3 of the perfect-play search behind each game's theoretical score; 15 reserved.
* game: the tournament's number (uint16), Black's and White's player numbers (uint16 each,
  indexes into the federation's ``WTHOR.TRN`` and ``WTHOR.JOU``), Black's real score (one byte:
  Black's discs at the end as the federation counts them, the empty squares going to the
  winner), the theoretical score (one byte: Black's score with perfect play from P3 empties),
  then 60 move bytes: ``10 * row + col`` with row and col from 1 to 8, the row counted from the
  top (11 is a1, 18 is h1, 56 is f5, 88 is h8). A 0 ends the moves (the game ended, or its
  record stopped); every byte after it is 0. Passes are never written.

Sources, checked against each other and against the federation's files of 1977–2018 as the
public repository AJ2K02/Othello-Engine (folder ``wthor/``) keeps them: the federation's page
https://www.ffothello.org/informatique/la-base-wthor/ (where the base is published); Edax's
``src/base.h`` and ``src/game.c`` (github.com/abulmo/edax-reversi: the header's fields, the move
code ``10 * row + col``); NBoard's ``ThorGame8`` (github.com/weltyc/othello: "number of black
discs at end of game", "score with perfect play in the endgame"); Reversi.jl's WTHOR page
(codes.sota-shimozono.com/Reversi.jl: ``filesize == 16 + n_games * 68``, passes not encoded).
Every game of the 1988 file replays with passes inferred, and every stored score of a finished
game is the federation's count (``tests/records/test_wthor.py``).

Only 8 × 8 files are read: a 10 × 10 file's records are of another size. ``read_wthor`` checks
the header against the file's length at once and then yields the games one at a time, so a
10 MB body is never a list of 150 000 games; a game that cannot be read is refused when it is
reached, by its byte offset and its index. ``write_wthor`` writes the same format back.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from app.records.errors import RecordError

WTHOR = "wtb"  # the format's name (a file's extension), as exports and the archive name it
WTHOR_MEDIA_TYPE = "application/octet-stream"
HEADER_SIZE = 16
GAME_SIZE = 68
MOVES_SIZE = 60  # move bytes per game: 64 squares less the 4 of the start
BOARD_SIZES = (0, 8)  # P1 values of an 8 × 8 file
_HEADER = struct.Struct("<4BIHH4B")
_GAME = struct.Struct("<3H2B")
_MOVES_AT = _GAME.size  # 8: the move bytes follow the game's numbers and scores

# The name of every move byte that is a square (11 -> "a1", 56 -> "f5"), "" for the others.
_NAMES: tuple[str, ...] = tuple(
    f"{'abcdefgh'[code % 10 - 1]}{code // 10}"
    if 1 <= code // 10 <= 8 and 1 <= code % 10 <= 8
    else ""
    for code in range(256)
)
_SQUARE_BYTES = bytes(code for code, name in enumerate(_NAMES) if name)
_CODES = {name: code for code, name in enumerate(_NAMES) if name}


@dataclass(frozen=True, slots=True)
class WthorHeader:
    """A WTHOR file's 16-byte header, its fields as stored."""

    century: int  # of the file's creation, as each of the next three
    year: int  # in the century
    month: int
    day: int
    games: int  # N1: the number of game records that follow
    records: int  # N2: 0 in a game file
    games_year: int  # the year the games were played
    board_size: int  # P1: 0 or 8 for 8 × 8
    game_type: int  # P2
    depth: int  # P3: the empties from which the theoretical scores are perfect play


@dataclass(frozen=True, slots=True)
class WthorGame:
    """One game of a WTHOR file, as stored: who played it where, its two scores for Black, and
    its moves as square names (passes are not written)."""

    index: int  # 1-based, in the file
    offset: int  # of the game's record in the file
    tournament: int
    black: int  # player numbers
    white: int
    stored_score: int  # Black's discs at the end, the empty squares given to the winner
    theoretical_score: int  # Black's score with perfect play from ``depth`` empties
    moves: tuple[str, ...]


def read_wthor(
    data: bytes, max_moves: int, max_games: int | None = None
) -> tuple[WthorHeader, Iterator[WthorGame]]:
    """The header of the WTHOR file ``data`` and an iterator over its games, in file order.

    RecordError, with ``byte``: at once for a header that is not an 8 × 8 file's or whose game
    count disagrees with the file's length (or exceeds ``max_games``, with ``game`` too); while
    iterating, with ``game`` and ``move`` too, for a move byte that is not a square, a move
    after the moves' end, or more than ``max_moves`` moves.
    """
    header = _read_header(data)
    if max_games is not None and header.games > max_games:
        raise RecordError(
            f"this file holds {header.games} games and a file may hold at most {max_games}",
            byte=4,
            game=max_games + 1,
        )
    return header, _games(data, header.games, max_moves)


def write_wthor(header: WthorHeader, games: Sequence[WthorGame]) -> bytes:
    """The WTHOR file of ``header`` and ``games`` (their ``index`` and ``offset`` are not
    written: a game's place in the file is both). ValueError when ``header.games`` is not the
    number of games, or a field does not fit its bytes, or a move is not a square of 8 × 8, or a
    game has more than 60 moves."""
    if header.games != len(games):
        raise ValueError(f"the header counts {header.games} games and {len(games)} are given")
    return header_bytes(header) + b"".join(game_bytes(game) for game in games)


def wthor_header(games: int, made: date) -> WthorHeader:
    """The header of a file of ``games`` games made on ``made``: an 8 × 8 file (P1 8) of
    games of that year, whose theoretical scores are the final ones (P3 0: perfect play from 0
    empties, ``recorded_game``)."""
    return WthorHeader(
        made.year // 100, made.year % 100, made.month, made.day, games, 0, made.year, 8, 0, 0
    )


def header_bytes(header: WthorHeader) -> bytes:
    """A WTHOR file's 16 header bytes (ValueError for a field that does not fit its bytes)."""
    try:
        return _HEADER.pack(
            header.century, header.year, header.month, header.day, header.games,
            header.records, header.games_year, header.board_size, header.game_type,
            header.depth, 0,
        )  # fmt: skip
    except struct.error as error:
        raise ValueError(f"a field does not fit its bytes: {error}") from None


def game_bytes(game: WthorGame) -> bytes:
    """A game's 68 bytes in a WTHOR file (ValueError for a field that does not fit its bytes,
    a move that is not a square of 8 × 8, or more than 60 moves)."""
    try:
        numbers = _GAME.pack(
            game.tournament, game.black, game.white, game.stored_score, game.theoretical_score
        )
    except struct.error as error:
        raise ValueError(f"a field does not fit its bytes: {error}") from None
    return numbers + _move_bytes(game.moves)


# A JSON record's members that are not its creation parameters.
NOT_PARAMS = frozenset({"moves", "state", "chain", "signature", "names", "players"})


def recorded_game(record: Mapping[str, Any]) -> WthorGame | None:
    """A game's JSON record (``GET /v1/games/{id}/record``) as a WTHOR game, if a WTHOR file
    holds it whole: Othello on 8 × 8 from the standard start (no other creation parameter),
    ended on the board (``no_moves``: a WTHOR record holds no other ending), its moves squares.
    Its stored score is Black's final score as the federation counts it, and so is its
    theoretical score: perfect play from 0 empties (``depth`` 0) is the end itself. No player
    or tournament numbers (0): they index the federation's own files."""
    state = record.get("state")
    params = {name: value for name, value in record.items() if name not in NOT_PARAMS}
    if params != {"game": "reversi", "height": 8, "width": 8} or not isinstance(state, Mapping):
        return None
    final, moves = state.get("final_score"), record.get("moves")
    if state.get("reason") != "no_moves" or not isinstance(final, Mapping):
        return None
    if not isinstance(moves, list) or not all(move in _CODES for move in moves):
        return None
    black = final.get("1")  # player 1 is Black
    if not isinstance(black, int) or len(moves) > MOVES_SIZE:
        return None
    return WthorGame(0, 0, 0, 0, 0, black, black, tuple(moves))


def _read_header(data: bytes) -> WthorHeader:
    if len(data) < HEADER_SIZE:
        raise RecordError(
            f"a WTHOR file begins with a {HEADER_SIZE}-byte header and this one has "
            f"{len(data)} bytes",
            byte=len(data),
        )
    century, year, month, day, games, records, games_year, size, kind, depth, _ = (
        _HEADER.unpack_from(data)
    )
    if size not in BOARD_SIZES:
        raise RecordError(
            f"this file is of {size} × {size} games (board size byte {size}); only 8 × 8 files "
            "are read (board size 0 or 8)",
            byte=12,
        )
    expected = HEADER_SIZE + games * GAME_SIZE
    if len(data) != expected:
        whole, part = divmod(len(data) - HEADER_SIZE, GAME_SIZE)
        held = f"{whole} games" + (f" and {part} bytes" if part else "")
        raise RecordError(
            f"the header (bytes 4-7) counts {games} games, which take {expected} bytes, and "
            f"the file has {len(data)}: {held} after the header",
            byte=min(len(data), expected),
        )
    return WthorHeader(century, year, month, day, games, records, games_year, size, kind, depth)


def _games(data: bytes, count: int, max_moves: int) -> Iterator[WthorGame]:
    for index in range(1, count + 1):
        offset = HEADER_SIZE + (index - 1) * GAME_SIZE
        tournament, black, white, stored, theoretical = _GAME.unpack_from(data, offset)
        moves_at = offset + _MOVES_AT
        codes = data[moves_at : moves_at + MOVES_SIZE].rstrip(b"\0")
        if codes.translate(None, _SQUARE_BYTES):  # something left that is not a square
            raise _move_error(codes, moves_at, index)
        if len(codes) > max_moves:
            raise RecordError(
                f"a record has at most {max_moves} moves",
                byte=moves_at + max_moves,
                game=index,
                move=max_moves + 1,
            )
        moves = tuple(map(_NAMES.__getitem__, codes))  # in C (a generator was half the read)
        yield WthorGame(index, offset, tournament, black, white, stored, theoretical, moves)


def _move_error(codes: bytes, moves_at: int, index: int) -> RecordError:
    """The error of the first byte of ``codes`` (a game's move bytes without their trailing
    zeros, at least one of them wrong) that is not a square, or that follows the moves' end."""
    ended = codes.find(0)
    at, code = next(
        (at, code)
        for at, code in enumerate(codes)
        if code and (not _NAMES[code] or 0 <= ended < at)
    )
    if _NAMES[code]:
        why = f"move {at + 1} ({code}) follows move {ended + 1}, a 0 that ends the game's moves"
    else:
        why = (
            f"move byte {code} is not a square: a move is 10 × row + column, each from 1 to 8 "
            "(11 is a1, 56 is f5, 88 is h8)"
        )
    return RecordError(why, byte=moves_at + at, game=index, move=at + 1)


def _move_bytes(moves: Sequence[str]) -> bytes:
    if len(moves) > MOVES_SIZE:
        raise ValueError(f"a WTHOR game has at most {MOVES_SIZE} moves, not {len(moves)}")
    try:
        codes = bytes(_CODES[square.lower()] for square in moves)
    except KeyError as error:
        raise ValueError(f"{error.args[0]!r} is not a square of 8 × 8") from None
    return codes.ljust(MOVES_SIZE, b"\0")
