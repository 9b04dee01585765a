"""Community record formats by name: what a kind's ``Face.formats`` names, read and written.

Each format is a small codec of its own module (``ggf``); this is the one table that maps a
format's name to it, turning the codec's game into what the audit replays (``Recorded``: the
creation parameters as ``POST /v1/games`` takes them, and the moves) and a session's record
into the format's text (``write_record``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.records import ggf
from app.records.errors import RecordError
from app.sessions.kinds.reversi import standard_start


@dataclass(frozen=True, slots=True)
class Recorded:
    """A game read from a record: its kind's creation parameters (as ``POST /v1/games`` takes
    them, without ``game``), its moves as squares or ``"pass"``, and the player (1 or 2) the
    record wrote each for, where it names one (a GGF's ``B[…]`` / ``W[…]``)."""

    params: Mapping[str, object]
    moves: list[str]
    players: list[int | None]


PLAYER_OF = {"B": 1, "W": 2}
COLOR_OF: dict[int, ggf.Color] = {1: "B", 2: "W"}


def _read_ggf(text: str, max_moves: int) -> Recorded:
    game = ggf.read_ggf(text, max_moves)
    rows = game.start_rows
    standard = standard_start(game.height, game.width)
    if rows is None or (list(rows) == standard and game.to_move == "B"):
        params: dict[str, object] = {"height": game.height, "width": game.width}
    else:
        params = {"board": list(rows), "next": game.to_move}
    moves = [move.square for move in game.moves]
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
        moves.append(ggf.GgfMove(color, square))
        if played.get("passed"):  # the opponent had no move: GGS writes its pass
            moves.append(ggf.GgfMove("W" if color == "B" else "B", ggf.PASS))
    try:
        game = ggf.GgfGame.of(
            moves,
            size=height,
            start_rows=board,
            to_move=record.get("next", "B"),
            result=_result(state),
            time_control=_time_control(record.get("clock")),
        )
    except ValueError as error:
        raise RecordError(f"this game cannot be written as GGF: {error}") from None
    return ggf.write_ggf(game)


# How GGF's ``RE`` says a game ended (a played-out one, or one at the move limit, says nothing).
GGF_ENDINGS: Mapping[str, ggf.Ending] = {"resignation": "r", "timeout": "t", "agreement": "s"}


def _result(state: Mapping[str, Any]) -> ggf.GgfResult | None:
    """``RE`` of a session's state: None while it goes on; else Black's final score less
    White's, as the federation counts it (``final_score``: a played-out game's empty squares
    to the winner, every square to the winner of a resignation ``:r`` or a flag fall ``:t``,
    an agreed draw ``:s`` and the move limit split equally)."""
    if state["status"] == "in_progress":
        return None
    final, reason = state["final_score"], state["reason"]
    return ggf.GgfResult(final["1"] - final["2"], GGF_ENDINGS.get(reason, ""))


def _time_control(clock: Mapping[str, int] | None) -> str | None:
    """``TI`` of a clocked game (its creation's ``clock``); None for an untimed one."""
    if clock is None:
        return None
    return ggf.ggs_clock(clock["initial_seconds"], clock["increment_seconds"])


@dataclass(frozen=True, slots=True)
class Format:
    """A community format: how a record in it is read, and how a session's record is written."""

    read: Callable[[str, int], Recorded]
    write: Callable[[Mapping[str, Any]], str]


FORMATS: Mapping[str, Format] = {"ggf": Format(_read_ggf, _write_ggf)}


def read_record(format: str, text: str, max_moves: int) -> Recorded:
    """The game of ``text`` in ``format`` (one of ``FORMATS``); RecordError where it breaks."""
    return FORMATS[format].read(text, max_moves)


def write_record(format: str, record: Mapping[str, Any]) -> str:
    """A session's record (the JSON record, with its move records as ``records``) in
    ``format``; RecordError for a game the format cannot hold."""
    return FORMATS[format].write(record)
