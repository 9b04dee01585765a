"""GGF, the Generic Game Format, as GGS (the Generic Game Server) writes Othello games: one game
read from a record, the games of a file read one by one, and one game written back.

A game is ``(;`` properties ``;)``, each property an upper-case name and a value in brackets.
GGS writes an Othello game as::

    (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]RB[2197.01]
    RW[2199.72]TI[05:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*---
    ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01]…B[pass]W[a1//0.01]B[b1//0.01];)

(on one line). ``GM`` the game; ``PC`` the place; ``DT`` the date; ``PB``, ``PW`` the players
and ``RB``, ``RW`` their ratings; ``TI`` both players' clock (``TB``, ``TW`` each one's), as
time/increment/extension; ``TY`` the game type; ``RE`` the result for Black, the game's first
colour, in discs, with ``:r`` (resigned), ``:t`` (time out) or ``:s`` (score agreed) after it;
``BO`` the board size, the start position row by row from the top (``*`` Black, ``O`` White,
``-`` empty; spaces between rows or not) and the colour to move; then the moves, ``B[…]`` and
``W[…]``, each a square (either case) or a pass, optionally followed by ``/evaluation`` and
``/time`` (``W[F4/-48.50/0.93]``, ``B[E6//4.09]``). A move is written for the colour whose turn it
is, passes included, so colours alternate from the side to move. GGS archives write the number
of a match's games before them, one match per line (``2 (;…;)(;…;)`` for a synchro match).

Sources: the format's page https://www.skatgame.net/mburo/ggsa/ggf (properties, ``RE`` flags,
``BO``, move suffixes, komi properties); GGS's own archive, https://www.skatgame.net/mburo/ggs/
game-archive/Othello/ (games of 2000–2011 kept in ``tests/data``, with their sources in its
README); NBoard's reader and writer (github.com/weltyc/othello, ``com.welty.othello.gdk``: game
types ``s``, ``k``, ``a``, ``r<n>``, ``b``, ``w`` around the size, the octagonal board ``88``,
passes read as any word beginning with P and written ``PA``); Edax's ``src/game.c``
(github.com/abulmo/edax-reversi: a value runs to the first ``]``, no escapes; ``BO`` with a space
after each row; passes written ``PA``, read as anything beginning with ``pa``). Read for the
format only; nothing is copied.

What this reader decides, where the format or its writers leave it open:

* **One game per record.** ``read_ggf`` reads exactly one game (a leading match count of 1 is
  allowed) and refuses a text holding more, a synchro match included: a record is audited as one
  game, and a second game silently dropped would be a false audit. ``iter_ggf`` reads a file of
  any number of games (an archive), checking each match count against its games.
* **Passes** are read as ``PA`` or ``pass`` in any case (GGS's archive holds both) and written
  ``PA`` (as NBoard and Edax write them, and as GGS's archive of 2009 holds them).
* **Colours are returned as written**, not checked: whether a move was written for the colour to
  move (and a pass where that colour had no move) is the audit's to say, by the move's index.
* **Game types.** The type's board size must be ``BO``'s. Synchro (``s``), a colour preference
  (``b``, ``w``) and a random start (``r<n>``: the start position is ``BO``'s, which the service
  plays from like any posted board) are read. Komi games (``k``, and ``KB``, ``KW``, ``KM``) and
  anti games (``a``: the fewer discs win) are refused: their winner is not the one the service's
  rules name. So is the octagonal board (``88``), and a board wider than 26 columns (no square
  names).
* **Values** run to the first ``]`` (no escapes exist) and are at most ``MAX_VALUE`` characters;
  a property appears once per game (moves aside); names are one or two upper-case letters.

Every refusal is a RecordError naming the line and column, with the move's index for a move and
the game's for a game of a file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from app.contract.squares import MAX_COLUMNS, SquareError, parse
from app.records.errors import RecordError
from app.records.text import decode, place
from app.rules.colors import Color

Ending = Literal["", "r", "t", "s"]

PASS = "pass"
MAX_VALUE = 4096  # characters in one property's value
PLACE = "adjudicator"  # PC of the games written here
OCTAGON = 88  # GGS's size of its octagonal 10 × 10 board

_SPACE = re.compile("[ \t\r\n]*")
_NAME = re.compile("[A-Z]{1,2}")
_COUNT = re.compile("[0-9]{1,3}")
_NUMBER = re.compile(r"[+-]?[0-9]{1,9}(\.[0-9]{1,9})?")
_RESULT = re.compile(r"([+-]?[0-9]{1,3}(?:\.[0-9]{1,9})?)(?::([rts]))?")
_BOARD = re.compile("[ \t\r\n]*([0-9]{1,3})[ \t\r\n](.*)", re.DOTALL)
_NO_SPACE = str.maketrans("", "", " \t\r\n")
_TO_ROWS = str.maketrans("-*O", ".BW")
_FROM_ROWS = str.maketrans(".BW", "-*O")
_UNWRITABLE = str.maketrans({"]": ")", **{chr(code): " " for code in [*range(32), 127]}})
_PASSES = ("pa", "pass")
_ENDINGS: dict[str, Ending] = {"": "", "r": "r", "t": "t", "s": "s"}
_SQUARE = re.compile("[a-z][1-9][0-9]{0,6}")


def _centre_start(size: int) -> tuple[str, ...]:
    """The start of a game on an even ``size``: White on the centre's top-left and bottom-right
    squares, Black on the other two (d4, e5 White and e4, d5 Black on 8 × 8)."""
    half = size // 2
    rows = ["." * size] * size
    rows[half - 1] = "." * (half - 1) + "WB" + "." * (half - 1)
    rows[half] = "." * (half - 1) + "BW" + "." * (half - 1)
    return tuple(rows)


STANDARD_START = _centre_start(8)


@dataclass(frozen=True, slots=True)
class GgfMove:
    """One ``B[…]`` or ``W[…]``: the colour it was written for, the square (a lower-case name)
    or ``"pass"``, and the evaluation and time written after it, as written (``"-48.50"``,
    ``"0.93"``), or None."""

    color: Color
    square: str
    evaluation: str | None = None
    seconds: str | None = None


@dataclass(frozen=True, slots=True)
class GgfResult:
    """``RE``: the score for Black in discs (Black's less White's) and how the game ended:
    ``""`` played out, ``"r"`` resigned, ``"t"`` time out, ``"s"`` score agreed."""

    score: float
    ending: Ending = ""


@dataclass(frozen=True, slots=True)
class GgfGame:
    """One game: its board (``height`` × ``width``, GGF boards being square), the start position
    as rows of ``B``, ``W`` and ``.`` from the top (None for the standard 8 × 8 start with Black
    to move), the colour to move first, the moves as written, the players, the result and the
    clock, and every property but the moves as read (``properties``, in file order: what the
    writer writes back)."""

    height: int
    width: int
    start_rows: tuple[str, ...] | None
    to_move: Color
    moves: tuple[GgfMove, ...]
    black: str | None
    white: str | None
    result: GgfResult | None
    time_control: str | None
    properties: dict[str, str]

    @classmethod
    def of(
        cls,
        moves: Iterable[GgfMove],
        *,
        size: int = 8,
        start_rows: Sequence[str] | None = None,
        to_move: Color = "B",
        black: str | None = None,
        white: str | None = None,
        result: GgfResult | None = None,
        time_control: str | None = None,
        date: datetime | None = None,
        site: str = PLACE,
    ) -> GgfGame:
        """The game a writer writes as GGS would: its properties in GGS's order (``GM``,
        ``PC`` (``site``), ``DT``, ``PB``, ``PW``, ``TI``, ``TY``, ``RE``, ``BO``). Free text
        (players, site, clock) is made writable: a ``]``, which no GGF value can hold, becomes
        ``)``, a control character a space, and a value is cut at ``MAX_VALUE`` characters;
        squares are kept in lower case.
        ``date`` must be aware; it is written in UTC. Without ``start_rows``, the start is the
        centre four of an even ``size``. ValueError for a board or a move that is not one (the
        start rows, an odd size without them, a square outside the board, an evaluation or a
        time that is not a decimal number)."""
        rows = _checked_rows(size, start_rows)
        moves = _checked_moves(moves, size)
        properties = {"GM": "Othello", "PC": _writable(site)}
        if date is not None:
            if date.tzinfo is None:
                raise ValueError("the date of a game must say its time zone")
            properties["DT"] = f"{date.astimezone(UTC):%Y.%m.%d_%H:%M:%S}.UTC"
        for key, text in (("PB", black), ("PW", white), ("TI", time_control)):
            if text is not None:
                properties[key] = _writable(text)
        properties["TY"] = str(size)
        if result is not None:
            ending = f":{result.ending}" if result.ending else ""
            properties["RE"] = f"{result.score:+.3f}{ending}"
        cells = " ".join(row.translate(_FROM_ROWS) for row in rows)
        properties["BO"] = f"{size} {cells} {'*' if to_move == 'B' else 'O'}"
        standard = rows == STANDARD_START and to_move == "B"
        return cls(
            height=size,
            width=size,
            start_rows=None if standard else rows,
            to_move=to_move,
            moves=moves,
            black=properties.get("PB"),
            white=properties.get("PW"),
            result=_result(properties["RE"]) if "RE" in properties else None,
            time_control=properties.get("TI"),
            properties=properties,
        )


def read_ggf(data: str | bytes, max_moves: int) -> GgfGame:
    """The one game of the GGF record ``data`` (a match count of 1 may stand before it);
    RecordError, with ``line`` and ``column``, for a text that is not one Othello game this
    service can referee, and with ``move`` too for a move or for more than ``max_moves``."""
    text = decode(data)
    at = _skip(text, 0)
    count = _COUNT.match(text, at)
    if count is not None:
        if count.group() != "1":
            raise RecordError(
                f"this is a match of {count.group()} games (GGS writes their number before "
                "them): a record is one game",
                **place(text, at),
            )
        at = _skip(text, count.end())
    if not text.startswith("(;", at):
        raise RecordError(_not_a_game(text, at), **place(text, at))
    game, at = _read_game(text, at, max_moves)
    at = _skip(text, at)
    if at < len(text):
        more = text.startswith("(;", at)
        raise RecordError(
            "a record is one game and this text holds more (a synchro match is two: audit "
            "each on its own)"
            if more
            else "text follows the game's end (;)): a record is one game",
            **place(text, at),
        )
    return game


def iter_ggf(data: str | bytes, max_moves: int, max_games: int | None = None) -> Iterator[GgfGame]:
    """The games of the GGF file ``data``, one at a time (GGS's match counts before them are
    checked and skipped); RecordError as ``read_ggf``'s, with ``game`` too, raised when the
    game it concerns is reached, or when a match count or ``max_games`` is exceeded (and at
    once for bytes that are not UTF-8)."""
    return _games(decode(data), max_moves, max_games)


def write_ggf(game: GgfGame) -> str:
    """``game`` as GGF: its properties as they are (``GgfGame.of`` puts them in GGS's order),
    then its moves, squares in lower case, passes ``PA``. ValueError for a value GGF cannot
    hold (a ``]``), a property name that is not one or two upper-case letters, or a move that
    is not a square or a pass with decimal numbers after it."""
    parts = ["(;"]
    for key, value in game.properties.items():
        if not _NAME.fullmatch(key) or key in ("B", "W"):
            raise ValueError(f"{key!r} cannot be written as a property's name")
        if "]" in value:
            raise ValueError(f"the value of {key} holds a ']', which GGF cannot write")
        parts.append(f"{key}[{value}]")
    for number, move in enumerate(game.moves, 1):
        square = "PA" if move.square == PASS else move.square.lower()
        numbers = [text for text in (move.evaluation, move.seconds) if text is not None]
        if not (square == "PA" or _SQUARE.fullmatch(square)) or not all(
            _NUMBER.fullmatch(text) for text in numbers
        ):
            raise ValueError(f"move {number} cannot be written: {move}")
        suffix = ""
        if move.seconds is not None:
            suffix = f"/{move.evaluation or ''}/{move.seconds}"
        elif move.evaluation is not None:
            suffix = f"/{move.evaluation}"
        parts.append(f"{move.color}[{square}{suffix}]")
    parts.append(";)")
    return "".join(parts)


# --- reading --------------------------------------------------------------------------------


def _skip(text: str, at: int) -> int:
    spaces = _SPACE.match(text, at)
    assert spaces is not None  # the pattern matches the empty string
    return spaces.end()


def _not_a_game(text: str, at: int) -> str:
    if at >= len(text):
        return "the text ends before a game begins: a GGF game is (;…;)"
    return f"{text[at]!r} is not the start of a game: a GGF game begins with (;"


def _games(text: str, max_moves: int, max_games: int | None) -> Iterator[GgfGame]:
    index = 0
    announced: tuple[int, int] | None = None  # a match count and where it stands
    since = 0  # games read since that count
    at = _skip(text, 0)
    while True:
        count = _COUNT.match(text, at)
        if at == len(text) or count is not None:
            if announced is not None and announced[0] != since:
                raise RecordError(
                    f"the match count {announced[0]} stands before {since} games",
                    **place(text, announced[1]),
                )
            if count is None:
                return
            announced, since = (int(count.group()), at), 0
            at = _skip(text, count.end())
            continue
        if not text.startswith("(;", at):
            raise RecordError(_not_a_game(text, at), **place(text, at), game=index + 1)
        index += 1
        if max_games is not None and index > max_games:
            raise RecordError(
                f"a file may hold at most {max_games} games", **place(text, at), game=index
            )
        try:
            game, at = _read_game(text, at, max_moves)
        except RecordError as error:
            raise RecordError(error.message, **error.where, game=index) from None
        yield game
        since += 1
        at = _skip(text, at)


def _read_game(text: str, at: int, max_moves: int) -> tuple[GgfGame, int]:
    """The game whose ``(;`` is at ``text[at]``, and the index just after its ``;)``."""
    begins = at
    reading = _Reading()
    at += 2
    while True:
        at = _skip(text, at)
        if text.startswith(";)", at):
            return reading.game(text, begins), at + 2
        key, value, value_at, next_at = _property(text, at)
        if key in ("B", "W"):
            if len(reading.moves) == max_moves:
                raise RecordError(
                    f"a record has at most {max_moves} moves",
                    move=max_moves + 1,
                    **place(text, at),
                )
            number = len(reading.moves) + 1
            reading.moves.append(_move(key, value, reading.size, text, value_at, number))
        else:
            reading.take(key, value, text, at, value_at)
        at = next_at


@dataclass
class _Reading:
    """What a game's properties have said so far."""

    properties: dict[str, str] = field(default_factory=dict)
    moves: list[GgfMove] = field(default_factory=list)
    size: int = 8
    rows: tuple[str, ...] = STANDARD_START
    to_move: Color = "B"
    type_size: tuple[int, int] | None = None  # TY's board size and where its value stands
    result: GgfResult | None = None

    def take(self, key: str, value: str, text: str, at: int, value_at: int) -> None:
        """The property ``key[value]`` (a move's aside), which stands at ``text[at]``."""
        if key in self.properties:
            raise RecordError(f"{key} is given twice", **place(text, at))
        self.properties[key] = value
        if key == "GM" and value.lower() != "othello":
            raise RecordError(
                f"this is a game of {value!r}: only Othello (GM[Othello]) is read",
                **place(text, value_at),
            )
        if key == "BO":
            if self.moves:
                raise RecordError("the board (BO) comes after moves", **place(text, at))
            self.size, self.rows, self.to_move = _board(value, text, value_at)
        elif key == "TY":
            self.type_size = _game_type(value, text, value_at), value_at
        elif key == "RE":
            self.result = _result(value, text, value_at)
        elif key in ("KB", "KW", "KM"):
            raise RecordError(_KOMI, **place(text, at))

    def game(self, text: str, begins: int) -> GgfGame:
        """The game read, once its ``;)`` is reached (its ``(;`` at ``text[begins]``)."""
        if "GM" not in self.properties:
            raise RecordError("a GGF game names its game: GM[Othello]", **place(text, begins))
        if self.type_size is not None and self.type_size[0] != self.size:
            raise RecordError(
                f"the game type is of size {self.type_size[0]} and the board (BO) of size "
                f"{self.size}",
                **place(text, self.type_size[1]),
            )
        standard = self.rows == STANDARD_START and self.to_move == "B"
        return GgfGame(
            height=self.size,
            width=self.size,
            start_rows=None if standard else self.rows,
            to_move=self.to_move,
            moves=tuple(self.moves),
            black=self.properties.get("PB"),
            white=self.properties.get("PW"),
            result=self.result,
            time_control=self.properties.get("TI"),
            properties=self.properties,
        )


