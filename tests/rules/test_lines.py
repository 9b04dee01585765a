"""The O(1) counters against a full-board scan, over thousands of random games."""

from __future__ import annotations

import random

import pytest

from app.rules.lines import LineCounters


def scan_winner(board: list[list[int]], n: int) -> int:
    """Brute force: the player holding a whole row, column or diagonal, else 0."""
    lines = [[(r, c) for c in range(n)] for r in range(n)]
    lines += [[(r, c) for r in range(n)] for c in range(n)]
    lines += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    for line in lines:
        owners = {board[r][c] for r, c in line}
        if len(owners) == 1 and 0 not in owners:
            return owners.pop()
    return 0


def test_classic_example_returns_the_winner_on_the_last_move() -> None:
    counters = LineCounters(3)
    moves = [(0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 1)]
    results = [player if counters.play(r, c, player) else 0 for r, c, player in moves]  # type: ignore[arg-type]
    assert results == [0, 0, 0, 0, 0, 0, 1]


@pytest.mark.parametrize("n", range(1, 9))
def test_random_games_match_a_full_board_scan(n: int) -> None:
    rng = random.Random(n)
    kinds = set()
    for _ in range(600 if n <= 4 else 250):
        counters = LineCounters(n)
        board = [[0] * n for _ in range(n)]
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        for i, (r, c) in enumerate(cells):
            player = 1 if i % 2 == 0 else 2
            board[r][c] = player
            won = counters.play(r, c, player)
            assert won == (scan_winner(board, n) == player)
            assert counters.owner(r, c) == player
            if won:
                kinds.add("win")
                break
        else:
            kinds.add("draw")
        assert len(counters) == sum(cell != 0 for row in board for cell in row)
    if n in (3, 4):  # random play on these boards reaches both outcomes
        assert kinds == {"win", "draw"}


@pytest.mark.parametrize("line", ["row", "column", "diagonal", "anti_diagonal"])
@pytest.mark.parametrize("player", [1, 2])
def test_every_kind_of_line_wins_for_either_player(line: str, player: int) -> None:
    n = 5
    target = {
        "row": [(2, c) for c in range(n)],
        "column": [(r, 3) for r in range(n)],
        "diagonal": [(i, i) for i in range(n)],
        "anti_diagonal": [(i, n - 1 - i) for i in range(n)],
    }[line]
    other = 2 if player == 1 else 1
    filler = [(r, c) for r in range(n) for c in range(n) if (r, c) not in target]
    counters = LineCounters(n)
    wins = []
    for i, cell in enumerate(target):
        wins.append(counters.play(*cell, player))  # type: ignore[arg-type]
        if i < n - 1:  # the other player fills cells that complete nothing of theirs
            assert not counters.play(*filler[i * 3], other)  # type: ignore[arg-type]
    assert wins == [False] * (n - 1) + [True]


def test_one_by_one_board_is_won_by_the_first_move() -> None:
    assert LineCounters(1).play(0, 0, 1) is True


def test_memory_grows_with_moves_not_n() -> None:
    counters = LineCounters(1_000_000)
    for i in range(25):
        counters.play(i, 999_999 - i * 7, 1 if i % 2 == 0 else 2)
    assert len(counters.rows) <= 25
    assert len(counters.columns) <= 25
    assert len(counters.cells) == 25
