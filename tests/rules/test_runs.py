"""The run-length k-in-a-row detector against a full-board scan (``reference.has_k_in_row``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.runs import RunLengths
from tests.rules.reference import has_k_in_row


@st.composite
def games(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int]]]:
    """A board side, a k, and an order in which to fill some of the board's cells."""
    n = draw(st.integers(1, 9))
    k = draw(st.integers(1, n))
    cells = draw(st.permutations([(r, c) for r in range(n) for c in range(n)]))
    return n, k, cells[: draw(st.integers(0, n * n))]


@settings(max_examples=400, deadline=None)
@given(games())
def test_every_move_agrees_with_a_board_scan(game: tuple[int, int, list[tuple[int, int]]]) -> None:
    # Players alternate and keep playing past the first win, so that every stone's answer is
    # checked: until a first run of k exists, against a scan of the whole board; always,
    # against a walk of the stone's four lines.
    n, k, cells = game
    runs = RunLengths(n, k)
    grid = [["."] * n for _ in range(n)]
    someone_won = False
    for i, (r, c) in enumerate(cells):
        player = 1 if i % 2 == 0 else 2
        grid[r][c] = "X" if player == 1 else "O"
        won = runs.play(r, c, player)
        assert won == _through(grid, r, c, k), (n, k, cells[: i + 1])
        if not someone_won:
            assert won == has_k_in_row(tuple("".join(row) for row in grid), grid[r][c], k)
            someone_won = won
        assert runs.owner(r, c) == player
    assert len(runs) == len(cells)


def _through(grid: list[list[str]], r: int, c: int, k: int) -> bool:
    """Whether a run of k or more of the mark at (r, c) passes through (r, c)."""
    n, mark = len(grid), grid[r][c]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        length = 1
        for sign in (1, -1):
            i = 1
            while (
                0 <= r + sign * i * dr < n
                and 0 <= c + sign * i * dc < n
                and grid[r + sign * i * dr][c + sign * i * dc] == mark
            ):
                length += 1
                i += 1
        if length >= k:
            return True
    return False


def test_a_middle_stone_joins_two_runs_and_an_overline_wins() -> None:
    runs = RunLengths(10**6, 5)
    for col in (0, 1, 3, 4):
        assert not runs.play(7, col, 1)
    assert runs.play(7, 2, 1)  # 2 + 1 + 2
    longer = RunLengths(20, 3)
    for col in (0, 1, 3, 4):  # two runs of two, apart: no three yet
        assert not longer.play(0, col, 2)
    assert longer.play(0, 2, 2)  # five in a row: more than k also wins


def test_memory_grows_with_runs_not_with_the_board() -> None:
    runs = RunLengths(10**6, 5)
    for col in range(1000):
        runs.play(500_000, col, 1)
    # A row of 1,000 stones is one run: two ends in its direction, and a run of one stone
    # (one end) in each other direction for every stone.
    assert [len(ends) for ends in runs.ends] == [2, 1000, 1000, 1000]