_KOMI = (
    "a komi game (its result is counted against a komi) is not refereed here: only games whose "
    "winner has more discs"
)


def _property(text: str, at: int) -> tuple[str, str, int, int]:
    """The property at ``text[at]``: its name, its value, where the value begins and the index
    after its ``]``."""
    name = _NAME.match(text, at)
    if name is None:
        if at >= len(text):
            raise RecordError("the text ends inside a game: a game ends with ;)", **place(text, at))
        raise RecordError(
            f"{text[at]!r} does not begin a property: a property is an upper-case name and a "
            "value in brackets (PB[fangr]), and a game ends with ;)",
            **place(text, at),
        )
    opens = name.end()
    if not text.startswith("[", opens):
        raise RecordError(
            f"the property {name.group()} has no value: a value follows its name in brackets",
            **place(text, opens),
        )
    closes = text.find("]", opens + 1, opens + 2 + MAX_VALUE)
    if closes == -1:
        too_long = len(text) > opens + 1 + MAX_VALUE
        raise RecordError(
            f"the value of {name.group()} is longer than {MAX_VALUE} characters"
            if too_long
            else f"the value of {name.group()} is never closed with ]",
            **place(text, opens),
        )
    return name.group(), text[opens + 1 : closes], opens + 1, closes + 1


