"""The Game aggregate: rule checks, refusals that change nothing, win and draw."""

from __future__ import annotations

import copy
import gc

import pytest

from app.rules.errors import RuleError
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds
from app.sessions.game import Game


def new_game(n: int = 3) -> Game:
    return Game("g", n, ("h1", "h2"))


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.moves(),
        game.status,
        game.winner,
        dict(game.lines.cells),
        dict(game.lines.rows),
        dict(game.lines.columns),
        game.lines.diagonal,
        game.lines.anti_diagonal,
    )


def test_classic_game_reports_winner_only_on_the_winning_move() -> None:
    game = new_game()
    moves = [(0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 1)]
    assert [game.play(r, c, p).winner for r, c, p in moves] == [0, 0, 0, 0, 0, 0, 1]  # type: ignore[arg-type]
    state = game.state()
    assert (state.status, state.winner, state.next_player, state.version) == ("won", 1, None, 7)
    assert game.rows() == ["X.O", "OO.", "XXX"]


def test_filling_the_board_without_a_line_is_a_draw() -> None:
    game = new_game()
    for i, (r, c) in enumerate(
        [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    ):
        result = game.play(r, c, 1 if i % 2 == 0 else 2)
    assert (result.state.status, result.winner, result.state.next_player) == ("draw", 0, None)


@pytest.mark.parametrize(
    ("row", "col", "player", "error"),
    [
        (3, 0, 2, OutOfBounds),
        (0, -1, 2, OutOfBounds),
        (1, 1, 1, NotYourTurn),
        (0, 0, 2, CellOccupied),
    ],
)
def test_refused_move_changes_nothing(row: int, col: int, player: int, error: type) -> None:
    game = new_game()
    game.play(0, 0, 1)
    before = snapshot(game)
    with pytest.raises(error):
        game.play(row, col, player)  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_no_move_after_the_game_is_over() -> None:
    game = new_game(1)
    assert game.play(0, 0, 1).winner == 1
    before = copy.deepcopy(snapshot(game))
    with pytest.raises(GameOver) as refused:
        game.play(0, 0, 2)
    assert snapshot(game) == before
    assert isinstance(refused.value, RuleError)
    assert refused.value.code == "game_over"


def test_turn_is_checked_before_occupancy() -> None:
    game = new_game()
    game.play(1, 1, 1)
    with pytest.raises(NotYourTurn):
        game.play(1, 1, 1)


def test_a_huge_game_costs_memory_per_move_only() -> None:
    game = Game("big", 1_000_000, ("h1", "h2"))
    for i in range(25):
        game.play(i * 1000, (i * 7919) % 1_000_000, 1 if i % 2 == 0 else 2)
    assert len(game.lines.cells) == 25
    assert len(game.lines.rows) == 25


def test_stored_moves_give_the_cycle_collector_nothing_to_walk() -> None:
    # One GC-tracked object per move made every full collection slower as games grew.
    game = Game("g", 1000, ("h1", "h2"))
    game.play(999, 999, 1)
    gc.collect()
    before = len(gc.get_objects())
    for i in range(1, 2000):
        game.play(i // 1000, i % 1000, 1 if i % 2 == 0 else 2)
    gc.collect()
    assert len(gc.get_objects()) - before < 20  # not one per move
    assert game.moves(1998) == [game.move(1999), game.move(2000)]
    assert game.move(2000).player == 2
