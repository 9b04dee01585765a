"""A tournament as FIDE's Tournament Report File, TRF-16 (FIDE Handbook C.04.A, Annex 2 "TRF16"):
the text rating and pairing programs read.

**Lines.** ``012`` the tournament's name; ``062`` the number of players; ``092`` the type of
tournament; then one ``001`` line per entrant, in number order; then the two lines pairing
programs and checkers read beside TRF-16 (FIDE's endorsed programs' ``XX`` extension, as
JaVaFo and bbpPairings define it): ``XXR`` the number of rounds, ``XXC white1`` (the top seed
had White, i.e. seat 1, in round 1: the initial colour of ``app.league.swiss``).

**A 001 line** in TRF-16's fixed columns (1-based, inclusive): ``001`` in 1-3; the start number
(the entrant's number) in 5-8; the name in 15-47 (cut at 33 characters); the rating in 49-52
(blank: the service's ratings are not FIDE's); the points in 81-84 (``3.5``); the rank in the
standings in 86-89; then, from column 92, ten columns a round: the opponent's start number in
92-95 (``0000`` for none), the colour in 97 (``w`` seat 1, ``b`` seat 2, ``-`` no game) and the
result in 99: ``1`` won, ``=`` drawn, ``0`` lost, blank while the game is unfinished; ``U`` a
pairing-allocated bye (the Swiss's, or the round robin's when the count is odd), ``F`` a
full-point bye (a round robin's for an opponent who withdrew), ``Z`` no game after one's own
withdrawal. Rounds not yet paired are left off the line.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.league.berger import berger_round, cycle_rounds, table_size
from app.league.events import Entrant, Pairing, rounds_played
from app.league.standings import System, standings

SYSTEM_TITLES: dict[System, str] = {
    "swiss": "Swiss system (FIDE Dutch, C.04.3)",
    "round_robin": "Round robin (Berger tables, C.05 Annex 1)",
    "double_round_robin": "Double round robin (Berger tables, C.05 Annex 1)",
}
NAME_WIDTH = 33
# 0-based offsets of a 001 line's fields (TRF-16's 1-based columns less one).
POINTS_AT, RANK_AT, ROUNDS_AT, ROUND_WIDTH = 80, 85, 91, 10
SCORE_CODES = {1.0: "1", 0.5: "=", 0.0: "0"}


def trf16(
    name: str,
    entrants: Sequence[Entrant],
    played: Sequence[Pairing],
    system: System,
    rounds: int,
    *,
    reversi: bool = False,
) -> str:
    """The TRF-16 report of a tournament of ``system`` with ``rounds`` rounds: its ``entrants``,
    the pairings ``played`` so far and the standings they make (ranked as ``standings`` ranks
    them, with the event's tie-breaks: ``reversi`` adds Reversi's)."""
    ranks = {row.number: row for row in standings(entrants, played, system, reversi=reversi)}
    last = rounds_played(played)
    seats: dict[tuple[int, int], Pairing] = {}
    for pairing in played:
        seats[pairing.round, pairing.seat1] = pairing
        if pairing.seat2 is not None:
            seats[pairing.round, pairing.seat2] = pairing
    lines = [
        f"012 {one_line(name)}",
        f"062 {len(entrants)}",
        f"092 {SYSTEM_TITLES[system]}",
    ]
    for entrant in entrants:
        row = ranks[entrant.number]
        head = [" "] * ROUNDS_AT
        put(head, 0, "001")
        put(head, 4, f"{entrant.number:>4}")
        put(head, 14, one_line(entrant.name)[:NAME_WIDTH])
        put(head, POINTS_AT, f"{row.points:>4.1f}")
        put(head, RANK_AT, f"{row.rank:>4}")
        blocks = [
            round_block(seats.get((r, entrant.number)), entrant.number, system, len(entrants))
            for r in range(1, last + 1)
        ]
        lines.append(("".join(head) + "".join(blocks)).rstrip())
    lines += [f"XXR {rounds}", "XXC white1"]
    return "\n".join(lines) + "\n"


def round_block(pairing: Pairing | None, number: int, system: System, count: int) -> str:
    """One round's ten columns of entrant ``number``'s 001 line."""
    if pairing is None:
        block = "0000 - Z"
    elif pairing.seat2 is None:
        block = "0000 - " + ("U" if allocated_bye(pairing, system, count) else "F")
    else:
        first = pairing.seat1 == number
        opponent = pairing.seat2 if first else pairing.seat1
        result = " " if pairing.result is None else SCORE_CODES[pairing.points()[0 if first else 1]]
        block = f"{opponent:>4} {'w' if first else 'b'} {result}"
    return block.ljust(ROUND_WIDTH)


def allocated_bye(pairing: Pairing, system: System, count: int) -> bool:
    """Whether a bye is the pairing's own (the Swiss's, or the round robin's extra number)
    rather than a round robin's for an opponent who withdrew."""
    if system == "swiss":
        return True
    if count % 2 == 0:
        return False
    n = table_size(count)
    in_cycle = (pairing.round - 1) % cycle_rounds(count) + 1
    return any(pairing.seat1 in board and n in board for board in berger_round(n, in_cycle))


def put(line: list[str], at: int, text: str) -> None:
    line[at : at + len(text)] = list(text)


def one_line(text: str) -> str:
    """A name as one line of TRF: no line breaks or tabs, which would break the columns."""
    return " ".join(text.split())