def _move(key: str, value: str, size: int, text: str, at: int, number: int) -> GgfMove:
    """The move ``key[value]`` (its value at ``text[at]``), the ``number``-th of its game."""
    parts = value.split("/")
    if len(parts) > 3:
        raise RecordError(
            "a move is a square, then at most an evaluation and a time, each after a /",
            move=number,
            **place(text, at),
        )
    written = parts[0]
    if written.lower() in _PASSES:
        square = PASS
    else:
        try:
            parse(written, size, size, from_bottom=False)
        except SquareError as error:
            raise RecordError(str(error), move=number, **place(text, at)) from None
        square = written.lower()
    numbers: list[str | None] = []
    offset = at + len(written) + 1
    for part in parts[1:]:
        if part and not _NUMBER.fullmatch(part):
            raise RecordError(
                f"{part!r} is not a number: a move's evaluation and time are decimal numbers",
                move=number,
                **place(text, offset),
            )
        numbers.append(part or None)
        offset += len(part) + 1
    numbers += [None] * (2 - len(numbers))
    color: Color = "B" if key == "B" else "W"
    return GgfMove(color, square, numbers[0], numbers[1])


def _board(value: str, text: str, at: int) -> tuple[int, tuple[str, ...], Color]:
    """BO's size, rows and colour to move."""
    found = _BOARD.fullmatch(value)
    if found is None:
        raise RecordError(
            "the board (BO) is its size, a space, its squares row by row from the top (* Black, "
            "O White, - empty) and the colour to move (* or O)",
            **place(text, at),
        )
    size = _board_size(int(found.group(1)), text, at)
    cells = found.group(2).translate(_NO_SPACE)
    if len(cells) != size * size + 1 or not set(cells) <= set("-*O") or cells[-1] == "-":
        raise RecordError(
            f"a board of size {size} is {size * size} squares, each *, O or -, and then the "
            "colour to move, * or O",
            **place(text, at),
        )
    rows = tuple(cells[row * size : (row + 1) * size].translate(_TO_ROWS) for row in range(size))
    return size, rows, "B" if cells[-1] == "*" else "W"


