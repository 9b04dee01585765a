"""The tic-tac-toe kind: rule checks, refusals that change nothing, win and draw, encoding, and
its legal moves a page at a time (every empty cell), at a cost that never grows with n²."""

from __future__ import annotations

import copy
import gc
import pkgutil

import pytest

from app import kinds
from app.kinds import KINDS, find_kind
from app.kinds.tictactoe import TicTacToe
from app.rules.errors import RuleError
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds
from app.sessions.kind import LegalMoves, Placement, Player


def play(game: TicTacToe, row: int, col: int, player: Player) -> int:
    """Play a move; the winner after it (0 while nobody has won)."""
    game.play(Placement(row, col), player)
    return game.winner


def snapshot(game: TicTacToe) -> tuple[object, ...]:
    return (
        game.moves(0, game.move_count),
        game.status,
        game.winner,
        dict(game.lines.cells),
        dict(game.lines.rows),
        dict(game.lines.columns),
        game.lines.diagonal,
        game.lines.anti_diagonal,
    )


def test_classic_game_reports_winner_only_on_the_winning_move() -> None:
    game = TicTacToe(3)
    moves: list[tuple[int, int, Player]] = [
        (0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 1),
    ]  # fmt: skip
    assert [play(game, r, c, p) for r, c, p in moves] == [0, 0, 0, 0, 0, 0, 1]
    assert (game.status, game.winner, game.next_player, game.move_count) == ("won", 1, None, 7)
    assert game.rows() == ["X.O", "OO.", "XXX"]


