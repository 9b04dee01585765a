"""Round robins by FIDE's Berger tables (Handbook C.05, Annex 1): who meets whom in each round,
on which board and with which colour.

**The tables.** For an even n the handbook publishes n − 1 rounds; an odd count uses the tables
of n + 1, the extra number standing for the bye. The published tables (3 to 16 players) follow
one rule, which this module computes for any n, and ``tests/league/test_berger.py`` checks
against the tables' text: in round r the numbers 1 to n − 1 meet in pairs whose sum is r + 1
modulo n − 1, the one number that would meet itself (the *anchor*, 2a ≡ r + 1) meets n instead.
That game is board 1, n playing Black in odd rounds and White in even ones; the other boards
follow it outward from the anchor, a + i (White) against a − i (Black) for i = 1, 2, …, counted
round the circle 1 … n − 1. Round 1 of eight players is thus 1-8, 2-7, 3-6, 4-5; round 2 8-5,
6-4, 7-3, 1-2.

**A double round robin** plays the same cycle again with the seats swapped: round n − 1 + r is
round r with each game's colours reversed. (The handbook recommends swapping the first cycle's
last two rounds to spare some players three games running with the same colour; the contract
asks for the same cycle again, and this follows the contract.)

**Boards.** The games of a round keep the tables' order, numbered from board 1; the round's
byes follow them, numbered after the last game, in the tables' order too.

**Byes and withdrawals.** With an odd count, the entrant the tables pair with the extra number
has a bye that round. An entrant who withdraws is not paired after the round of their
withdrawal; each later game the tables give them is not played, and their scheduled opponent
has a bye scoring 1 point instead, as if the withdrawn entrant were the extra number: the
schedule of everyone else is unchanged, and nobody's score depends on when in the cycle they
were to meet the one who left. (Games played before the withdrawal stand.)
"""

from __future__ import annotations

from collections.abc import Sequence

from app.league.events import Entrant, LeagueError, Pairing, check_entrants


def table_size(count: int) -> int:
    """The tables a round robin of ``count`` entrants uses: the even number count or count + 1."""
    return count + count % 2


def cycle_rounds(count: int) -> int:
    """The rounds of one cycle for ``count`` entrants."""
    return table_size(count) - 1


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` of the Berger tables of ``n`` (even) numbers, board by board:
    (White, Black)."""
    if n < 2 or n % 2:
        raise ValueError(f"the tables are for an even count of 2 or more, not {n}")
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"the tables of {n} have rounds 1 to {n - 1}, not {round_number}")
    circle = n - 1
    # The anchor solves 2a ≡ r + 1 (mod n − 1): (r + 1) / 2 in odd rounds, n/2 + r/2 in even.
    anchor = (round_number + 1) // 2 if round_number % 2 else n // 2 + round_number // 2
    boards = [(anchor, n) if round_number % 2 else (n, anchor)]
    for step in range(1, n // 2):
        white = (anchor - 1 + step) % circle + 1
        black = (anchor - 1 - step) % circle + 1
        boards.append((white, black))
    return boards


def berger_tables(n: int) -> list[list[tuple[int, int]]]:
    """Every round of the tables of ``n`` (even) numbers."""
    return [berger_round(n, round_number) for round_number in range(1, n)]


def round_robin_rounds(count: int, *, double: bool = False) -> int:
    """How many rounds a (double) round robin of ``count`` entrants has."""
    return cycle_rounds(count) * (2 if double else 1)


def round_robin_round(
    entrants: Sequence[Entrant], round_number: int, *, double: bool = False
) -> list[Pairing]:
    """Round ``round_number`` of a (double) round robin of ``entrants`` (numbered 1 to n in the
    seeding order): its games in the tables' order, then its byes (``result`` ``"bye"``)."""
    check_entrants(entrants)
    count = len(entrants)
    if count < 2:
        raise LeagueError("a round robin needs two entrants or more")
    total = round_robin_rounds(count, double=double)
    if not 1 <= round_number <= total:
        raise LeagueError(f"this round robin has rounds 1 to {total}, not {round_number}")
    per_cycle = cycle_rounds(count)
    cycle, in_cycle = divmod(round_number - 1, per_cycle)
    boards = berger_round(table_size(count), in_cycle + 1)
    if cycle % 2:
        boards = [(black, white) for white, black in boards]

    def present(number: int) -> bool:
        return number <= count and entrants[number - 1].plays_in(round_number)

    games = [(white, black) for white, black in boards if present(white) and present(black)]
    byes = [
        next(number for number in (white, black) if present(number))
        for white, black in boards
        if present(white) != present(black)
    ]
    paired = [Pairing(round_number, board, *game) for board, game in enumerate(games, 1)]
    return paired + [
        Pairing(round_number, board, bye, None, "bye")
        for board, bye in enumerate(byes, len(games) + 1)
    ]
