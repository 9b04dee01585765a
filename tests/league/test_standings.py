"""Standings: points, the contract's tie-breaks and ranks, against hand-worked tables and a slow
recomputation that reads every total off the games one by one."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from app.league.events import Entrant, LeagueError, Pairing, Result
from app.league.standings import Standing, System, standings, tiebreak_names


def field(count: int) -> list[Entrant]:
    return [Entrant(n, f"id{n}", f"Player {n}") for n in range(1, count + 1)]


def table(rows: Sequence[Standing]) -> list[tuple[int, int, float, dict[str, float]]]:
    return [(row.rank, row.number, row.points, row.tiebreaks) for row in rows]


def test_a_round_robin_of_four_worked_by_hand() -> None:
    """Berger's rounds for four, results chosen: 1 scores 2½, 2 scores 2, 3 scores 1½, 4 none.
    Sonneborn-Berger: 1 beat 4 (0) and 3 (1½) and drew with 2 (2 / 2): 2½; 2 drew with 3 (¾)
    and 1 (1¼) and beat 4: 2; 3 drew with 2 (1) and beat 4: 1."""
    played = [
        Pairing(1, 1, 1, 4, "1-0"),
        Pairing(1, 2, 2, 3, "½-½"),
        Pairing(2, 1, 4, 3, "0-1"),
        Pairing(2, 2, 1, 2, "½-½"),
        Pairing(3, 1, 2, 4, "1-0"),
        Pairing(3, 2, 3, 1, "0-1"),
    ]
    assert table(standings(field(4), played, "round_robin")) == [
        (1, 1, 2.5, {"sonneborn_berger": 2.5}),
        (2, 2, 2.0, {"sonneborn_berger": 2.0}),
        (3, 3, 1.5, {"sonneborn_berger": 1.0}),
        (4, 4, 0.0, {"sonneborn_berger": 0.0}),
    ]


def test_a_reversi_round_robin_of_three_with_byes_worked_by_hand() -> None:
    """Three Othello players, a bye a round (32 discs, no opponent). 1: bye, 32-32 draw with 2,
    31-33 loss to 3: 1½ points, 95 discs, opponents' points 2½ + 2, Brightwell 95 + 6 × 4½ =
    122. 2: 40-24 win over 3, the draw, bye: 2½, 104 discs, Brightwell 104 + 6 × 3½ = 125.
    3: the loss, bye, the win: 2, 89 discs, Brightwell 89 + 6 × 4 = 113."""
    played = [
        Pairing(1, 1, 2, 3, "1-0", (40, 24)),
        Pairing(1, 2, 1, None, "bye"),
        Pairing(2, 1, 1, 2, "½-½", (32, 32)),
        Pairing(2, 2, 3, None, "bye"),
        Pairing(3, 1, 3, 1, "1-0", (33, 31)),
        Pairing(3, 2, 2, None, "bye"),
    ]
    assert table(standings(field(3), played, "round_robin", reversi=True)) == [
        (1, 2, 2.5, {"sonneborn_berger": 2.75, "brightwell": 125.0, "discs": 104.0}),
        (2, 3, 2.0, {"sonneborn_berger": 1.5, "brightwell": 113.0, "discs": 89.0}),
        (3, 1, 1.5, {"sonneborn_berger": 1.25, "brightwell": 122.0, "discs": 95.0}),
    ]


def test_a_swiss_ranks_by_buchholz_then_sonneborn_berger() -> None:
    """Four players, two rounds: 1 and 3 both score 1½. 1 beat 2 (who has 1) and drew with 3
    (1½): Buchholz 2½, Sonneborn-Berger 1 + ¾; 3 beat 4 (0) and drew with 1: 1½ and ¾."""
    played = [
        Pairing(1, 1, 1, 2, "1-0"),
        Pairing(1, 2, 3, 4, "1-0"),
        Pairing(2, 1, 3, 1, "½-½"),
        Pairing(2, 2, 2, 4, "1-0"),
    ]
    assert table(standings(field(4), played, "swiss")) == [
        (1, 1, 1.5, {"buchholz": 2.5, "sonneborn_berger": 1.75}),
        (2, 3, 1.5, {"buchholz": 1.5, "sonneborn_berger": 0.75}),
        (3, 2, 1.0, {"buchholz": 1.5, "sonneborn_berger": 0.0}),
        (4, 4, 0.0, {"buchholz": 2.5, "sonneborn_berger": 0.0}),
    ]


def test_entrants_equal_on_everything_share_a_rank_and_the_next_skips() -> None:
    played = [
        Pairing(1, 1, 1, 2, "½-½"),
        Pairing(1, 2, 3, 4, "1-0"),
        Pairing(2, 1, 2, 1, "½-½"),
        Pairing(2, 2, 4, 3, "0-1"),
    ]
    rows = standings(field(4), played, "double_round_robin")
    assert [(row.rank, row.number) for row in rows] == [(1, 3), (2, 1), (2, 2), (4, 4)]


def test_unfinished_games_count_nothing_yet() -> None:
    played = [Pairing(1, 1, 1, 2, "1-0"), Pairing(2, 1, 2, 1, None)]
    rows = standings(field(2), played, "swiss")
    assert table(rows) == [
        (1, 1, 1.0, {"buchholz": 0.0, "sonneborn_berger": 0.0}),
        (2, 2, 0.0, {"buchholz": 1.0, "sonneborn_berger": 0.0}),
    ]


@pytest.mark.parametrize(
    ("system", "reversi", "names"),
    [
        ("swiss", False, ("buchholz", "sonneborn_berger")),
        ("round_robin", False, ("sonneborn_berger",)),
        ("double_round_robin", True, ("sonneborn_berger", "brightwell", "discs")),
        ("swiss", True, ("buchholz", "sonneborn_berger", "brightwell", "discs")),
    ],
)
def test_the_tiebreaks_are_the_contracts_in_order(
    system: System, reversi: bool, names: tuple[str, ...]
) -> None:
    assert tiebreak_names(system, reversi=reversi) == names
    assert list(standings(field(2), [], system, reversi=reversi)[0].tiebreaks) == list(names)


# The slow, obviously right recomputation: every total read off the games one by one.


def score(pairing: Pairing, number: int) -> float:
    """What ``number`` scored in ``pairing`` (nothing while unfinished)."""
    if pairing.result is None:
        return 0.0
    if pairing.result == "bye":
        return 1.0
    if pairing.result == "½-½":
        return 0.5
    won = "1-0" if pairing.seat1 == number else "0-1"
    return 1.0 if pairing.result == won else 0.0


def slow_points(played: Sequence[Pairing], number: int) -> float:
    return sum(score(p, number) for p in played if number in (p.seat1, p.seat2))


def slow_row(played: Sequence[Pairing], number: int, names: Sequence[str]) -> tuple[float, ...]:
    buchholz = berger = discs = 0.0
    for p in played:
        if number not in (p.seat1, p.seat2) or p.result is None:
            continue
        if p.seat2 is None:
            discs += 32
            continue
        opponent = p.seat2 if p.seat1 == number else p.seat1
        buchholz += slow_points(played, opponent)
        berger += score(p, number) * slow_points(played, opponent)
        if p.discs is not None:
            discs += p.discs[0] if p.seat1 == number else p.discs[1]
    values = {
        "buchholz": buchholz,
        "sonneborn_berger": berger,
        "brightwell": discs + 6 * buchholz,
        "discs": discs,
    }
    return (slow_points(played, number), *(values[name] for name in names))


def random_event(rng: random.Random, count: int, rounds: int, reversi: bool) -> list[Pairing]:
    """Random rounds (pairings need not be a system's here): random results and discs, byes for
    odd counts, now and then an unfinished game or an entrant sitting a round out."""
    played = []
    for r in range(1, rounds + 1):
        numbers = [n for n in range(1, count + 1) if rng.random() > 0.1]
        rng.shuffle(numbers)
        for board, at in enumerate(range(0, len(numbers), 2), 1):
            pair = numbers[at : at + 2]
            if len(pair) == 1:
                played.append(Pairing(r, board, pair[0], None, "bye"))
                continue
            result: Result | None = rng.choice(["1-0", "0-1", "½-½", "1-0", "0-1", None])
            black = rng.randrange(65)
            discs = (rng.randrange(65 - black), black) if reversi and rng.random() > 0.1 else None
            played.append(Pairing(r, board, pair[0], pair[1], result, discs))
    return played


@pytest.mark.parametrize("seed", range(40))
def test_standings_match_the_slow_recomputation(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randrange(2, 30)
    system: System = rng.choice(["swiss", "round_robin", "double_round_robin"])
    reversi = rng.random() < 0.5
    played = random_event(rng, count, rng.randrange(1, 9), reversi)
    names = tiebreak_names(system, reversi=reversi)
    rows = standings(field(count), played, system, reversi=reversi)
    slow = {n: slow_row(played, n, names) for n in range(1, count + 1)}
    assert sorted(row.number for row in rows) == list(range(1, count + 1))
    for row in rows:
        assert (row.points, *row.tiebreaks.values()) == slow[row.number]
        assert row.rank == 1 + sum(other > slow[row.number] for other in slow.values())
    assert [(row.rank, row.number) for row in rows] == sorted(
        (row.rank, row.number) for row in rows
    )


@pytest.mark.parametrize(
    "played",
    [
        [Pairing(1, 1, 1, 2, "1-0"), Pairing(1, 2, 2, None, "bye")],  # 2 twice in round 1
        [Pairing(1, 1, 1, 3, "1-0")],  # no entrant 3
        [Pairing(1, 1, 1, 1, "1-0")],  # 1 against 1
        [Pairing(1, 1, 1, None, "1-0")],  # a bye with a game's result
        [Pairing(1, 1, 1, 2, "bye")],  # a game with a bye's
    ],
)
def test_pairings_that_cannot_be_are_refused(played: list[Pairing]) -> None:
    with pytest.raises(LeagueError):
        standings(field(2), played, "swiss")