def test_filling_the_board_without_a_line_is_a_draw() -> None:
    game = TicTacToe(3)
    for i, (r, c) in enumerate(
        [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    ):
        winner = play(game, r, c, 1 if i % 2 == 0 else 2)
    assert (game.status, winner, game.next_player) == ("draw", 0, None)


@pytest.mark.parametrize(
    ("row", "col", "player", "error"),
    [
        (3, 0, 2, OutOfBounds),
        (0, -1, 2, OutOfBounds),
        (1, 1, 1, NotYourTurn),
        (0, 0, 2, CellOccupied),
    ],
)
def test_refused_move_changes_nothing(row: int, col: int, player: Player, error: type) -> None:
    game = TicTacToe(3)
    play(game, 0, 0, 1)
    before = snapshot(game)
    with pytest.raises(error):
        play(game, row, col, player)
    assert snapshot(game) == before


def test_no_move_after_the_game_is_over() -> None:
    game = TicTacToe(1)
    assert play(game, 0, 0, 1) == 1
    before = copy.deepcopy(snapshot(game))
    with pytest.raises(GameOver) as refused:
        play(game, 0, 0, 2)
    assert snapshot(game) == before
    assert isinstance(refused.value, RuleError)
    assert refused.value.code == "game_over"


def test_turn_is_checked_before_occupancy() -> None:
    game = TicTacToe(3)
    play(game, 1, 1, 1)
    with pytest.raises(NotYourTurn):
        play(game, 1, 1, 1)


def test_a_huge_game_costs_memory_per_move_only() -> None:
    game = TicTacToe(1_000_000)
    for i in range(25):
        play(game, i * 1000, (i * 7919) % 1_000_000, 1 if i % 2 == 0 else 2)
    assert len(game.lines.cells) == 25
    assert len(game.lines.rows) == 25


def test_stored_moves_give_the_cycle_collector_nothing_to_walk() -> None:
    # One GC-tracked object per move made every full collection slower as games grew.
    game = TicTacToe(1000)
    play(game, 999, 999, 1)
    gc.collect()
    before = len(gc.get_objects())
    for i in range(1, 2000):
        play(game, i // 1000, i % 1000, 1 if i % 2 == 0 else 2)
    gc.collect()
    assert len(gc.get_objects()) - before < 20  # not one per move
    assert game.moves(1998, 10) == [game.move(1999), game.move(2000)]
    assert game.move(2000).player == 2


def test_a_position_and_its_moves_come_back_from_their_text() -> None:
    kind = find_kind("tictactoe")
    game = kind.new({"n": 3})
    for i, (r, c) in enumerate([(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)]):
        game.play(Placement(r, c), 1 if i % 2 == 0 else 2)
    again = kind.decode({"n": 3}, game.encode())
    assert (again.rows(), again.status, again.winner, again.next_player) == (
        game.rows(), game.status, game.winner, game.next_player,
    )  # fmt: skip
    for move in game.moves(0, 10):
        assert kind.decode_move(move.seq, kind.encode_move(move)) == move


def test_the_registry_finds_every_kind_module_by_its_name() -> None:
    modules = {module.name for module in pkgutil.iter_modules(kinds.__path__)}
    assert modules == {"tictactoe", "reversi", "gomoku", "connect4"}
    assert {kind.name for kind in KINDS} == {"tictactoe", "reversi", "gomoku", "connect4"}
    assert find_kind("tictactoe").name == "tictactoe"
    with pytest.raises(KeyError):
        find_kind("chess")


# --- legal moves: every empty cell, row-major, a page at a time --------------------------------


def cells(page: LegalMoves) -> list[tuple[int, int]]:
    return [(cell.row, cell.col) for cell in (Placement.of(m.played) for m in page.moves)]


class CountedCells(dict[int, Player]):
    """The occupied cells, counting how often a page asks about one."""

    asked = 0

    def __contains__(self, index: object) -> bool:
        self.asked += 1
        return super().__contains__(index)


def test_every_empty_cell_is_legal_in_row_major_order() -> None:
    game = TicTacToe(3)
    everything = [(r, c) for r in range(3) for c in range(3)]
    fresh = game.legal_moves(-1, 100)
    assert (cells(fresh), fresh.count, fresh.next_after) == (everything, 9, None)
    play(game, 1, 1, 1)
    play(game, 0, 2, 2)
    after = game.legal_moves(-1, 100)
    assert cells(after) == [cell for cell in everything if cell not in {(1, 1), (0, 2)}]
    assert (after.count, after.next_after) == (7, None)
    assert all(m.facts is None for m in after.moves)  # a cell says all there is


def test_pages_join_to_the_whole_list_and_the_last_page_says_so() -> None:
    game = TicTacToe(4)
    for i, (r, c) in enumerate([(0, 1), (0, 2), (1, 0), (3, 3)]):
        play(game, r, c, 1 if i % 2 == 0 else 2)
    whole = cells(game.legal_moves(-1, 100))
    for limit in range(1, 14):
        joined, after, pages = [], -1, 0
        while True:
            page = game.legal_moves(after, limit)
            assert page.count == 12
            joined += cells(page)
            pages += 1
            if page.next_after is None:
                break
            assert page.next_after == 4 * joined[-1][0] + joined[-1][1]  # its last cell
            after = page.next_after
        assert joined == whole
        assert pages == -(-12 // limit)  # no empty last page: the cursor is None at once


def test_a_cursor_between_or_past_the_cells_starts_after_it() -> None:
    game = TicTacToe(3)
    play(game, 0, 2, 1)
    assert cells(game.legal_moves(1, 2)) == [(1, 0), (1, 1)]  # (0, 2) is taken: skipped
    assert cells(game.legal_moves(2, 2)) == [(1, 0), (1, 1)]
    page = game.legal_moves(8, 5)
    assert (cells(page), page.count, page.next_after) == ([], 8, None)
    assert cells(game.legal_moves(2**53, 5)) == []


def test_no_legal_move_once_the_game_is_over() -> None:
    game = TicTacToe(1)
    play(game, 0, 0, 1)
    page = game.legal_moves(-1, 10)
    assert (list(page.moves), page.count, page.next_after) == ([], 0, None)


def test_a_page_of_a_huge_board_costs_its_cells_and_the_marks_it_skips() -> None:
    game = TicTacToe(1_000_000, 5)
    for col in range(0, 40, 2):  # 20 marks at the start of the first row, every other cell
        play(game, 0, col, game.next_player or 1)
    counted = CountedCells(game.lines.cells)
    game.lines.cells = counted
    page = game.legal_moves(-1, 100)
    assert cells(page)[:3] == [(0, 1), (0, 3), (0, 5)]
    assert cells(page)[-1] == (0, 119)
    assert (page.count, page.next_after) == (10**12 - 20, 119)
    assert counted.asked <= 100 + 20 + 1  # the page, the marks it skipped, one more to peek
    last = game.legal_moves(10**12 - 3, 100)
    assert (cells(last), last.next_after) == ([(999_999, 999_998), (999_999, 999_999)], None)
