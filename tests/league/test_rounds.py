"""The next round of any system, with the checks the contract asks before pairing one."""

from __future__ import annotations

import random

import pytest

from app.league.berger import round_robin_round
from app.league.events import Entrant, LeagueError, Pairing
from app.league.rounds import pair_next_round, total_rounds
from app.league.swiss import swiss_round
from tests.league.reference import play


def field(count: int) -> list[Entrant]:
    return [Entrant(n, f"id{n}", f"Player {n}") for n in range(1, count + 1)]


def test_a_double_round_robin_is_paired_round_after_round_to_its_end() -> None:
    rng = random.Random(1)
    entrants = field(5)
    played: list[Pairing] = []
    assert total_rounds("double_round_robin", 5) == 10
    for r in range(1, 11):
        pairings = pair_next_round("double_round_robin", entrants, played)
        assert pairings == round_robin_round(entrants, r, double=True)
        played += play(pairings, rng)
    with pytest.raises(LeagueError, match="all 10 rounds"):
        pair_next_round("double_round_robin", entrants, played)


def test_a_swiss_is_paired_by_the_dutch_system() -> None:
    entrants = field(6)
    played = play(pair_next_round("swiss", entrants, [], rounds=3), random.Random(2))
    assert pair_next_round("swiss", entrants, played, rounds=3) == swiss_round(
        entrants, played, 2, 3
    )


def test_no_round_is_paired_while_a_game_of_the_last_is_unfinished() -> None:
    entrants = field(4)
    played = round_robin_round(entrants, 1)  # no results yet
    with pytest.raises(LeagueError, match="unfinished"):
        pair_next_round("round_robin", entrants, played)


def test_a_swiss_needs_its_rounds() -> None:
    with pytest.raises(LeagueError, match="number of rounds"):
        pair_next_round("swiss", field(4), [])
