"""Transcripts: a game's moves as square names written one after another (``f5d6c3d3c4``).

Othello players write a game this way, and gomoku and renju players too (``h8i9j10``): each
square is a column letter followed by its row number, so a name ends where the next letter
begins and nothing separates them. Letters are read in either case and returned in lower case;
spaces, tabs and line breaks may stand between squares (a transcript copied across lines), and
nothing else may: not a comma, not a move number, not a pass. Othello transcripts never write
passes, a pass being inferred wherever the colour to move has no legal move (API.md, "Game
records"), so ``pa`` or ``--`` is refused like any other text that is not a square.

Which squares a board has is not the reader's to say: it returns names, and the caller resolves
each against its board (``Squares.parse``), where a name the board lacks (``z9`` on 8 × 8) is
refused by the move's index. The reader refuses text that names no square at all, by line and
column, and a transcript of more than ``max_moves`` squares by the first move over the bound,
without reading further: a transcript of a million moves costs what the bound allows, not more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.contract.squares import MAX_LENGTH, check_syntax
from app.records.errors import RecordError
from app.records.text import decode, place

# A square: an ASCII letter and a row number from 1 (at most MAX_LENGTH - 1 digits). A longer
# run of digits is refused after the match, where its first surplus digit stands.
_SQUARE = re.compile(f"[A-Za-z][1-9][0-9]{{0,{MAX_LENGTH - 2}}}")
_SPACE = re.compile("[ \t\r\n]*")
# A whole transcript that is squares and spaces only, each square's digits ending where a letter
# or a space begins: read at once (``findall``), where a square at a time costs a match and a
# call each. Anything else is read a square at a time, which says where it breaks.
_SQUARES = re.compile(f"{_SPACE.pattern}(?:{_SQUARE.pattern}{_SPACE.pattern})*")
_DIGITS = frozenset("0123456789")


def read_transcript(data: str | bytes, max_moves: int) -> list[str]:
    """The squares ``data`` names, in order and in lower case (``"F5 d6"`` is ``["f5", "d6"]``);
    RecordError with ``line`` and ``column`` where it is not a transcript, and with ``move`` too
    for a transcript of more than ``max_moves`` squares."""
    text = decode(data)
    if _SQUARES.fullmatch(text):
        every: list[str] = _SQUARE.findall(text.lower())  # ASCII: lower case keeps lengths
        if len(every) <= max_moves:
            return every
    squares: list[str] = []
    end = len(text)
    at = _skip_space(text, 0)
    while at < end:
        found = _SQUARE.match(text, at)
        if found is None:
            raise RecordError(_why_not_a_square(text, at), **place(text, at))
        after = found.end()
        if after < end and text[after] in _DIGITS:
            raise RecordError(
                f"a row number has at most {MAX_LENGTH - 1} digits", **place(text, after)
            )
        if len(squares) == max_moves:
            raise RecordError(
                f"a record has at most {max_moves} moves", move=max_moves + 1, **place(text, at)
            )
        squares.append(found.group().lower())
        at = _skip_space(text, after)
    return squares


def write_transcript(squares: Iterable[str]) -> str:
    """The transcript of ``squares`` (names, in any case): the names in lower case, one after
    another. ValueError for anything that is not a square name: a pass is never written (the
    caller leaves passes out; a reader infers them)."""
    return "".join(check_syntax(square) for square in squares)


def _skip_space(text: str, at: int) -> int:
    spaces = _SPACE.match(text, at)
    assert spaces is not None  # the pattern matches the empty string
    return spaces.end()


def _why_not_a_square(text: str, at: int) -> str:
    """Why no square name begins at ``text[at]``, in words a person who typed it can act on."""
    head = text[at : at + 2]
    if head.lower() in ("pa", "--"):
        return (
            "a transcript never writes a pass (Othello's are inferred where the colour to "
            "move has no legal move; a game with a renju pass is written as a list of moves)"
        )
    char = text[at]
    if char.isascii() and char.isalpha():
        return (
            f"{char!r} is not followed by a row number from 1: a square is a column letter and "
            "a row number, such as f5 or h10"
        )
    return (
        f"{char!r} is not part of a square name: a transcript is square names written one "
        "after another (f5d6c3), with nothing between them but spaces and line breaks"
    )
