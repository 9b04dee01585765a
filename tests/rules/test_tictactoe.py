"""The closed-form position check against forward enumeration and backward search."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import tictactoe
from app.rules.tictactoe import check_position
from tests.rules.reference import all_boards, has_k_in_row, reachable_backward, reachable_positions


@pytest.fixture(scope="module")
def reachable_3x3() -> set[tuple[str, ...]]:
    return reachable_positions(3, 3)


def test_forward_enumeration_finds_the_known_5478_positions(
    reachable_3x3: set[tuple[str, ...]],
) -> None:
    assert len(reachable_3x3) == 5478


def test_every_3x3_board_matches_forward_enumeration(reachable_3x3: set[tuple[str, ...]]) -> None:
    for grid in all_boards(3):
        verdict = check_position(grid)
        assert verdict.valid == (grid in reachable_3x3), grid
        text = "".join(grid)
        assert (verdict.x_count, verdict.o_count) == (text.count("X"), text.count("O"))
        if not verdict.valid:
            assert verdict.reason is not None
            assert verdict.status is verdict.next is verdict.winner is None
            continue
        x_won, o_won = has_k_in_row(grid, "X", 3), has_k_in_row(grid, "O", 3)
        if x_won:
            assert (verdict.status, verdict.winner, verdict.next) == ("x_won", "X", None)
        elif o_won:
            assert (verdict.status, verdict.winner, verdict.next) == ("o_won", "O", None)
        elif "." not in text:
            assert (verdict.status, verdict.winner, verdict.next) == ("draw", None, None)
        else:
            expected_next = "X" if text.count("X") == text.count("O") else "O"
            assert (verdict.status, verdict.next) == ("in_progress", expected_next)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_every_3x3_board_with_shorter_lines_matches_forward_enumeration(k: int) -> None:
    reachable = reachable_positions(3, k)
    for grid in all_boards(3):
        assert check_position(grid, k).valid == (grid in reachable), (grid, k)


@pytest.mark.parametrize(
    ("grid", "reason"),
    [
        (("XXX", "...", "..."), "bad_counts"),
        (("O..", "...", "..."), "bad_counts"),
        (("XXX", "OOO", "..."), "both_won"),
        (("XXX", "OO.", "O.."), "x_won_but_o_moved"),
        (("OOO", "XX.", "XX."), "o_won_but_x_moved"),
        (("XXX", "OOX", "OOX"), None),  # one last X at (0, 2) completes a row and a column
        (("XOX", "O.O", "XOX"), None),
    ],
)
def test_classic_3x3_verdicts(grid: tuple[str, ...], reason: str | None) -> None:
    verdict = check_position(grid)
    assert verdict.reason == reason
    assert verdict.valid == (reason is None)


def test_two_disjoint_wins_are_play_after_win() -> None:
    # Rows 0 and 3 are both complete for k = 4; no single X lies on both.
    grid = ("XXXXO", "OO.OO", ".....", "XXXXO", "O....")
    verdict = check_position(grid, 4)
    assert verdict.x_count == verdict.o_count + 1
    assert (verdict.valid, verdict.reason) == (False, "play_after_win")


def random_played_position(rng: random.Random, n: int, k: int) -> tuple[str, ...]:
    """A legal position (random game stopped at a random point), maybe mutated to an illegal one."""
    cells = [["."] * n for _ in range(n)]
    order = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(order)
    stop = rng.randint(0, n * n)
    for i, (r, c) in enumerate(order[:stop]):
        grid = tuple("".join(line) for line in cells)
        if has_k_in_row(grid, "X", k) or has_k_in_row(grid, "O", k):
            break
        cells[r][c] = "XO"[i % 2]
    for _ in range(rng.choice([0, 0, 1, 2])):  # mutations make invalid positions likely
        r, c = rng.randrange(n), rng.randrange(n)
        cells[r][c] = rng.choice("XO.")
    return tuple("".join(line) for line in cells)


@pytest.mark.parametrize(("n", "k"), [(4, 2), (4, 3), (4, 4), (5, 3), (5, 4), (5, 5)])
def test_played_and_mutated_positions_match_backward_search(n: int, k: int) -> None:
    rng = random.Random(n * 10 + k)
    memo: dict[tuple[str, ...], bool] = {}
    outcomes = set()
    for _ in range(400):
        grid = random_played_position(rng, n, k)
        expected = reachable_backward(grid, k, memo)
        verdict = check_position(grid, k)
        assert verdict.valid == expected, (grid, k)
        outcomes.add(verdict.reason)
    # The corpus exercises valid positions and several kinds of invalid ones.
    assert None in outcomes
    assert len(outcomes) >= 3


@settings(max_examples=300, deadline=None)
@given(
    st.integers(4, 5).flatmap(
        lambda n: st.tuples(
            st.lists(st.text(alphabet="XO.", min_size=n, max_size=n), min_size=n, max_size=n),
            st.integers(2, n),
        )
    )
)
def test_any_small_board_matches_backward_search(case: tuple[list[str], int]) -> None:
    grid, k = case
    assert check_position(grid, k).valid == reachable_backward(tuple(grid), k, {})


def test_large_board_with_one_winning_run_is_valid() -> None:
    n = 100
    cells = [["."] * n for _ in range(n)]
    for c in range(5):
        cells[50][10 + c] = "X"
    for c in range(4):
        cells[70][c * 3] = "O"
    verdict = check_position(["".join(line) for line in cells], 5)
    assert (verdict.valid, verdict.status, verdict.winner) == (True, "x_won", "X")


def test_run_longer_than_2k_minus_1_is_play_after_win() -> None:
    # X X X X X X X with k = 3: windows (0..2) and (4..6) are disjoint, no single last move.
    row = "XXXXXXX"
    grid = [row, "O.O.O.O", "..O.O..", *(["......."] * 4)]
    verdict = check_position(grid, 3)
    assert (verdict.valid, verdict.reason) == (False, "play_after_win")


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_small_boards_masks_and_the_line_scan_give_one_verdict_on_every_3x3_board(
    k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Boards of at most ``SMALL_SIDE`` are judged on bitmasks; the line scan judges the rest.
    Every verdict field agrees on every 3 × 3 board (and 2 × 2), whatever k."""
    boards = [*all_boards(3), *all_boards(2)]
    masks = [check_position(grid, k) for grid in boards if k <= len(grid)]
    monkeypatch.setattr(tictactoe, "SMALL_SIDE", 0)
    scanned = [check_position(grid, k) for grid in boards if k <= len(grid)]
    assert masks == scanned