def _board_size(size: int, text: str, at: int) -> int:
    if size == OCTAGON:
        raise RecordError(
            "GGS's octagonal board (88) is not a rectangle: not refereed here", **place(text, at)
        )
    if not 1 <= size <= MAX_COLUMNS:
        raise RecordError(
            f"a board of size {size} has no square names: sizes go up to {MAX_COLUMNS}",
            **place(text, at),
        )
    return size


def _game_type(value: str, text: str, at: int) -> int:
    """TY's board size, once the type is one this service referees."""
    size: int | None = None
    index = 0
    while index < len(value):
        char = value[index].lower()
        digits = re.match("[0-9]{1,3}", value[index + (char == "r") :])
        if char.isdigit() and digits is not None:
            if size is not None:
                raise RecordError("the game type names two board sizes", **place(text, at))
            size = _board_size(int(digits.group()), text, at)
            index += digits.end()
        elif char == "r" and digits is not None:  # a random start: BO holds it
            index += 1 + digits.end()
        elif char in "sbw":  # synchro, or the colour the asking player wanted
            index += 1
        elif char == "k":
            raise RecordError(_KOMI, **place(text, at))
        elif char == "a":
            raise RecordError(
                "an anti game (the fewer discs win) is not refereed here", **place(text, at)
            )
        else:
            raise RecordError(
                f"{value[index]!r} is not a letter of an Othello game type (s, k, a, r<n>, b, "
                "w around the board size, as in s8r20)",
                **place(text, at),
            )
    if size is None:
        raise RecordError("the game type (TY) names no board size", **place(text, at))
    return size


