"""A gomoku move as a position keeps it and as a store keeps it: a row of the position's move
array (row, col, player, colour; a pass's row and col are ``PASS``, a choice's row ``CHOICE``),
and its text (``encode_move``, read back by ``decode_move``)."""

from __future__ import annotations

from app.kinds.gomoku.swap2 import PLACE_TWO, Swap2Choice, opening_facts, step_of
from app.rules.colors import Color
from app.sessions.kind import Move, Pass, Placement, Played, Player

COLORS: tuple[Color, Color] = ("B", "W")  # a colour's code in the move array is its index
PASS = -1  # the row and col of a pass in the move array
CHOICE = -2  # the row of a choice in the move array (its col: 0 a colour, 1 place_two)


def encode_move(move: Move) -> str:
    """``row:col:player:colour``, ``pass:player:colour`` or ``choice:option:player:colour``
    (``-``: none), e.g. ``7:7:1:B``; a move of a swap2 opening adds the step it left and
    the seats' colours (``;choose;`` after the third stone, ``;;WB`` after player 1 chose
    White)."""
    color = (move.facts or {}).get("color", "-")
    text = f"{move.played.text()}:{move.player}:{color}"
    opened = move.state_facts
    if opened is None:
        return text
    opening, colors = opened["opening"], opened["colors"]
    step = opening["step"] if isinstance(opening, dict) else ""
    seats = "".join(colors.values()) if isinstance(colors, dict) and colors["1"] else ""
    return f"{text};{step};{seats}"


def decode_move(seq: int, text: str) -> Move:
    text, _, opened = text.partition(";")
    *played_text, player, color = text.split(":")
    played: Played
    if played_text == ["pass"]:
        played = Pass()
    elif played_text[0] == "choice":
        option = played_text[1]
        played = Swap2Choice("B" if option == "B" else "W" if option == "W" else PLACE_TWO)
    else:
        played = Placement(int(played_text[0]), int(played_text[1]))
    mover: Player = 1 if player == "1" else 2
    facts = {} if color == "-" else {"color": "B" if color == "B" else "W"}
    state_facts = None
    if opened:
        step, _, seats = opened.partition(";")
        colors = None if not seats else (color_of(seats[0]), color_of(seats[1]))
        state_facts = opening_facts(step_of(step), colors)
    return Move(seq, played, mover, facts, state_facts)


def color_of(text: str) -> Color:
    return "B" if text == "B" else "W"


def array_row(move: Move) -> tuple[int, int, int, int]:
    """A move's row of the move array (``Gomoku.played``)."""
    played, color = move.played, (move.facts or {}).get("color", "B")
    code = COLORS.index("B" if color == "B" else "W")
    if isinstance(played, Placement):
        return played.row, played.col, move.player, code
    if isinstance(played, Swap2Choice):
        return CHOICE, int(played.option == PLACE_TWO), move.player, code
    return PASS, PASS, move.player, code
