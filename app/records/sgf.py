"""SGF (the Smart Game Format, FF[4]) for gomoku and renju (``GM[4]``): one game read from a
record, and one game written back.

A record is a collection of game trees; a tree is ``(``, a sequence of nodes (``;`` and its
properties), then its variations (trees), then ``)``. A property is an upper-case name and one or
more values in brackets, where ``\\`` escapes the next character (``C[a \\] b]``) and an escaped
line break is no character at all. A gomoku game is::

    (;FF[4]GM[4]SZ[15]RU[Renju]PB[Kasumi]PW[Ren]RE[B+]
    ;B[hh];W[ih];B[ii];W[gg] … )

``SZ`` the board's side; ``B[…]`` and ``W[…]`` a stone, its point written as two letters, the
column then the row, each ``a``–``z`` then ``A``–``Z`` (0 to 51), counted from the **top-left**
corner (``hh`` is the centre of 15 × 15); an empty value is a pass. ``RE`` the result: ``B+``,
``W+`` (with ``R`` resignation, ``T`` time, ``F`` forfeit after the sign), ``0`` or ``Draw``.

Sources: the SGF FF[4] specification (https://www.red-bean.com/sgf/: the grammar, ``GM[4]``
gomoku + renju, the point's letters, ``RE``'s values, ``B[]`` a pass in FF[4] and ``tt`` in
FF[3] on boards up to 19); c-gomoku-cli's writer (github.com/dhbloo/c-gomoku-cli, ``Game::
export_sgf``: ``(;FF[4]GM[4]``, ``RU`` as the Gomocup protocol's ``INFO rule`` number, ``SZ``,
``RE[B+1]``, one node a move) and other gomoku programs that write ``RU[Renju]``. Read for the
format only; nothing is copied.

What this reader decides, where the format or its writers leave it open:

* **One game, its main line.** A record holds exactly one game (a second tree is refused: a game
  silently dropped would be a false audit); where a tree branches, the first variation is the
  game, as every SGF reader shows it, and the others are left unread. The grammar is held
  everywhere: a tree begins with a node, and a node after a tree's variations is refused (a
  reader that dropped it would audit a shorter game than the one written).
* **The root** must say ``GM[4]`` (SGF's default game is Go) and ``SZ`` (a square board: ``SZ[15]``
  or ``SZ[15:15]``, at most ``MAX_SIDE``, the boards two letters can name); ``FF`` is 4, or 3 or
  less as older writers write it (none: FF[1], the format's default). These and ``RU`` hold one
  value each and stand in the first node only (elsewhere refused: a rule read past would audit
  the game under another). ``RU`` is read as a rule
  where it names one: Gomocup's numbers (``0`` freestyle, ``1`` standard, ``4`` renju, ``8`` caro)
  or the rules' names in any case (``Renju``; ``Gomoku`` and ``Freestyle`` are freestyle); any
  other ``RU`` is refused, as a rule the service does not play.
* **Moves** alternate as their colours say: the colours are returned as written, and whether each
  was written for the colour to move is the audit's to say, by the move's index. A node holds at
  most one of ``B`` and ``W``. Setup (``AB``, ``AW``, ``AE``) is refused: a position set up is no
  game played.
* Everything else (players, dates, comments, marks) is read past. Names are upper-case letters
  (``MAX_NAME`` at most), a node's properties at most ``MAX_PROPERTIES``, a value at most
  ``MAX_VALUE`` characters (read in linear time, escapes and all); a record's nodes are at most
  ``max_moves`` + ``MAX_EXTRA_NODES`` on the main line and its size is the body's.

Every refusal is a RecordError naming the line and column, with the move's index for a move.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.records.errors import RecordError
from app.records.text import decode, place
from app.rules.colors import Color
from app.rules.gomoku import GOMOCUP_NUMBERS, RULE_NAMES, Rule

MAX_NAME = 8  # letters in a property's name
MAX_PROPERTIES = 64  # properties in one node
MAX_EXTRA_NODES = 64  # nodes without a move on the main line, beyond the moves
MAX_SIDE = 52  # the largest board two SGF letters can name
MAX_VALUE = 65_536  # characters in one property's value (a comment's, at most)
APPLICATION = "adjudicator"

_SPACE = re.compile(r"[ \t\r\n\f\v]*")
_VALUE_END = re.compile(r"[\\\]]")  # where a value's text stops: an escape or its end
_NAME = re.compile(f"[A-Z]{{1,{MAX_NAME}}}")
_SIZE = re.compile("([0-9]{1,2})(?::([0-9]{1,2}))?")
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_COORD = {letter: index for index, letter in enumerate(_LETTERS)}

# ``RU`` as a rule: Gomocup's ``INFO rule`` numbers and the rules' names (any case; "Gomoku" is
# freestyle); the writer writes the names.
RULES: dict[str, Rule] = {
    **{str(number): rule for rule, number in GOMOCUP_NUMBERS.items()},
    **{name.lower(): rule for rule, name in RULE_NAMES.items()},
    "gomoku": "freestyle",
}
_SETUP = frozenset({"AB", "AW", "AE"})
_ROOT = frozenset({"GM", "FF", "SZ", "RU"})  # read from the first node only, one value each


@dataclass(frozen=True, slots=True)
class SgfMove:
    """One ``B[…]`` or ``W[…]``: its colour, and its point as ``(row, col)`` (row 0 the top row),
    or None for a pass."""

    color: Color
    point: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class SgfGame:
    """One game: its board's side, the rule its ``RU`` names (None without one), its moves on
    the main line, and, for a writer, its players and result (``RE``'s value)."""

    size: int
    rule: Rule | None
    moves: tuple[SgfMove, ...]
    black: str | None = None
    white: str | None = None
    result: str | None = None


def read_sgf(data: str | bytes, max_moves: int) -> SgfGame:
    """The one gomoku game of the SGF record ``data``; RecordError, with ``line`` and ``column``,
    where it is not one (``move`` too for a move that is no point of the board, or one more than
    ``max_moves``)."""
    text = decode(data)
    at = _skip(text, 0)
    if not text.startswith("(", at):
        raise RecordError(
            "an SGF record begins with ( and a node: (;GM[4]SZ[15]…", **place(text, at)
        )
    reading = _Reading(text, max_moves)
    end = reading.tree(at)
    after = _skip(text, end)
    if after < len(text):
        why = (
            "a record holds one game: this one holds another after it"
            if text.startswith("(", after)
            else "nothing may follow the game"
        )
        raise RecordError(why, **place(text, after))
    return reading.game()


class _Reading:
    """The state of one game's reading: its root's properties and its main line's moves."""

    def __init__(self, text: str, max_moves: int) -> None:
        self.text = text
        self.max_moves = max_moves
        self.root: dict[str, tuple[str, int]] = {}
        self.moves: list[tuple[Color, str, int]] = []  # colour, value, where the value is
        self.nodes = 0

    def tree(self, at: int) -> int:
        """Reads the tree opening at ``text[at]`` (a ``(``): the main line's nodes are kept,
        its other variations are passed over. Returns where the tree ends, after its ``)``.
        Iterative: a tree nested a million deep costs a counter, not a stack."""
        text = self.text
        depth = 0  # trees open, on the main line or in a variation passed over
        main = True  # still on the main line
        closed = False  # a tree just closed: only another variation or the parent's ) follows
        while True:
            at = _skip(text, at)
            if at >= len(text):
                raise RecordError(
                    "the record ends inside a game: a ) is missing", **place(text, at)
                )
            char = text[at]
            if char == "(":
                depth += 1
                at = _skip(text, at + 1)
                if not text.startswith(";", at):
                    raise RecordError("a game tree begins with a node (;)", **place(text, at))
                closed = False
            elif char == ")":
                depth -= 1
                at += 1
                main = False  # the main line ended: what follows is its other variations
                closed = True
                if depth == 0:
                    return at
            elif char == ";":
                if closed:
                    raise RecordError(
                        "a node after a variation: a tree's nodes come before its variations",
                        **place(text, at),
                    )
                at = self.node(at + 1) if main else _pass_node(text, at + 1)
            else:
                raise RecordError(
                    f"{char!r} is not part of a game tree: nodes (;) and trees ( )",
                    **place(text, at),
                )

    def node(self, at: int) -> int:
        """Reads a node of the main line after its ``;``; returns where it ends."""
        text = self.text
        self.nodes += 1
        if self.nodes > self.max_moves + MAX_EXTRA_NODES:
            raise RecordError(
                f"a record has at most {self.max_moves} moves and {MAX_EXTRA_NODES} nodes "
                "without one on its main line",
                **place(text, at),
            )
        seen: set[str] = set()
        while True:
            at = _skip(text, at)
            name = _NAME.match(text, at)
            if name is None:
                if at < len(text) and text[at].isalpha():
                    raise RecordError(
                        "a property's name is upper-case letters (FF[4], not ff[4])",
                        **place(text, at),
                    )
                return at
            key, name_at = name.group(), at
            if key in seen:
                raise RecordError(f"{key} appears twice in one node", **place(text, name_at))
            seen.add(key)
            if len(seen) > MAX_PROPERTIES:
                raise RecordError(
                    f"a node has at most {MAX_PROPERTIES} properties", **place(text, name_at)
                )
            values, at = _values(text, name.end())
            if key in _SETUP:
                raise RecordError(
                    f"{key} sets up a position: a record audited is a game played from an empty "
                    "board, a stone a move",
                    **place(text, name_at),
                )
            if key in ("B", "W"):
                if "B" in seen and "W" in seen:
                    raise RecordError("a node holds one move: B or W", **place(text, name_at))
                if len(values) != 1:
                    raise RecordError(f"{key} holds one point", **place(text, name_at))
                if len(self.moves) == self.max_moves:
                    raise RecordError(
                        f"a record has at most {self.max_moves} moves",
                        move=self.max_moves + 1, **place(text, name_at),
                    )  # fmt: skip
                value, value_at = values[0]
                self.moves.append(("B" if key == "B" else "W", value, value_at))
            elif key in _ROOT:
                if self.nodes != 1:
                    raise RecordError(
                        f"{key} belongs to the game's first node", **place(text, name_at)
                    )
                if len(values) != 1:
                    raise RecordError(f"{key} holds one value", **place(text, name_at))
                self.root[key] = values[0]
            elif self.nodes == 1:
                self.root[key] = values[0]

    def game(self) -> SgfGame:
        text, root = self.text, self.root
        game, game_at = root.get("GM", ("", 0))
        if game.strip() != "4":
            raise RecordError(
                "an SGF gomoku game says GM[4] in its first node"
                + ("" if "GM" not in root else f", not GM[{game[:20]}]"),
                **place(text, game_at),
            )
        version, version_at = root.get("FF", ("1", 0))  # SGF's default: FF[1]
        if version.strip() not in ("1", "2", "3", "4"):
            raise RecordError(
                f"FF[{version[:20]}] is no SGF version (1 to 4)", **place(text, version_at)
            )
        if "SZ" not in root:
            raise RecordError("an SGF gomoku game says its board's side: SZ[15]", **place(text, 0))
        size = _size(*root["SZ"], text)
        rule: Rule | None = None
        if "RU" in root:
            written, rule_at = root["RU"]
            rule = RULES.get(written.strip().lower())
            if rule is None:
                raise RecordError(
                    f"RU[{written[:20]}] is no rule this service plays: freestyle (0), standard "
                    "(1), renju (4) or caro (8)",
                    **place(text, rule_at),
                )
        old = version.strip() != "4" and size <= 19  # FF[3] and before write a pass as tt
        moves = []
        for number, (color, value, value_at) in enumerate(self.moves, 1):
            moves.append(SgfMove(color, _point(value, size, old, text, value_at, number)))
        black, white = root.get("PB"), root.get("PW")
        return SgfGame(
            size,
            rule,
            tuple(moves),
            None if black is None else black[0],
            None if white is None else white[0],
            root.get("RE", (None, 0))[0],
        )


def _skip(text: str, at: int) -> int:
    spaces = _SPACE.match(text, at)
    assert spaces is not None  # the pattern matches the empty string
    return spaces.end()


def _values(text: str, at: int) -> tuple[list[tuple[str, int]], int]:
    """A property's values (each unescaped, with where it begins) from ``text[at]``, which must
    open one; and where they end."""
    values: list[tuple[str, int]] = []
    while True:
        at = _skip(text, at)
        if not text.startswith("[", at):
            if not values:
                raise RecordError("a property has a value in brackets: B[hh]", **place(text, at))
            return values, at
        value, end = _value(text, at + 1)
        values.append((value, at + 1))
        at = end


def _value(text: str, at: int) -> tuple[str, int]:
    """The value from ``text[at]`` to its closing ``]``, unescaped; and where it ends. Linear:
    each escape and the end are found once, scanning on (at most ``MAX_VALUE`` characters)."""
    parts: list[str] = []
    start = at
    while True:
        stop = _VALUE_END.search(text, at)
        if stop is None:
            raise RecordError("a value is not closed: a ] is missing", **place(text, start - 1))
        where = stop.start()
        if where - start > MAX_VALUE:
            raise RecordError(
                f"a value has at most {MAX_VALUE:,} characters", **place(text, start - 1)
            )
        parts.append(text[at:where])
        if text[where] == "]":
            return "".join(parts), where + 1
        escaped = text[where + 1 : where + 2]
        if escaped == "\r" and text.startswith("\n", where + 2):
            at = where + 3  # an escaped \r\n: a soft line break, no character
        elif escaped in ("\n", "\r"):
            at = where + 2
        else:
            parts.append(escaped)
            at = where + 2


def _pass_node(text: str, at: int) -> int:
    """Passes over a node of a variation that is not the game's, after its ``;``."""
    while True:
        at = _skip(text, at)
        name = _NAME.match(text, at)
        if name is None:
            return at
        _, at = _values(text, name.end())


def _size(value: str, at: int, text: str) -> int:
    found = _SIZE.fullmatch(value.strip())
    if found is None:
        raise RecordError(f"SZ[{value[:20]}] is no board size: SZ[15]", **place(text, at))
    width = int(found.group(1))
    height = width if found.group(2) is None else int(found.group(2))
    if width != height:
        raise RecordError(f"a gomoku board is square, not {width} × {height}", **place(text, at))
    if not 1 <= width <= MAX_SIDE:
        raise RecordError(f"SGF names the points of boards 1 to {MAX_SIDE} wide", **place(text, at))
    return width


def _point(
    value: str, size: int, old: bool, text: str, at: int, number: int
) -> tuple[int, int] | None:
    if value == "" or (old and value == "tt"):
        return None
    if len(value) != 2 or value[0] not in _COORD or value[1] not in _COORD:
        raise RecordError(
            f"[{value[:20]}] is no point: a point is two letters, the column then the row (hh)",
            move=number,
            **place(text, at),
        )
    col, row = _COORD[value[0]], _COORD[value[1]]
    if not (row < size and col < size):
        raise RecordError(
            f"[{value}] is not a point of a {size} × {size} board", move=number, **place(text, at)
        )
    return row, col


def write_sgf(game: SgfGame) -> str:
    """``game`` as SGF FF[4]: the root (``FF``, ``GM``, ``CA``, ``AP``, ``SZ``, ``RU`` by the
    rule's name, ``PB``, ``PW``, ``RE`` where known), then a node a move. Free text is escaped
    (``]`` and ``\\``). ValueError for a point off the board or a board SGF cannot name."""
    if not 1 <= game.size <= MAX_SIDE:
        raise ValueError(f"SGF names the points of boards 1 to {MAX_SIDE} wide")
    root = ["FF[4]", "GM[4]", "CA[UTF-8]", f"AP[{APPLICATION}]", f"SZ[{game.size}]"]
    if game.rule is not None:
        root.append(f"RU[{RULE_NAMES[game.rule]}]")
    for key, text in (("PB", game.black), ("PW", game.white), ("RE", game.result)):
        if text is not None:
            root.append(f"{key}[{_escaped(text)}]")
    return "(;" + "".join(root) + "\n" + "".join(_nodes(game.moves, game.size)) + ")\n"


def _nodes(moves: Iterable[SgfMove], size: int) -> Iterable[str]:
    for number, move in enumerate(moves, 1):
        point = ""
        if move.point is not None:
            row, col = move.point
            if not (0 <= row < size and 0 <= col < size):
                raise ValueError(f"({row}, {col}) is not a point of a {size} × {size} board")
            point = _LETTERS[col] + _LETTERS[row]
        yield f";{move.color}[{point}]" + ("\n" if number % 10 == 0 else "")


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")
