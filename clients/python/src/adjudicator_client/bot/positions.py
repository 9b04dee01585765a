"""What an engine is told, read from the service's answers: a game's state and its move records
(``GET /v1/games/{id}``, ``GET /v1/games/{id}/moves``) as a Gomocup position and its time
limits, or as the moves an NBoard engine is told; which seat and colour the bot's player holds;
and what each protocol plays (``PROTOCOL_GAMES``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from adjudicator_client.bot.gomocup import RULE_BITS, UNLIMITED_MS, Limits, Position, Stone
from adjudicator_client.bot.nboard import Played

Protocol = Literal["gomocup", "nboard"]
# The kinds of game each protocol's engines play: Gomocup's brains five (or k) in a row on a
# board of stones, NBoard's engines Othello.
PROTOCOL_GAMES: Mapping[Protocol, frozenset[str]] = {
    "gomocup": frozenset({"gomoku", "tictactoe"}),
    "nboard": frozenset({"reversi"}),
}
# Of the time left on its clock, what an engine is not told: the time its answer takes to reach
# the service. A twentieth, at most a second.
MARGIN_SHARE, MARGIN_MS = 20, 1000

State = Mapping[str, Any]
Record = Mapping[str, Any]


def seat_of(state: State, player_id: str) -> int | None:
    """The seat (1 or 2) the player holds in the game, if any."""
    players = state.get("players") or {}
    for seat in (1, 2):
        if players.get(str(seat)) == player_id:
            return seat
    return None


def color_of(state: State, seat: int) -> str | None:
    """The colour of the seat's stones: a gomoku game's (None while a swap2 opening has not
    fixed it); Black (``B``) for seat 1 of the others, who moves first, White (``W``) for 2."""
    if state.get("game") == "gomoku":
        color = (state.get("colors") or {}).get(str(seat))
        return color if isinstance(color, str) else None
    return "B" if seat == 1 else "W"


def mark_of(state: State, seat: int) -> str:
    """What the seat plays with, as the game's players say it: a colour, or tic-tac-toe's X/O."""
    if state.get("game") == "tictactoe":
        return "X" if seat == 1 else "O"
    return color_of(state, seat) or "?"


def stones(moves: Sequence[Record]) -> list[tuple[int, int, str]]:
    """The stones of the move records, in order: (column, row, colour); a record that places
    no stone (a swap2 choice, a pass) is left out. A tic-tac-toe record's colour is its
    player's."""
    placed = []
    for move in moves:
        if "row" in move and "col" in move:
            color = move.get("color") or ("B" if move.get("player") == 1 else "W")
            placed.append((int(move["col"]), int(move["row"]), str(color)))
    return placed


def gomocup_position(state: State, moves: Sequence[Record], seat: int) -> Position:
    """The game as a Gomocup brain sees it from the seat: its stones own (1) or the opponent's
    (2) by colour."""
    mine = color_of(state, seat)
    side = int(state["size"] if state.get("game") == "gomoku" else state["n"])
    rule = RULE_BITS.get(str(state.get("rule")), 0)
    placed = tuple(Stone(x, y, mine=color == mine) for x, y, color in stones(moves))
    return Position(side, side, rule, placed)


def limits(state: State, seat: int, turn_seconds: float, now: datetime | None = None) -> Limits:
    """The time a Gomocup brain is given: without a clock, ``turn_seconds`` a move and no limit
    to the game; with one, what is left on the seat's clock (counted down to its ``deadline``
    while it runs, less the margin) for the move and the game — at most what the protocol's
    32-bit milliseconds hold."""
    clock = state.get("clock")
    if not clock:
        return Limits(turn=int(turn_seconds * 1000))
    left = int(clock["remaining_ms"][str(seat)])
    deadline = clock.get("deadline")
    if clock.get("running") == seat and deadline:
        now = now or datetime.now(UTC)
        until = datetime.fromisoformat(str(deadline).replace("Z", "+00:00")) - now
        left = min(left, int(until.total_seconds() * 1000))
    left = min(UNLIMITED_MS, max(0, left - min(MARGIN_MS, left // MARGIN_SHARE)))
    return Limits(turn=left, match=int(clock["initial_seconds"]) * 1000, left=left)


def answer_seconds(the_limits: Limits, turn_seconds: float) -> float:
    """How long the bot waits for an engine's move before it takes the engine for hung: what
    it was given and as much again, and 5 s more (a clocked game's flag falls first)."""
    given = the_limits.left if the_limits.match else the_limits.turn
    if not the_limits.match and given == UNLIMITED_MS:
        given = int(turn_seconds * 1000)
    return 2 * given / 1000 + 5


def nboard_moves(moves: Sequence[Record]) -> list[Played]:
    """The move records as an NBoard engine is told them: square, seconds spent, pass after."""
    return [
        Played(
            str(move["square"]),
            None if move.get("spent_ms") is None else int(move["spent_ms"]) / 1000,
            bool(move.get("passed")),
        )
        for move in moves
    ]


def outcome_word(state: State, seat: int) -> str:
    """How the game ended for the seat: won, lost, drawn, aborted (or in progress)."""
    status = state.get("status")
    if status == "won":
        return "won" if state.get("winner") == seat else "lost"
    if status == "draw":
        return "drawn"
    return str(status)
