"""Community record formats by name: what a kind's ``Face.formats`` names, read and written.

Each format is a small codec of its own module (``ggf`` for Othello, ``psq`` and ``sgf`` for
gomoku and renju); this is the one table that maps a format's name to it, turning the codec's
game into what the audit replays (``Recorded``: the creation parameters as ``POST /v1/games``
takes them, and the moves) and a session's record into the format's text (``write_record``).

A format gives the parameters it carries; those it cannot carry (PSQ has no rule; neither PSQ
nor SGF says whether a renju foul loses or a dead position draws) an audit body may give beside
the record (``Format.given``). A parameter both give must agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.records import ggf, psq, sgf
from app.records.errors import RecordError
from app.rules.colors import Color
from app.rules.reversi import standard_start


@dataclass(frozen=True, slots=True)
class Recorded:
    """A game read from a record: its kind's creation parameters (as ``POST /v1/games`` takes
    them, without ``game``), its moves as squares, ``[row, col]`` pairs or ``"pass"``, and the
    player (1 or 2) the record wrote each for, where it names one (a GGF's ``B[…]`` /
    ``W[…]``)."""

    params: Mapping[str, object]
    moves: list[str | list[int]]
    players: list[int | None]
    # The parameters its format may say that this record does not (a PSQ or SGF record that
    # names no rule): the audit says what it took them to be.
    unsaid: frozenset[str] = frozenset()


PLAYER_OF = {"B": 1, "W": 2}
COLOR_OF: dict[int, Color] = {1: "B", 2: "W"}


def _read_ggf(text: str, max_moves: int) -> Recorded:
    game = ggf.read_ggf(text, max_moves)
    rows = game.start_rows
    standard = standard_start(game.height, game.width)
    if rows is None or (list(rows) == standard and game.to_move == "B"):
        params: dict[str, object] = {"height": game.height, "width": game.width}
    else:
        params = {"board": list(rows), "next": game.to_move}
    moves: list[str | list[int]] = [move.square for move in game.moves]
    return Recorded(params, moves, [PLAYER_OF[move.color] for move in game.moves])


def _write_ggf(record: Mapping[str, Any]) -> str:
    """A session's Othello record (``GET /v1/games/{id}/record``'s JSON) as GGS writes a game:
    its board, its moves with their colours (passes inferred are written ``PA``, as GGS does),
    and, once it is over, its result (Black's discs minus White's; all squares to the winner
    of a resignation ``:r`` or a flag fall ``:t``)."""
    height, width = record.get("height"), record.get("width")
    board = record.get("board")
    if board is not None:
        height, width = len(board), len(board[0])
    if not isinstance(height, int) or height != width:
        raise RecordError(f"GGF writes square boards: this one is {height} × {width}")
    state = record["state"]
    moves: list[ggf.GgfMove] = []
    for played, square in zip(record["records"], record["moves"], strict=True):
        color = COLOR_OF[played["player"]]
        spent = played.get("spent_ms")  # a clocked game's: the seconds its mover's clock ran
        moves.append(ggf.GgfMove(color, square, seconds=None if spent is None else _seconds(spent)))
        if played.get("passed"):  # the opponent had no move: GGS writes its pass
            moves.append(ggf.GgfMove("W" if color == "B" else "B", ggf.PASS))
    try:
        game = ggf.GgfGame.of(
            moves,
            size=height,
            start_rows=board,
            to_move=record.get("next", "B"),
            black=(record.get("names") or {}).get("1"),  # Othello: player 1 is Black
            white=(record.get("names") or {}).get("2"),
            result=_result(state),
            time_control=_time_control(record.get("clock")),
        )
    except ValueError as error:
        raise RecordError(f"this game cannot be written as GGF: {error}") from None
    return ggf.write_ggf(game)


# How GGF's ``RE`` says a game ended (a played-out one, or one at the move limit, says nothing).
GGF_ENDINGS: Mapping[str, ggf.Ending] = {"resignation": "r", "timeout": "t", "agreement": "s"}


def _result(state: Mapping[str, Any]) -> ggf.GgfResult | None:
    """``RE`` of a session's state: None while it goes on, and for an aborted game (it has no
    result: no ``final_score``); else Black's final score less White's, as the federation
    counts it (``final_score``: a played-out game's empty squares to the winner, every square to
    the winner of a resignation ``:r`` or a flag fall ``:t``, an agreed draw ``:s`` and the move
    limit split equally)."""
    final, reason = state["final_score"], state["reason"]
    if state["status"] == "in_progress" or final is None:  # going on, or aborted: no result
        return None
    return ggf.GgfResult(final["1"] - final["2"], GGF_ENDINGS.get(reason, ""))


def _time_control(clock: Mapping[str, Any] | None) -> str | None:
    """``TI`` of a clocked game (its state's ``clock``); None for an untimed one, and for a
    time control GGS's clocks cannot say (Bronstein, delay, stages)."""
    if clock is None or clock.get("mode", "fischer") != "fischer" or clock.get("stages"):
        return None
    return ggf.ggs_clock(clock["initial_seconds"], clock["increment_seconds"])


def _seconds(ms: int) -> str:
    """Milliseconds as GGF writes a move's time: seconds, to the hundredth (``4.09``)."""
    return f"{ms / 1000:.2f}"


# --- gomoku and renju: PSQ and SGF --------------------------------------------------------------

# The parameters of a gomoku game that PSQ and SGF records may leave to the audit body.
GOMOKU_GIVEN = frozenset({"rule", "foul", "early_draw"})


def _gomoku_recorded(
    size: int, rule: str | None, moves: list[str | list[int]], players: list[int | None]
) -> Recorded:
    """A gomoku record's game: its board's side, its rule where it says one (else the rule is
    what it left unsaid), and its moves."""
    if rule is None:
        return Recorded({"size": size}, moves, players, unsaid=frozenset({"rule"}))
    return Recorded({"size": size, "rule": rule}, moves, players)


def _read_psq(text: str, max_moves: int) -> Recorded:
    game = psq.read_psq(text, max_moves)
    moves: list[str | list[int]] = [[row, col] for row, col in game.stones]
    return _gomoku_recorded(game.size, game.rule, moves, [None] * len(moves))


def _read_sgf(text: str, max_moves: int) -> Recorded:
    game = sgf.read_sgf(text, max_moves)
    moves: list[str | list[int]] = [
        "pass" if move.point is None else list(move.point) for move in game.moves
    ]
    players: list[int | None] = [PLAYER_OF[move.color] for move in game.moves]
    return _gomoku_recorded(game.size, game.rule, moves, players)


def _seat_colors(state: Mapping[str, Any]) -> dict[int, str | None]:
    """Each seat's colour in a gomoku state (None for both before a swap2 choice fixes them)."""
    colors = state.get("colors") or {}
    return {seat: colors.get(str(seat)) for seat in (1, 2)}


def _players(record: Mapping[str, Any]) -> tuple[str, str]:
    """The two seats' names, Black's first (player 1 first while no colour is fixed): the
    names the record gives its seats, else ``player 1`` and ``player 2``."""
    first = _black_seat(record["state"])
    names = record.get("names") or {}
    black, white = (names.get(str(seat)) or f"player {seat}" for seat in (first, 3 - first))
    return black, white


def _black_seat(state: Mapping[str, Any]) -> int:
    """The seat written as Black: the one holding Black, or player 1 while no colour is fixed
    (a swap2 game that ended before its choice: its records name player 1 first)."""
    return 2 if _seat_colors(state)[2] == "B" else 1


def _winning_color(state: Mapping[str, Any]) -> str | None:
    """``B`` or ``W`` for a won game, as the records write its seats (``_black_seat``); None
    for a draw or a game that goes on."""
    if state["status"] != "won":
        return None
    return "B" if state["winner"] == _black_seat(state) else "W"


def _stones_and_passes(record: Mapping[str, Any]) -> list[tuple[str, tuple[int, int] | None]]:
    """A gomoku session's moves that put something on the record: each stone's colour and point
    (``(row, col)``), and each pass's colour with None. A swap2 choice is no stone: the stones
    alone say the game (colours alternate from Black whoever places them)."""
    written: list[tuple[str, tuple[int, int] | None]] = []
    for played in record["records"]:
        if "row" in played:
            written.append((played["color"], (played["row"], played["col"])))
        elif played.get("pass"):
            written.append((played["color"], None))
    return written


def _write_psq(record: Mapping[str, Any]) -> str:
    """A session's gomoku record as Gomocup's manager writes a game: the board, the stones
    (each stone's milliseconds: the time its mover's clock ran, in a clocked game; else 0), the
    two seats (Black's first), ``-1``
    and, once the game is over, the result (0 a draw, 1 Black won, 2 White) with the rule."""
    written = _stones_and_passes(record)
    if any(point is None for _, point in written):
        raise RecordError("PSQ has no pass, and this game has one: read its JSON or SGF record")
    state = record["state"]
    color = _winning_color(state)
    result = 0 if state["status"] == "draw" else None if color is None else "BW".index(color) + 1
    stones = tuple(point for _, point in written if point is not None)
    spent = tuple(played.get("spent_ms") for played in record["records"] if "row" in played)
    game = psq.PsqGame(record["size"], stones, spent, record["rule"], result, _players(record))
    try:
        return psq.write_psq(game)
    except ValueError as error:
        raise RecordError(f"this game cannot be written as PSQ: {error}") from None


# How SGF's ``RE`` says a game was won beyond a line: resigned, lost on time, forfeited (a
# renju foul that loses).
SGF_ENDINGS: Mapping[str, str] = {"resignation": "R", "timeout": "T", "foul": "F"}


def _write_sgf(record: Mapping[str, Any]) -> str:
    """A session's gomoku record as SGF FF[4] (``GM[4]``): the board, the rule, the seats by
    colour, the result once the game is over (``B+``, ``W+R``, ``0``…), a node a stone or pass."""
    state = record["state"]
    color = _winning_color(state)
    result = "0" if state["status"] == "draw" else None
    if color is not None:
        result = f"{color}+{SGF_ENDINGS.get(state['reason'], '')}"
    moves = tuple(
        sgf.SgfMove("B" if color == "B" else "W", point)
        for color, point in _stones_and_passes(record)
    )
    black, white = _players(record)
    try:
        return sgf.write_sgf(
            sgf.SgfGame(record["size"], record["rule"], moves, black, white, result)
        )
    except ValueError as error:
        raise RecordError(f"this game cannot be written as SGF: {error}") from None


@dataclass(frozen=True, slots=True)
class Format:
    """A community format: how a record in it is read, how a session's record is written, and
    the creation parameters an audit body may give beside a record in it (those the format
    cannot carry)."""

    read: Callable[[str, int], Recorded]
    write: Callable[[Mapping[str, Any]], str]
    doc: str  # what an audit body's `format` says of it
    given: frozenset[str] = frozenset()


FORMATS: Mapping[str, Format] = {
    "ggf": Format(
        _read_ggf, _write_ggf, "`ggf`, an Othello game as GGS writes it (it gives every parameter)."
    ),
    "psq": Format(
        _read_psq, _write_psq,
        "`psq`, a gomoku game as Gomocup's manager and Piskvork write it. It carries the board's "
        "size, not the rule: `rule` is the body's, else the division its tournament's name says "
        "(`1,Renju`), else freestyle (both given must agree); `foul` and `early_draw` may be "
        "given beside it.",
        GOMOKU_GIVEN,
    ),
    "sgf": Format(
        _read_sgf, _write_sgf,
        "`sgf`, a gomoku game as SGF FF[4] writes it (`GM[4]`): its `RU` is the rule where it "
        "says one; `rule` (the same, where `RU` says one), `foul` and `early_draw` may be "
        "given beside it.",
        GOMOKU_GIVEN,
    ),
}  # fmt: skip


def read_record(format: str, text: str, max_moves: int) -> Recorded:
    """The game of ``text`` in ``format`` (one of ``FORMATS``); RecordError where it breaks."""
    return FORMATS[format].read(text, max_moves)


def write_record(format: str, record: Mapping[str, Any]) -> str:
    """A session's record (the JSON record, with its move records as ``records``) in
    ``format``; RecordError for a game the format cannot hold."""
    return FORMATS[format].write(record)
