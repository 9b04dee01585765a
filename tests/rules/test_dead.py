"""Dead positions (``app/rules/dead.py``): the open windows kept move by move, and taken back,
are those a slow reference counts on the whole board (every n and k up to 8 × 8, exact-k and
k-or-more, random games and any order of moves and takebacks); on small boards "dead" is what an
exhaustive search of every way the game can go on says: no sequence of legal moves completes a
line for either player; and on a board of 10⁶ × 10⁶ a move, a takeback and the question cost as
much at k = 500,000 and k = n as at k = 5 (the board's cells read, the memory kept)."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def reference_dead(board: Board, n: int, k: int, exact: bool, to_move: int) -> bool:
    """Neither player has an open window missing no more stones than its moves left."""
    counts = reference_open(board, n, k, exact)
    empty = n * n - len(board)
    left = {to_move: (empty + 1) // 2, 3 - to_move: empty // 2}
    return not any(
        counts[player - 1][m] for player in (1, 2) for m in range(min(left[player], k) + 1)
    )


def assert_kept(liveness: Liveness, board: Board, n: int, k: int, exact: bool) -> None:
    """The open windows ``liveness`` keeps are the board's: their number for each player, and
    by misses where it keeps them."""
    counts = reference_open(board, n, k, exact)
    assert liveness.open == [sum(counts[0]), sum(counts[1])], board
    if liveness.misses is not None:
        for player in (1, 2):
            by_misses = {m: count for m, count in enumerate(counts[player - 1]) if count}
            assert liveness.misses[player - 1] == by_misses, (board, player)


CASES = [(n, k, exact) for n in range(1, 9) for k in range(1, n + 1) for exact in (False, True)]


@pytest.mark.parametrize(("n", "k", "exact"), CASES)
def test_the_open_windows_are_the_board_s_at_every_move(n: int, k: int, exact: bool) -> None:
    """Whole random games, each position asked whether it is dead as a game asks (which counts
    the misses on the whole board, where they are not kept, once they matter)."""
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
            dead = liveness.dead(n * n - len(board), 3 - player)
            assert dead == reference_dead(board, n, k, exact, 3 - player), board
            assert_kept(liveness, board, n, k, exact)
        assert liveness.misses is not None  # the last positions asked for them
        rebuilt = Liveness.of(n, k, exact, [(r, c, p) for (r, c), p in board.items()])
        assert rebuilt.open == liveness.open
        assert [rebuilt.by_misses(p) for p in (1, 2)] == [liveness.by_misses(p) for p in (1, 2)]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(1, 7), exact=st.booleans())
def test_moves_and_takebacks_keep_the_board_s_windows(
    data: st.DataObject, n: int, exact: bool
) -> None:
    """Moves and takebacks (of the last stone) in any order: after each, the counts are the
    board's and ``dead`` is the reference's, for every k, whether the misses were counted before
    (then kept through the takebacks), now, or not yet."""
    k = data.draw(st.integers(1, n), label="k")
    liveness = Liveness(n, k, exact)
    board: Board = {}
    placed: list[tuple[int, int, int]] = []
    for _ in range(data.draw(st.integers(0, 3 * n * n), label="steps")):
        empty = [(r, c) for r in range(n) for c in range(n) if (r, c) not in board]
        if placed and (not empty or data.draw(st.booleans(), label="take back")):
            row, col, player = placed.pop()
            liveness.played(owner_of(board), row, col, player, by=-1)  # read with the stone
            del board[row, col]
        elif empty:
            row, col = data.draw(st.sampled_from(empty), label="cell")
            player = 1 if len(placed) % 2 == 0 else 2
            board[row, col] = player
            placed.append((row, col, player))
            liveness.played(owner_of(board), row, col, player)
        to_move = 1 if len(placed) % 2 == 0 else 2
        if data.draw(st.booleans(), label="ask"):
            dead = liveness.dead(n * n - len(board), to_move)
            assert dead == reference_dead(board, n, k, exact, to_move), board
        assert_kept(liveness, board, n, k, exact)


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


BIG = 1_000_000


class Watched(dict[int, int]):
    """A count of open windows by misses that counts its reads."""

    reads = 0

    def get(self, key: int, default: int | None = None) -> int | None:  # type: ignore[override]
        Watched.reads += 1
        return super().get(key, default)

    def __getitem__(self, key: int) -> int:
        Watched.reads += 1
        return super().__getitem__(key)


def big_board_run(k: int) -> tuple[int, int, list[bool], Liveness]:
    """200 moves and takebacks near the centre of a 10⁶ × 10⁶ board, each position asked
    whether it is dead: the board's cells read (its owner function), the counts by misses the
    questions read, the answers."""
    reads = 0
    board: Board = {}

    def owner(r: int, c: int) -> int:
        nonlocal reads
        reads += 1
        return board.get((r, c), 0)

    liveness = Liveness(BIG, k)
    if liveness.misses is not None:
        liveness.misses = (Watched(liveness.misses[0]), Watched(liveness.misses[1]))
    asked = 0
    rng = random.Random(46)
    placed: list[tuple[int, int, int]] = []
    answers = []
    for _ in range(200):
        if placed and rng.random() < 0.3:
            row, col, player = placed.pop()
            liveness.played(owner, row, col, player, by=-1)
            del board[row, col]
        else:
            row, col = BIG // 2 + rng.randrange(-8, 8), BIG // 2 + rng.randrange(-8, 8)
            if (row, col) in board:
                continue
            player = 1 if len(placed) % 2 == 0 else 2
            board[row, col] = player
            placed.append((row, col, player))
            liveness.played(owner, row, col, player)
        Watched.reads = 0
        answers.append(liveness.dead(BIG * BIG - len(board), 1 if len(placed) % 2 == 0 else 2))
        asked += Watched.reads
    return reads, asked, answers, liveness


def test_a_move_and_a_takeback_cost_as_much_at_any_k() -> None:
    """k = 5, k = 500,000 and k = n alike: no move or takeback reads the board, the windows
    around the stone being counted from each player's sorted stones (or, k = n, its lines); the
    question reads no count by misses, every player having k moves left and more; the misses are
    never counted on so large a board."""
    runs = {k: big_board_run(k) for k in (5, 500_000, BIG)}
    for k, (cells_read, misses_read, answers, liveness) in runs.items():
        assert (cells_read, misses_read) == (0, 0), k
        assert not any(answers), k  # so large a board stays alive
        if k < BIG:
            assert liveness.misses is None, k
    assert runs[5][3].open != runs[500_000][3].open  # the windows were counted all the same


@pytest.mark.parametrize(("k", "exact"), [(5, False), (500_000, False), (BIG, False), (5, True)])
def test_a_board_s_liveness_takes_no_memory_in_k(k: int, exact: bool) -> None:
    tracemalloc.start()
    try:
        liveness = Liveness(BIG, k, exact)
        liveness.played(lambda r, c: 0, 0, 0, 1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024, peak
