"""Swiss rounds by the Dutch system through caissify-pairings, checked against an independent
implementation (py4swiss, reading our TRF-16 report) and against the rules' absolute criteria.

The two libraries do not always agree. Where they differ, the examples below are the smallest
found, each with the rule that decides it; the library that breaks the rule has its answer
marked ``xfail`` (strict: a release that mends it turns the mark red)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from app.league.events import Entrant, LeagueError, Pairing
from app.league.swiss import library_players, swiss_round
from tests.league.reference import Pairer, play, py4swiss_round, random_field

ENGINES: dict[str, Pairer] = {"caissify": swiss_round, "py4swiss": py4swiss_round}


def field(count: int) -> list[Entrant]:
    return [Entrant(n, f"id{n}", f"Player {n}") for n in range(1, count + 1)]


def seats(pairings: Sequence[Pairing]) -> list[tuple[int, int | None]]:
    return [(p.seat1, p.seat2) for p in pairings]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_round_one_pairs_the_top_half_against_the_bottom_half(engine: str) -> None:
    """C.04.3: round 1 pairs 1 with n/2 + 1, 2 with n/2 + 2, …; the top seed has the initial
    colour (White: seat 1) and colours alternate down the boards; an odd count's last seed has
    the bye."""
    pair = ENGINES[engine]
    assert seats(pair(field(8), [], 1, 5)) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    nine = pair(field(9), [], 1, 5)
    assert seats(nine) == [(1, 5), (6, 2), (3, 7), (8, 4), (9, None)]
    assert [p.result for p in nine] == [None, None, None, None, "bye"]
    assert [p.board for p in nine] == [1, 2, 3, 4, 5]


def test_the_library_is_told_colours_floats_and_byes() -> None:
    entrants = field(5)
    played = [
        Pairing(1, 1, 1, 4, "1-0"),
        Pairing(1, 2, 5, 2, "½-½"),
        Pairing(1, 3, 3, None, "bye"),
    ]
    players = {p["id"]: p for p in library_players(entrants, played, 2)}
    assert (players[1]["score"], players[1]["color_hist"], players[1]["float_history"]) == (
        1.0,
        ["white"],
        ["none"],
    )
    assert (players[2]["color_hist"], players[3]["color_hist"]) == (["black"], [])
    assert (players[3]["float_history"], players[3]["bye_count"]) == (["down"], 1)


def test_a_float_follows_the_scores_before_the_round() -> None:
    entrants = field(4)
    played = [
        Pairing(1, 1, 1, 3, "1-0"),
        Pairing(1, 2, 4, 2, "1-0"),
        Pairing(2, 1, 1, 2, "1-0"),  # 1 (one point) against 2 (none): 1 floats down, 2 up
        Pairing(2, 2, 3, 4, "1-0"),
    ]
    players = {p["id"]: p for p in library_players(entrants, played, 3)}
    assert players[1]["float_history"] == ["none", "down"]
    assert players[2]["float_history"] == ["none", "up"]


def test_pairing_out_of_turn_or_before_the_round_is_over_is_refused() -> None:
    played = [Pairing(1, 1, 1, 2, "1-0"), Pairing(1, 2, 3, 4, None)]
    with pytest.raises(LeagueError, match="unfinished"):
        swiss_round(field(4), played, 2, 3)
    with pytest.raises(LeagueError, match="round 2 is the next"):
        swiss_round(field(4), played[:1], 3, 3)
    with pytest.raises(LeagueError, match="3 rounds"):
        swiss_round(field(4), [], 4, 3)


def test_a_round_that_cannot_be_paired_is_refused() -> None:
    """Two entrants who have met have nobody new to play."""
    with pytest.raises(LeagueError, match="cannot be paired"):
        swiss_round(field(2), [Pairing(1, 1, 1, 2, "1-0")], 2, 3)


def check_by_the_absolute_criteria(
    entrants: Sequence[Entrant], played: Sequence[Pairing], pairings: Sequence[Pairing]
) -> None:
    """C.04.3's absolute criteria and the contract: everyone still playing paired exactly once,
    nobody withdrawn, no two who have met, at most one bye and nobody's second, boards 1 to k."""
    round_number = pairings[0].round
    playing = sorted(e.number for e in entrants if e.plays_in(round_number))
    seated = sorted(s for p in pairings for s in (p.seat1, p.seat2) if s is not None)
    met = {frozenset((p.seat1, p.seat2)) for p in played if p.seat2 is not None}
    had_bye = {p.seat1 for p in played if p.seat2 is None}
    byes = [p.seat1 for p in pairings if p.seat2 is None]
    assert seated == playing
    assert not any(frozenset((p.seat1, p.seat2)) in met for p in pairings)
    assert len(byes) == len(playing) % 2
    assert not set(byes) & had_bye
    assert [p.board for p in pairings] == list(range(1, len(pairings) + 1))
    assert all(p.result == ("bye" if p.seat2 is None else None) for p in pairings)


