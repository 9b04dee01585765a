"""PSQ, the game files of Piskvork (the gomoku manager) as Gomocup's tournament manager writes
them: one game read from a record, and one game written back.

A game is lines of text::

    Piskvorky 15x15, 11:11, 0
    8,8,0
    9,9,1234
    …
    pbrain-one.zip
    pbrain-two.zip
    -1
    1,Renju

The header names the board (``width``\\ x\\ ``height``; the two numbers after it are Piskvork's
window state, of no use to a referee). Each move is ``x,y,ms``: ``x`` the column from the left and
``y`` the row from the **top**, both from 1 (Piskvork's board, whose protocol counts from the
top-left corner), and the milliseconds its player thought (0 for the opening's stones a
tournament places). Stones alternate Black, White, Black from the first. The moves end at the
first line that is not one; then the tournament manager writes its two engines (Black's first),
``-1``, and the result with the tournament's name: ``0`` a draw, ``1`` the first-named engine
won, ``2`` the second.

Sources: the Gomocup protocol (``doc/GomocupProtocol.md`` of github.com/Gomocup/GomocupJudge:
coordinates from the top-left corner, ``INFO rule`` numbers) and that manager's writer of PSQ
files (``server/server.py``: the header, ``x+1,y+1,ms`` lines, the engines, ``-1``, the result and
the tournament's name). Read for the format only; nothing is copied.

What this reader decides, where the format or its writers leave it open:

* **The board is square** (``15x15``, ``20x20``): a gomoku board of the service is; at most
  ``MAX_SIDE`` (the header's three digits), for the writer too.
* **A move line** is two or three integers separated by commas (the time may be left out; spaces
  around them are allowed); a position outside the header's board is refused by the move's index.
  The moves end at the first line that is not one; a line there that begins as a move does
  (``9,9,0;``, ``8,8,0,1``), or a move further on before the ``-1`` (after a blank line), is
  refused: a move read past would audit a shorter game than the one written.
  A pass has no PSQ line: a game with a renju pass is written as JSON or SGF.
* **The rule** is not in the format. The tail's tournament name may say it, as Gomocup names its
  divisions (``Freestyle``, ``Fastgame``, ``Standard``, ``Renju``, ``Caro``, with a board size or
  group after them: ``Freestyle15_1``); ``rule`` is that rule, or None where the tail names none.
* Everything else after the moves is free text (the engines' names), read only for that name
  (at most ``MAX_LINE`` characters of the result's line are looked at).

Every refusal is a RecordError naming the line and column, with the move's index for a move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.records.errors import RecordError
from app.records.text import decode, place
from app.rules.gomoku import RULE_NAMES, Rule

MAX_LINE = 256  # characters of the tail's result line that are looked at
MAX_SIDE = 999  # the largest board side a header names (three digits)

_HEADER = re.compile(r"Piskvorky[ \t]+([0-9]{1,3})[ \t]*x[ \t]*([0-9]{1,3})\b", re.IGNORECASE)
_MOVE = re.compile(
    r"[ \t]*([0-9]{1,3})[ \t]*,[ \t]*([0-9]{1,3})[ \t]*(?:,[ \t]*(-?[0-9]{1,10})[ \t]*)?"
)
_LIKE_A_MOVE = re.compile(r"[ \t]*-?[0-9]+[ \t]*,")  # a line that begins as a move does
_RESULT = re.compile(r"[ \t]*([0-2])[ \t]*,[ \t]*([A-Za-z]+)")

# Gomocup's divisions by the word their names begin with (Fastgame is freestyle with less time).
DIVISIONS: dict[str, Rule] = {
    **{name.lower(): rule for rule, name in RULE_NAMES.items()},
    "fastgame": "freestyle",
}

Result = int  # 0 a draw, 1 the first-named engine (Black) won, 2 the second (White)


@dataclass(frozen=True, slots=True)
class PsqGame:
    """One game: its board's side, its stones in order as ``(row, col)`` (row 0 the top row),
    each one's milliseconds (None where the line wrote none), the rule its tail's tournament names
    (None if none), the result it records (None if none) and its two players (Black's first)."""

    size: int
    stones: tuple[tuple[int, int], ...]
    milliseconds: tuple[int | None, ...]
    rule: Rule | None = None
    result: Result | None = None
    players: tuple[str, str] | None = None


def read_psq(data: str | bytes, max_moves: int) -> PsqGame:
    """The game of the PSQ record ``data``; RecordError, with ``line`` and ``column``, where it
    is not one (``move`` too for a stone off the board, or one more than ``max_moves``)."""
    text = decode(data)
    lines = text.split("\n")
    header = _HEADER.match(lines[0])
    if header is None:
        raise RecordError(
            "a PSQ record begins with its board: Piskvorky 15x15, 11:11, 0", **place(text, 0)
        )
    width, height = int(header.group(1)), int(header.group(2))
    if width != height:
        raise RecordError(f"a gomoku board is square, not {width} × {height}", **place(text, 0))
    size = width
    stones: list[tuple[int, int]] = []
    times: list[int | None] = []
    at = len(lines[0]) + 1
    index = 1
    while index < len(lines):
        line = lines[index].rstrip("\r")
        found = _MOVE.fullmatch(line)
        if found is None:
            break
        number = len(stones) + 1
        if number > max_moves:
            raise RecordError(
                f"a record has at most {max_moves} moves", move=number, **place(text, at)
            )
        x, y = int(found.group(1)), int(found.group(2))
        if not (1 <= x <= size and 1 <= y <= size):
            raise RecordError(
                f"{x},{y} is not a point of a {size} × {size} board (x and y count from 1)",
                move=number,
                **place(text, at),
            )
        stones.append((y - 1, x - 1))
        times.append(None if found.group(3) is None else int(found.group(3)))
        at += len(lines[index]) + 1
        index += 1
    players, result, rule = _tail(text, lines, index, at)
    return PsqGame(size, tuple(stones), tuple(times), rule, result, players)


def _tail(
    text: str, lines: Sequence[str], index: int, at: int
) -> tuple[tuple[str, str] | None, Result | None, Rule | None]:
    """The players, result and rule of the lines after the moves (``lines[index:]``, the first
    at ``text[at]``), as a tournament manager writes them: two names, ``-1``, then
    ``result,tournament`` (a game that goes on has none yet). A line before ``-1`` that is, or
    begins as, a move is refused: the moves are one line each with nothing between them, and a
    move read past would audit a shorter game than the one written."""
    end = None
    for number in range(index, len(lines)):
        line = lines[number].rstrip("\r")
        if line.strip() == "-1":
            end = number
            break
        if _LIKE_A_MOVE.match(line):
            why = (
                "a move after the end of the moves: they are one line each, with nothing "
                "between them"
                if number > index
                else "not a move: a move is x,y,ms (column and row from 1, milliseconds)"
            )
            raise RecordError(why, **place(text, at))
        at += len(lines[number]) + 1
    if end is None:
        return None, None, None
    players = (lines[end - 2].strip(), lines[end - 1].strip()) if end - index >= 2 else None
    after = lines[end + 1][:MAX_LINE] if end + 1 < len(lines) else ""
    found = _RESULT.match(after)
    if found is None:
        return players, None, None
    word = re.match("[a-z]+", found.group(2).lower())
    rule = None if word is None else DIVISIONS.get(word.group())
    return players, int(found.group(1)), rule


def write_psq(game: PsqGame) -> str:
    """``game`` as a tournament manager writes it: the header, a line a stone (an unknown time
    written 0), then, where it has players, the players and ``-1``, and the result with the
    rule's division once it has one (``1,Renju``: a game that goes on has none, as the manager
    writes a game in play). ValueError for a stone off the board or a name that is not one
    line."""
    size = game.size
    if not 1 <= size <= MAX_SIDE:
        raise ValueError(f"PSQ names boards 1 to {MAX_SIDE} wide, not {size}")
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    for (row, col), ms in zip(game.stones, game.milliseconds, strict=True):
        if not (0 <= row < size and 0 <= col < size):
            raise ValueError(f"({row}, {col}) is not a point of a {size} × {size} board")
        lines.append(f"{col + 1},{row + 1},{ms or 0}")
    if game.players is not None:
        for name in game.players:
            if "\n" in name or "\r" in name or name.strip() == "-1":
                raise ValueError(f"a PSQ player's name is one line, not {name!r}")
        lines.extend(game.players)
        lines.append("-1")
        if game.result is not None:
            lines.append(f"{game.result},{RULE_NAMES[game.rule or 'freestyle']}")
    return "\n".join(lines) + "\n"
