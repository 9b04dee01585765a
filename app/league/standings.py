"""A tournament's standings: each entrant's points and tie-breaks, ranked.

**Points.** A win is 1, a draw ½, a bye 1, a loss 0; an unfinished game counts nothing yet (not
as a game, not for its opponent either) until it has a result.

**Tie-breaks, in the contract's order.** A Swiss: ``buchholz`` (the sum of the points of the
entrants one has played), then ``sonneborn_berger`` (the points of each opponent one beat, and
half those of each one drew with). A round robin (single or double): ``sonneborn_berger``.
Events of Reversi then add ``brightwell`` (one's own final discs, plus 6 × the opponents' points:
the Othello federations' tie-break) and ``discs`` (the sum of one's own final discs). An opponent
met twice (a double round robin) counts twice; every sum is over finished games, with each
opponent's points as they stand.

**Byes.** A bye is no game and has no opponent: it gives its point (and, in Reversi, 32 discs,
the contract's count for a bye, in ``brightwell`` and ``discs`` alike) and adds nothing to
``buchholz``, ``sonneborn_berger`` or the opponents' part of ``brightwell``. (FIDE's C.07 scores
an unplayed round against a virtual opponent instead; simpler, and what a reader of the table
can check by hand, is that a tie-break sums the games one played.) A round robin's bye for an
opponent's withdrawal counts the same. A Reversi game whose final discs are not known counts 0
discs.

**Ranks.** By points, then each tie-break in order, highest first; entrants equal on points
and every tie-break share a rank, and the next rank skips as many places (1, 2, 2, 4). Within a
shared rank the entrants are listed by number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.league.events import POINTS, Entrant, Pairing, check_entrants, check_played

System = Literal["round_robin", "double_round_robin", "swiss"]
TIEBREAKS: dict[System, tuple[str, ...]] = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "round_robin": ("sonneborn_berger",),
    "double_round_robin": ("sonneborn_berger",),
}
REVERSI_TIEBREAKS = ("brightwell", "discs")
BYE_DISCS = 32
BRIGHTWELL_FACTOR = 6


def tiebreak_names(system: System, *, reversi: bool = False) -> tuple[str, ...]:
    """The tie-breaks of an event of ``system``, in order."""
    return TIEBREAKS[system] + (REVERSI_TIEBREAKS if reversi else ())


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's row of the standings."""

    rank: int
    number: int
    id: str
    points: float
    tiebreaks: dict[str, float]


def points_of(count: int, played: Sequence[Pairing]) -> list[float]:
    """``points[number]``: each entrant's points (index 0 is nobody)."""
    points = [0.0] * (count + 1)
    for pairing in played:
        result = pairing.result
        if result is None:
            continue
        first, second = POINTS[result]
        points[pairing.seat1] += first
        if pairing.seat2 is not None:
            points[pairing.seat2] += second
    return points


def standings(
    entrants: Sequence[Entrant],
    played: Sequence[Pairing],
    system: System,
    *,
    reversi: bool = False,
    checked: bool = False,
) -> list[Standing]:
    """The ranked standings of ``entrants`` after the pairings ``played`` (every round's);
    ``checked``: the caller has checked both (``check_entrants``, ``check_played``)."""
    if not checked:
        check_entrants(entrants)
        check_played(entrants, played)
    count = len(entrants)
    points = points_of(count, played)
    buchholz = [0.0] * (count + 1)
    berger = [0.0] * (count + 1)
    discs = [0.0] * (count + 1)
    # Each game once, both seats written out: a 500-player event's every standings read sums
    # its 2,250 games (a loop over the two seats took twice as long).
    for pairing in played:
        result = pairing.result
        if result is None:
            continue
        first, second = pairing.seat1, pairing.seat2
        if second is None:
            discs[first] += BYE_DISCS
            continue
        scored1, scored2 = POINTS[result]
        against1, against2 = points[second], points[first]
        buchholz[first] += against1
        buchholz[second] += against2
        berger[first] += scored1 * against1
        berger[second] += scored2 * against2
        final = pairing.discs
        if final is not None:
            discs[first] += final[0]
            discs[second] += final[1]
    values = {
        "buchholz": buchholz,
        "sonneborn_berger": berger,
        "brightwell": [discs[n] + BRIGHTWELL_FACTOR * buchholz[n] for n in range(count + 1)],
        "discs": discs,
    }
    names = tiebreak_names(system, reversi=reversi)
    columns = [points, *(values[name] for name in names)]
    keys = {
        entrant.number: tuple(column[entrant.number] for column in columns) for entrant in entrants
    }
    ordering = {number: (*(-v for v in key), number) for number, key in keys.items()}
    order = sorted(entrants, key=lambda entrant: ordering[entrant.number])
    rows: list[Standing] = []
    for place, entrant in enumerate(order, 1):
        number = entrant.number
        shared = rows and keys[rows[-1].number] == keys[number]
        rows.append(
            Standing(
                rank=rows[-1].rank if shared else place,
                number=number,
                id=entrant.id,
                points=points[number],
                tiebreaks={name: values[name][number] for name in names},
            )
        )
    return rows