def random_tournament(seed: int) -> tuple[list[Entrant], int, random.Random]:
    rng = random.Random(seed)
    count = rng.randrange(8, 61)
    rounds = rng.randrange(4, 8)
    return random_field(rng, count, rounds, withdrawals=rng.randrange(4)), rounds, rng


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_tournaments_are_paired_by_the_absolute_criteria(seed: int) -> None:
    """8 to 60 entrants, 4 to 7 rounds, random results with draws, up to three withdrawals."""
    entrants, rounds, rng = random_tournament(seed)
    played: list[Pairing] = []
    for r in range(1, rounds + 1):
        pairings = swiss_round(entrants, played, r, rounds)
        check_by_the_absolute_criteria(entrants, played, pairings)
        played += play(pairings, rng)


@pytest.mark.xfail(
    strict=True,
    reason="caissify-pairings 0.5.0 and py4swiss 0.3.1 differ on some rounds: colours (E.4), "
    "board order (publishing order) and, now and then, who floats and who has the bye; see "
    "the examples below",
)
def test_caissify_and_py4swiss_pair_every_round_alike() -> None:
    """Each round paired by both libraries from the same history (caissify's rounds played on),
    over the same random tournaments as above."""
    differing = []
    for seed in SEEDS:
        entrants, rounds, rng = random_tournament(seed)
        played: list[Pairing] = []
        for r in range(1, rounds + 1):
            pairings = swiss_round(entrants, played, r, rounds)
            if seats(pairings) != seats(py4swiss_round(entrants, played, r, rounds)):
                differing.append((seed, r))
            played += play(pairings, rng)
    assert differing == []


# The smallest disagreements found, each decided by the rules.


def minimal_four() -> tuple[list[Entrant], list[Pairing]]:
    """Four entrants after two rounds: 1 and 4 each had White then Black (a mild preference
    for White); 4 has 1½ points, 1 has 1."""
    played = [
        Pairing(1, 1, 1, 3, "1-0"),
        Pairing(1, 2, 4, 2, "½-½"),
        Pairing(2, 1, 2, 1, "1-0"),
        Pairing(2, 2, 3, 4, "0-1"),
    ]
    return field(4), played


def test_py4swiss_grants_the_higher_ranked_players_colour() -> None:
    """1 meets 4 in round 3, both wanting White with equal strength and no round where one had
    White and the other Black: C.04.3 E.4 grants the preference of the higher ranked player,
    and A.2 ranks by score first, then pairing number: 4 (1½) outranks 1 (1) and has White."""
    entrants, played = minimal_four()
    assert seats(py4swiss_round(entrants, played, 3, 3)) == [(4, 1), (3, 2)]


@pytest.mark.xfail(
    strict=True,
    reason="caissify-pairings 0.5.0 ranks the two by pairing number alone in its colour "
    "allocation (DutchEngine._assign_colors), not by A.2's score first: it gives 1 White",
)
def test_caissify_grants_the_higher_ranked_players_colour() -> None:
    entrants, played = minimal_four()
    assert (4, 1) in seats(swiss_round(entrants, played, 3, 3))


def minimal_board_order() -> tuple[list[Entrant], list[Pairing]]:
    """Four entrants after two rounds: 2 has 1½ points, 1 and 4 have 1, 3 has ½."""
    played = [
        Pairing(1, 1, 1, 3, "½-½"),
        Pairing(1, 2, 4, 2, "0-1"),
        Pairing(2, 1, 2, 1, "½-½"),
        Pairing(2, 2, 3, 4, "0-1"),
    ]
    return field(4), played


def test_py4swiss_publishes_the_boards_in_the_handbooks_order() -> None:
    """Round 3 pairs 3-2 and 1-4. The general handling rules for Swiss tournaments (C.04.2,
    "Pairing, colour and publishing rules") sort the pairs by the score of the pair's higher
    ranked player, then the pair's total, then the higher player's place in the initial order:
    3-2 (2 has 1½) before 1-4 (1 has 1)."""
    entrants, played = minimal_board_order()
    assert seats(py4swiss_round(entrants, played, 3, 3)) == [(3, 2), (1, 4)]


