"""Dead positions (``app/rules/dead.py``): the open windows kept move by move are those a slow
reference counts on the whole board at every move of random games (every n and k up to 8 × 8,
exact-k and k-or-more); and on small boards "dead" is what an exhaustive search of every way the
game can go on says: no sequence of legal moves completes a line for either player."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest

from app.rules.dead import DIRECTIONS, Liveness, windows

Board = dict[tuple[int, int], int]


def reference_open(board: Board, n: int, k: int, exact: bool) -> tuple[list[int], list[int]]:
    """Every window of the board, counted: per player, open windows by the stones they miss."""
    counts = ([0] * (k + 1), [0] * (k + 1))
    seen = 0
    for row in range(n):
        for col in range(n):
            for dr, dc in DIRECTIONS:
                cells = [(row + t * dr, col + t * dc) for t in range(k)]
                if not all(0 <= r < n and 0 <= c < n for r, c in cells):
                    continue
                seen += 1
                stones = [board.get(cell, 0) for cell in cells]
                before, after = (row - dr, col - dc), (row + k * dr, col + k * dc)
                for player in (1, 2):
                    if 3 - player in stones:
                        continue
                    if exact and player in (board.get(before, 0), board.get(after, 0)):
                        continue
                    counts[player - 1][k - stones.count(player)] += 1
    assert seen == windows(n, k)
    return counts


def owner_of(board: Board) -> Callable[[int, int], int]:
    return lambda r, c: board.get((r, c), 0)


CASES = [(n, k, exact) for n in range(1, 9) for k in range(1, n + 1) for exact in (False, True)]


@pytest.mark.parametrize(("n", "k", "exact"), CASES)
def test_the_open_windows_are_the_board_s_at_every_move(n: int, k: int, exact: bool) -> None:
    rng = random.Random(f"{n}-{k}-{exact}")
    for _ in range(3):
        liveness = Liveness(n, k, exact)
        board: Board = {}
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        for index, (row, col) in enumerate(cells):
            player = 1 if index % 2 == 0 else 2
            board[row, col] = player
            liveness.played(owner_of(board), row, col, player)
            assert liveness.open == reference_open(board, n, k, exact), (board, row, col)
        rebuilt = Liveness.of(n, k, exact, [(r, c, p) for (r, c), p in board.items()])
        assert rebuilt.open == liveness.open


def wins(board: Board, n: int, k: int, exact: bool, row: int, col: int, player: int) -> bool:
    """Whether the stone just placed at (row, col) makes k in a row (exactly k, if exact)."""
    for dr, dc in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < n and 0 <= c < n and board.get((r, c)) == player:
                run, r, c = run + 1, r + sign * dr, c + sign * dc
        if run == k or (run > k and not exact):
            return True
    return False


def someone_can_win(n: int, k: int, exact: bool, board: Board, to_move: int) -> bool:
    """Exhaustively: does some sequence of legal moves from here complete a line?"""

    @cache
    def search(cells: frozenset[tuple[int, int, int]], mover: int) -> bool:
        placed: Board = {(r, c): p for r, c, p in cells}
        for row in range(n):
            for col in range(n):
                if (row, col) in placed:
                    continue
                placed[row, col] = mover
                if wins(placed, n, k, exact, row, col, mover):
                    return True
                del placed[row, col]
                if search(cells | {(row, col, mover)}, 3 - mover):
                    return True
        return False

    return search(frozenset((r, c, p) for (r, c), p in board.items()), to_move)


SEARCHED = [(3, 3), (3, 2), (4, 3), (4, 4), (5, 4), (5, 5)]


@pytest.mark.parametrize("exact", [False, True])
def test_dead_is_what_an_exhaustive_search_says(exact: bool) -> None:
    """Random games on small boards, each position with at most nine empty cells searched;
    dead positions are rare when lines are short, so the count is of all boards together."""
    answers = {True: 0, False: 0}
    for n, k in SEARCHED:
        rng = random.Random(f"search-{n}-{k}-{exact}")
        for _ in range(60):
            board: Board = {}
            cells = [(r, c) for r in range(n) for c in range(n)]
            rng.shuffle(cells)
            liveness = Liveness(n, k, exact)
            for index, (row, col) in enumerate(cells):
                player = 1 if index % 2 == 0 else 2
                board[row, col] = player
                if wins(board, n, k, exact, row, col, player):
                    break  # the game is over: no question of a draw
                liveness.played(owner_of(board), row, col, player)
                empty = n * n - len(board)
                if empty > 9 or not empty:
                    continue  # the search is of the last nine empty cells
                to_move = 2 if player == 1 else 1
                dead = liveness.dead(empty, to_move)
                assert dead == (not someone_can_win(n, k, exact, board, to_move)), (n, k, board)
                answers[dead] += 1
    assert answers[True] > 50, answers
    assert answers[False] > 50, answers
