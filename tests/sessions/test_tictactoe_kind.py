"""The tic-tac-toe kind: rule checks, refusals that change nothing, win and draw, encoding."""

from __future__ import annotations

import copy
import gc
import pkgutil

import pytest

from app.rules.errors import RuleError
from app.sessions import kinds
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds
from app.sessions.kind import Placement, Player
from app.sessions.kinds import KINDS, find_kind
from app.sessions.kinds.tictactoe import TicTacToe


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
    assert modules == {"tictactoe", "reversi"}
    assert {kind.name for kind in KINDS} == {"tictactoe", "reversi"}
    assert find_kind("tictactoe").name == "tictactoe"
    with pytest.raises(KeyError):
        find_kind("chess")