@pytest.mark.xfail(
    strict=True,
    reason="caissify-pairings 0.5.0 numbers these boards 1-4 then 3-2, not by the higher "
    "ranked player's score",
)
def test_caissify_publishes_the_boards_in_the_handbooks_order() -> None:
    entrants, played = minimal_board_order()
    assert seats(swiss_round(entrants, played, 3, 3)) == [(3, 2), (1, 4)]


def minimal_bye() -> tuple[list[Entrant], list[Pairing]]:
    """Five entrants after round 1 of 4: 1 beat 3, 4 and 2 drew, 5 had the bye. Scores: 1 and
    5 have 1, 2 and 4 have ½ (and have met), 3 has 0."""
    played = [
        Pairing(1, 1, 1, 3, "1-0"),
        Pairing(1, 2, 4, 2, "½-½"),
        Pairing(1, 3, 5, None, "bye"),
    ]
    return field(5), played


def test_py4swiss_pairs_the_top_scoregroup_within_itself() -> None:
    """Round 2. The top scoregroup {1, 5} can be paired within itself and the rest can still
    be completed (2 or 4 against 3, the other the bye; 2 and 4 have met): C.04.3's quality
    criterion C.5 (as the edition effective until 31 January 2026 numbers it: maximise the
    number of pairs in the bracket) pairs 5-1, then 3-4 (3 wants White, 4 Black) with the bye
    to 2."""
    entrants, played = minimal_bye()
    assert seats(py4swiss_round(entrants, played, 2, 4)) == [(5, 1), (3, 4), (2, None)]


@pytest.mark.xfail(
    strict=True,
    reason="caissify-pairings 0.5.0 floats both 1 and 5 out of the top scoregroup to give the "
    "bye to 3 (0 points): 2-1, 5-4, bye 3. That breaks C.5 of the edition py4swiss follows; "
    "caissify says it follows the edition effective from 1 February 2026, whose text on the "
    "bye this work could not read, so which edition decides this example is open",
)
def test_caissify_pairs_the_top_scoregroup_within_itself() -> None:
    entrants, played = minimal_bye()
    assert seats(swiss_round(entrants, played, 2, 4)) == [(5, 1), (3, 4), (2, None)]


def lopsided_colours() -> tuple[list[Entrant], list[Pairing]]:
    """Eight entrants after four rounds whose colours ran unevenly (4 had White four times, 7
    Black four times: a valid history, if not one the Dutch system makes)."""
    rounds = [
        [(1, 2, "1-0"), (4, 3, "1-0"), (5, 6, "1-0"), (8, 7, "0-1")],
        [(4, 1, "1-0"), (3, 2, "½-½"), (5, 7, "½-½"), (6, 8, "0-1")],
        [(1, 7, "½-½"), (8, 2, "1-0"), (4, 5, "0-1"), (6, 3, "½-½")],
        [(3, 1, "½-½"), (2, 6, "1-0"), (8, 5, "1-0"), (4, 7, "½-½")],
    ]
    played = [
        Pairing(r, board, seat1, seat2, result)
        for r, games in enumerate(rounds, 1)
        for board, (seat1, seat2, result) in enumerate(games, 1)
    ]
    return field(8), played


def test_py4swiss_pairs_everyone_when_the_absolute_criteria_allow_it() -> None:
    """Round 5: 1-8, 2-4, 5-3, 7-6 meet nobody again and give every absolute colour preference
    (4 Black, 7 White, 8 Black, 2 White, 5 White)."""
    entrants, played = lopsided_colours()
    pairings = py4swiss_round(entrants, played, 5, 9)
    check_by_the_absolute_criteria(entrants, played, pairings)
    assert seats(pairings) == [(1, 8), (2, 4), (5, 3), (7, 6)]


@pytest.mark.xfail(
    strict=True,
    raises=LeagueError,
    reason="caissify-pairings 0.5.0 pairs 5-1 and 3-8 and leaves four of eight entrants "
    "unpaired ('Multiple forced byes'): its matching gives up where a complete pairing exists",
)
def test_caissify_pairs_everyone_when_the_absolute_criteria_allow_it() -> None:
    entrants, played = lopsided_colours()
    check_by_the_absolute_criteria(entrants, played, swiss_round(entrants, played, 5, 9))
