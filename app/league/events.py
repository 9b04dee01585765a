"""A tournament's plain data: its entrants and the pairings of its rounds, as the pairing, the
standings and the report read them.

**Seats and colours.** Seat 1 of a pairing moves first; for the colour rules of chess, whose
pairing systems and report formats these are, seat 1 is White and seat 2 Black (a seat 1 game is
a game "with white" in the Dutch system's colour history, ``w`` in a TRF-16 report).

**Numbers.** An entrant's number is their place in the seeding order, 1 to n: the Berger tables'
number in a round robin, the pairing number (and TRF start number) in a Swiss. Pairings name
entrants by number.

**Byes.** A pairing with no seat 2 is a bye: ``result`` ``"bye"``, one point for seat 1. The
Swiss gives one to the entrant left over when the count is odd (a pairing-allocated bye); the
round robin to the entrant the tables pair with the extra number when the count is odd, and to
whoever the tables pair with an entrant who has withdrawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

Result = Literal["1-0", "0-1", "½-½", "bye"]
RESULTS: tuple[Result, ...] = get_args(Result)
# Points each result gives seat 1 and seat 2 (a bye's seat 2 is nobody).
POINTS: dict[Result, tuple[float, float]] = {
    "1-0": (1.0, 0.0),
    "0-1": (0.0, 1.0),
    "½-½": (0.5, 0.5),
    "bye": (1.0, 0.0),
}


class LeagueError(ValueError):
    """What a tournament's data or request cannot be: a round paired out of turn, a round
    paired before the one before it is over, a field that cannot be paired at all."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of a tournament: ``number`` in the seeding order (1 to n), the player's ``id``
    and ``name``, and ``withdrawn``: the last round they were paired in before withdrawing (0 if
    before round 1), None while they play on."""

    number: int
    id: str
    name: str
    withdrawn: int | None = None

    def plays_in(self, round_number: int) -> bool:
        """Whether the entrant is paired in ``round_number``."""
        return self.withdrawn is None or round_number <= self.withdrawn


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of one round: entrant ``seat1`` (moves first: White) against ``seat2`` (None:
    a bye), its ``result`` (None while the game is unfinished; ``"bye"`` for a bye) and, in
    events of Reversi, the final ``discs`` of seat 1 and seat 2 (None where not known)."""

    round: int
    board: int
    seat1: int
    seat2: int | None
    result: Result | None = None
    discs: tuple[int, int] | None = None

    @property
    def is_bye(self) -> bool:
        return self.seat2 is None

    def points(self) -> tuple[float, float]:
        """What seat 1 and seat 2 have scored (nothing while unfinished)."""
        return (0.0, 0.0) if self.result is None else POINTS[self.result]


def check_entrants(entrants: Sequence[Entrant]) -> None:
    """Entrants are numbered 1 to n in the seeding order, with distinct ids."""
    if [entrant.number for entrant in entrants] != list(range(1, len(entrants) + 1)):
        raise LeagueError("entrants must be numbered 1 to n in the seeding order")
    if len({entrant.id for entrant in entrants}) != len(entrants):
        raise LeagueError("an entrant is entered twice")


def check_played(entrants: Sequence[Entrant], played: Iterable[Pairing]) -> None:
    """Every pairing names entrants, each at most once a round; a bye has the result ``"bye"``
    and a game any other."""
    count = len(entrants)
    seated: set[int] = set()
    # One pass, no list, generator or tuple a pairing (a round's seat is one integer): a
    # 500-player event's every standings read checks its 2,250 pairings (this was 2.5 ms of a
    # 22 ms read).
    for pairing in played:
        number, first, second, result = pairing.round, pairing.seat1, pairing.seat2, pairing.result
        if not 1 <= first <= count or (
            second is not None and (not 1 <= second <= count or second == first)
        ):
            raise LeagueError(f"round {number}, board {pairing.board}: no such pairing")
        base = number * (count + 1)
        if base + first in seated:
            raise LeagueError(f"round {number}: entrant {first} is paired twice")
        seated.add(base + first)
        if second is not None:
            if base + second in seated:
                raise LeagueError(f"round {number}: entrant {second} is paired twice")
            seated.add(base + second)
        if result is not None and (result == "bye") != (second is None):
            raise LeagueError(f"round {number}, board {pairing.board}: wrong result")


def rounds_played(played: Iterable[Pairing]) -> int:
    """The last round with pairings (0 before round 1)."""
    return max((pairing.round for pairing in played), default=0)


def check_next_round(played: Sequence[Pairing], round_number: int) -> None:
    """``round_number`` is the round after the last one paired, and that one is over."""
    last = rounds_played(played)
    if round_number != last + 1:
        raise LeagueError(f"round {last + 1} is the next to pair, not round {round_number}")
    if any(pairing.result is None for pairing in played):
        raise LeagueError(f"round {last} has an unfinished game")
