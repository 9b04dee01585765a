"""The next round of a tournament of any system: the one call the edge makes to pair it, with
the contract's checks (the round before is over) made once for every system."""

from __future__ import annotations

from collections.abc import Sequence

from app.league.berger import round_robin_round, round_robin_rounds
from app.league.events import (
    Entrant,
    LeagueError,
    Pairing,
    check_entrants,
    check_next_round,
    check_played,
    rounds_played,
)
from app.league.standings import System
from app.league.swiss import swiss_round


def total_rounds(system: System, count: int, rounds: int | None = None) -> int:
    """How many rounds the tournament has: a Swiss's ``rounds`` as its organiser set them, a
    round robin's as the Berger tables give them for ``count`` entrants."""
    if system == "swiss":
        if rounds is None or rounds < 1:
            raise LeagueError("a Swiss needs its number of rounds")
        return rounds
    return round_robin_rounds(count, double=system == "double_round_robin")


def pair_next_round(
    system: System,
    entrants: Sequence[Entrant],
    played: Sequence[Pairing],
    rounds: int | None = None,
) -> list[Pairing]:
    """The round after the last one in ``played`` (every pairing so far), once that one is over
    (``LeagueError`` while a game of it is unfinished, after the last round, or when the round
    cannot be paired)."""
    check_entrants(entrants)
    check_played(entrants, played)
    round_number = rounds_played(played) + 1
    total = total_rounds(system, len(entrants), rounds)
    if round_number > total:
        raise LeagueError(f"all {total} rounds are paired")
    check_next_round(played, round_number)
    if system == "swiss":
        return swiss_round(entrants, played, round_number, total)
    return round_robin_round(entrants, round_number, double=system == "double_round_robin")
