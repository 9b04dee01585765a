"""A rated game's pool: the games whose players are rated together (the contract's "Players and
ratings"). A pool is the game, its rule (where the kind has one), its board's size and ``k``
(where the kind has it), and its speed, joined by ``/``: ``reversi/8x8/blitz``,
``gomoku/renju/15x15/rapid``, ``tictactoe/3x3/k3/correspondence``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from app.sessions.clock import TimeControl
from app.sessions.kind import GameKind, board_size

Speed = Literal["bullet", "blitz", "rapid", "classical", "correspondence"]
# A clock's estimated length — its initial time plus 40 moves' increment or delay, in seconds —
# below each bound is that speed; from the last on, classical; no clock: correspondence.
SPEEDS: tuple[tuple[int, Speed], ...] = ((180, "bullet"), (480, "blitz"), (1500, "rapid"))
MOVES_ESTIMATED = 40


def speed(control: TimeControl | None) -> Speed:
    if control is None:
        return "correspondence"
    estimated = control.initial_seconds + MOVES_ESTIMATED * control.increment_seconds
    for below, named in SPEEDS:
        if estimated < below:
            return named
    return "classical"


def pool_of(
    kind: GameKind, params: Mapping[str, object], facts: Mapping[str, object],
    control: TimeControl | None,
) -> str:  # fmt: skip
    """The pool of a game of ``kind`` made with ``params`` (its state's ``facts`` give its board's
    size) and ``control``."""
    parts = [kind.name]
    rule = params.get("rule")
    if rule is not None:
        parts.append(str(rule))
    rows, cols = board_size(kind, facts)
    parts.append(f"{rows}x{cols}")
    k = params.get("k")
    if k is not None:
        parts.append(f"k{k}")
    parts.append(speed(control))
    return "/".join(parts)
