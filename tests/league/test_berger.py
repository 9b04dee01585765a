"""Round robins against FIDE's published Berger tables (tests/data/berger_tables.txt)."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

from app.league.berger import berger_round, berger_tables, round_robin_round, round_robin_rounds
from app.league.events import Entrant, LeagueError

TABLES_TEXT = Path(__file__).parent.parent / "data" / "berger_tables.txt"


def published() -> dict[int, list[list[tuple[int, int]]]]:
    """The handbook's tables: {even n: rounds of (White, Black) boards}."""
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    size = 0
    for line in TABLES_TEXT.read_text(encoding="utf-8").splitlines():
        if heading := re.fullmatch(r"(\d+) or (\d+) players:", line):
            size = int(heading[2])
            tables[size] = []
        elif line.startswith("Rd "):
            games = re.findall(r"(\d+)-(\d+)", line.partition(":")[2])
            tables[size].append([(int(white), int(black)) for white, black in games])
    return tables


TABLES = published()


def entrants(count: int, withdrawn: dict[int, int] | None = None) -> list[Entrant]:
    return [
        Entrant(n, f"id{n}", f"Player {n}", (withdrawn or {}).get(n)) for n in range(1, count + 1)
    ]


def test_the_published_tables_are_read_whole() -> None:
    assert sorted(TABLES) == [4, 6, 8, 10, 12, 14, 16]
    assert all(len(rounds) == n - 1 for n, rounds in TABLES.items())
    assert all(len(boards) == n // 2 for n, rounds in TABLES.items() for boards in rounds)


@pytest.mark.parametrize("n", sorted(TABLES))
def test_the_rule_makes_the_published_tables(n: int) -> None:
    assert berger_tables(n) == TABLES[n]


@pytest.mark.parametrize("n", range(2, 41, 2))
def test_every_table_meets_everyone_once_with_colours_in_balance(n: int) -> None:
    rounds = berger_tables(n)
    games = [frozenset(board) for boards in rounds for board in boards]
    assert sorted(map(sorted, games)) == sorted(map(sorted, combinations(range(1, n + 1), 2)))
    for player in range(1, n + 1):
        whites = sum(board[0] == player for boards in rounds for board in boards)
        assert whites in (n // 2 - 1, n // 2)


@pytest.mark.parametrize("count", range(3, 11))
def test_a_round_robin_plays_the_tables_in_the_seeding_order(count: int) -> None:
    """Even counts play the tables as published; odd counts the next even table, the entrant
    the tables pair with the extra number having a bye, listed after the games."""
    size = count + count % 2
    field = entrants(count)
    assert round_robin_rounds(count) == size - 1
    for r, boards in enumerate(TABLES[size], 1):
        games = [board for board in boards if size not in board or count == size]
        byes = [w if b == size else b for w, b in boards if count < size and size in (w, b)]
        got = round_robin_round(field, r)
        assert [(p.seat1, p.seat2) for p in got] == [*games, *((bye, None) for bye in byes)]
        assert [p.board for p in got] == list(range(1, len(got) + 1))
        assert all(p.round == r for p in got)
        assert [p.result for p in got] == [None] * len(games) + ["bye"] * len(byes)


def test_seven_players_round_one_exactly() -> None:
    got = round_robin_round(entrants(7), 1)
    assert [(p.board, p.seat1, p.seat2, p.result) for p in got] == [
        (1, 2, 7, None),
        (2, 3, 6, None),
        (3, 4, 5, None),
        (4, 1, None, "bye"),
    ]


@pytest.mark.parametrize("count", [4, 7, 8])
def test_the_double_round_robin_plays_the_cycle_again_with_seats_swapped(count: int) -> None:
    field = entrants(count)
    cycle = round_robin_rounds(count)
    assert round_robin_rounds(count, double=True) == 2 * cycle
    for r in range(1, cycle + 1):
        first = round_robin_round(field, r, double=True)
        second = round_robin_round(field, cycle + r, double=True)
        assert first == round_robin_round(field, r)
        assert [(p.seat1, p.seat2) for p in second if p.seat2 is not None] == [
            (p.seat2, p.seat1) for p in first if p.seat2 is not None
        ]
        assert [p.seat1 for p in second if p.seat2 is None] == [
            p.seat1 for p in first if p.seat2 is None
        ]


def test_a_withdrawn_entrants_later_opponents_have_byes() -> None:
    """Entrant 3 of 8 withdraws after round 2: from round 3 on, whoever the tables pair with 3
    has a bye; earlier rounds and everyone else's games are as the tables give them."""
    field = entrants(8, withdrawn={3: 2})
    for r, boards in enumerate(TABLES[8], 1):
        got = round_robin_round(field, r)
        if r <= 2:
            assert [(p.seat1, p.seat2) for p in got] == boards
            continue
        opponent = next(w if b == 3 else b for w, b in boards if 3 in (w, b))
        assert [(p.seat1, p.seat2) for p in got] == [
            *(board for board in boards if 3 not in board),
            (opponent, None),
        ]


def test_two_withdrawn_entrants_who_were_to_meet_leave_no_board() -> None:
    field = entrants(8, withdrawn={1: 0, 8: 0})
    got = round_robin_round(field, 1)  # 1-8 is board 1 of round 1
    assert [(p.seat1, p.seat2) for p in got] == [(2, 7), (3, 6), (4, 5)]


@pytest.mark.parametrize(
    ("count", "round_number", "double"), [(1, 1, False), (4, 0, False), (4, 4, False), (4, 7, True)]
)
def test_rounds_out_of_the_schedule_are_refused(
    count: int, round_number: int, double: bool
) -> None:
    with pytest.raises(LeagueError):
        round_robin_round(entrants(count), round_number, double=double)


def test_entrants_must_be_numbered_in_the_seeding_order() -> None:
    with pytest.raises(LeagueError):
        round_robin_round([Entrant(2, "a", "A"), Entrant(1, "b", "B")], 1)


def test_odd_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="even"):
        berger_round(7, 1)