def _result(value: str, text: str = "", at: int = 0) -> GgfResult | None:
    """RE's result; None for ``?`` (no result yet)."""
    if value == "?":
        return None
    found = _RESULT.fullmatch(value)
    if found is None:
        raise RecordError(
            "a result (RE) is Black's score in discs, such as +12.000 or -4, then :r, :t or :s "
            "if the game was resigned, lost on time or its score agreed",
            **place(text, at),
        )
    return GgfResult(float(found.group(1)), _ENDINGS[found.group(2) or ""])


# --- writing --------------------------------------------------------------------------------


def ggs_clock(initial_seconds: int, increment_seconds: int) -> str:
    """A Fischer clock as GGS writes a clock (``TI``): ``initial/increment/extension``, each
    a time ``[[HH:]MM:]SS`` (``05:00/00:05/00:00``: five minutes, five seconds a move, no
    extension: a fallen flag loses the game). GGS's page on clocks (https://www.skatgame.net/
    mburo/ggsa/clock) gives the form; every part is written, zeros too, so no reader has a
    default to guess."""
    if initial_seconds < 0 or increment_seconds < 0:
        raise ValueError("a clock's times are not negative")
    return f"{_clock_time(initial_seconds)}/{_clock_time(increment_seconds)}/00:00"


def _clock_time(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes:02}:{seconds:02}"


def _writable(text: str) -> str:
    # A lone surrogate (half a UTF-16 pair) is no Unicode text: a reader refuses it, so it is
    # written as U+FFFD.
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text.translate(_UNWRITABLE)[:MAX_VALUE]


def _checked_rows(size: int, rows: Sequence[str] | None) -> tuple[str, ...]:
    if not 1 <= size <= MAX_COLUMNS:
        raise ValueError(f"a GGF board is from 1 to {MAX_COLUMNS} squares wide, not {size}")
    if rows is None:
        if size % 2:
            raise ValueError(f"a board of odd size ({size}) has no standard start: give its rows")
        return _centre_start(size)
    checked = tuple(rows)
    if len(checked) != size or any(
        len(row) != size or not set(row) <= set(".BW") for row in checked
    ):
        raise ValueError(f"the start rows are not {size} rows of {size} cells of B, W and .")
    return checked


def _checked_moves(moves: Iterable[GgfMove], size: int) -> tuple[GgfMove, ...]:
    checked = []
    for number, move in enumerate(moves, 1):
        square = move.square
        if square != PASS:
            try:
                parse(square, size, size, from_bottom=False)
            except SquareError as error:
                raise ValueError(f"move {number}: {error}") from None
            square = square.lower()
        for text in (move.evaluation, move.seconds):
            if text is not None and not _NUMBER.fullmatch(text):
                raise ValueError(f"move {number}: {text!r} is not a decimal number")
        checked.append(GgfMove(move.color, square, move.evaluation, move.seconds))
    return tuple(checked)
