"""``POST /v1/reversi/apply-move`` given a game's moves (API.md part 2, "Transcripts in the
stateless API"): real tournament games of the WTHOR database (1988, ``tests/data/``) sent as
transcripts and as lists, every answer compared with the slow reference of
``tests/rules/reference.py`` — the board, the score, who moves, the pass, the end — and the
final score with the one the federation stored; the first illegal move named by its index."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.records.wthor import WthorGame, read_wthor
from app.rules.reversi import OPENING
from tests.api.problems import assert_problem, assert_validation_error
from tests.records.test_wthor import MAX, START, YEAR_1988, cell, federation_score
from tests.rules.reference import othello_square, reversi_flips, reversi_moves, reversi_play

OTHER = {"B": "W", "W": "B"}


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    return module_client


def games(count: int, seed: int) -> list[WthorGame]:
    _, every = read_wthor(YEAR_1988, MAX)
    return random.Random(seed).sample(list(every), count)


def reference(grid: list[str], color: str, moves: list[tuple[int, int]]) -> dict[str, Any]:
    """apply-move's answer for the last of ``moves`` played from ``grid``, ``color`` first,
    passes inferred: worked out cell by cell with the slow reference."""
    assert moves
    to_move: str | None = color if reversi_moves(grid, color) else OTHER[color]
    for row, col in moves:
        assert to_move is not None, "a move after the end"
        assert reversi_flips(grid, row, col, to_move), "an illegal move"
        flips = sorted(reversi_flips(grid, row, col, to_move))
        grid, mover = reversi_play(grid, row, col, to_move), to_move
        if reversi_moves(grid, OTHER[mover]):
            to_move, passed = OTHER[mover], False
        elif reversi_moves(grid, mover):
            to_move, passed = mover, True
        else:
            to_move, passed = None, False
    text = "".join(grid)
    black, white = text.count("B"), text.count("W")
    over = to_move is None
    winner = None if not over else "B" if black > white else "W" if white > black else "draw"
    empty = text.count(".")
    final = None
    if over:
        final = {
            "B": black + (empty if winner == "B" else empty // 2 if winner == "draw" else 0),
            "W": white + (empty if winner == "W" else empty // 2 if winner == "draw" else 0),
        }
    return {
        "board": grid,
        "flips": [list(flip) for flip in flips],
        "flip_squares": [othello_square(*flip) for flip in flips],
        "next": to_move,
        "passed": passed,
        "game_over": over,
        "score": {"B": black, "W": white},
        "winner": winner,
        "final_score": final,
    }


@pytest.mark.parametrize("written", ["transcript", "list"])
def test_real_games_from_the_standard_start_answer_as_the_reference(
    client: TestClient, written: str
) -> None:
    for game in games(25, seed=len(written)):
        moves: Any = "".join(game.moves) if written == "transcript" else list(game.moves)
        response = client.post("/v1/reversi/apply-move", json={"moves": moves})
        assert response.status_code == 200, response.text
        answer = response.json()
        assert answer == reference(list(START), "B", [cell(square) for square in game.moves])
        if answer["game_over"]:  # the federation's stored score is Black's final score
            assert answer["final_score"]["B"] == federation_score(answer["board"])
            assert answer["final_score"]["B"] == game.stored_score


def test_every_prefix_of_a_game_is_the_position_after_it(client: TestClient) -> None:
    (game,) = games(1, seed=7)
    cells = [cell(square) for square in game.moves]
    for length in range(1, len(game.moves) + 1):
        written = " ".join(game.moves[:length]).upper()  # spaces and upper case are read
        response = client.post("/v1/reversi/apply-move", json={"moves": written})
        assert response.json() == reference(list(START), "B", cells[:length])


def test_a_game_with_passes_is_played_with_them_inferred(client: TestClient) -> None:
    _, every = read_wthor(YEAR_1988, MAX)
    with_a_pass = []
    for game in every:
        grid, color = list(START), "B"
        for square in game.moves:
            row, col = cell(square)
            if not reversi_flips(grid, row, col, color):
                with_a_pass.append(game)
                break
            grid, color = reversi_play(grid, row, col, color), OTHER[color]
        if len(with_a_pass) == 5:
            break
    assert len(with_a_pass) == 5, "1988 has games with passes"
    for game in with_a_pass:
        response = client.post("/v1/reversi/apply-move", json={"moves": "".join(game.moves)})
        assert response.json() == reference(list(START), "B", [cell(s) for s in game.moves])


def test_moves_from_a_posted_board_start_with_the_posted_colour(client: TestClient) -> None:
    grid = list(OPENING)
    white_first = [(3, 5), (2, 5)]  # f4 by White, f3 by Black (``reference`` checks them)
    moves = [othello_square(row, col) for row, col in white_first]
    response = client.post(
        "/v1/reversi/apply-move", json={"board": grid, "color": "W", "moves": moves}
    )
    assert response.json() == reference(grid, "W", white_first)


def test_a_colour_that_cannot_move_first_passes(client: TestClient) -> None:
    grid = [".WBB"]  # White has no move; Black plays a1
    assert not reversi_moves(grid, "W")
    response = client.post(
        "/v1/reversi/apply-move", json={"board": grid, "color": "W", "moves": "a1"}
    )
    assert response.json() == reference(grid, "W", [(0, 0)])


def test_the_first_illegal_move_is_named_by_its_index(client: TestClient) -> None:
    (game,) = games(1, seed=3)
    grid, color, index = list(START), "B", 20
    for square in game.moves[:index]:
        row, col = cell(square)
        if not reversi_flips(grid, row, col, color):
            color = OTHER[color]
        grid, color = reversi_play(grid, row, col, color), OTHER[color]
    if not reversi_moves(grid, color):
        color = OTHER[color]
    wrong = next(
        (r, c) for r in range(8) for c in range(8)
        if grid[r][c] == "." and not reversi_flips(grid, r, c, color)
    )  # fmt: skip
    moves = [*game.moves[:index], othello_square(*wrong), *game.moves[index:]]
    response = client.post("/v1/reversi/apply-move", json={"moves": moves})
    body = assert_problem(response, 422, "illegal_move")
    assert (body["index"], body["square"], body["reason"]) == (
        index, othello_square(*wrong), "no_bracket"
    )  # fmt: skip
    assert (body["row"], body["col"], body["color"]) == (*wrong, color)
    occupied = [*game.moves[:index], game.moves[0]]
    body = assert_problem(
        client.post("/v1/reversi/apply-move", json={"moves": occupied}), 422, "illegal_move"
    )
    assert (body["index"], body["reason"]) == (index, "occupied")


def test_a_move_after_the_end_is_refused_as_game_over(client: TestClient) -> None:
    response = client.post("/v1/reversi/apply-move", json={"board": ["BW..."], "moves": "c1d1"})
    body = assert_problem(response, 422, "illegal_move")
    assert (body["index"], body["square"], body["reason"], body["color"]) == (
        1, "d1", "game_over", None
    )  # fmt: skip


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"moves": "f5", "row": 2}, ("body", "row")),
        ({"moves": "f5", "square": "d3"}, ("body", "square")),
        ({"moves": ""}, ("body", "moves")),
        ({"moves": []}, ("body", "moves")),
        ({"moves": "f5z9"}, ("body", "moves")),
        ({"moves": "f5 pa"}, ("body", "moves")),
        ({"moves": "f5,d6"}, ("body", "moves")),
        ({"moves": ["f5", "d"]}, ("body", "moves", 1)),
        ({"moves": ["f5", "i1"]}, ("body", "moves", 1)),
        ({"moves": ["f5", 7]}, ("body", "moves", 1)),
        ({"moves": "a1", "board": ["." * 28, "." * 28]}, ("body", "moves")),
        ({"moves": "f5" * 65}, ("body", "moves")),  # more moves than the board has squares
        ({"moves": ["f5"] * 65}, ("body", "moves")),
        ({"moves": ["f5"] * 833}, ("body", "moves")),
        ({"moves": ["f5", "f55555555555555555555"]}, ("body", "moves", 1)),
        ({"moves": 5}, ("body", "moves")),
        ({"moves": "f\u0665d6"}, ("body", "moves")),  # a non-ASCII digit
        ({"moves": "f5\x00d6"}, ("body", "moves")),  # a control character
        ({"moves": ["f\uff15"]}, ("body", "moves", 0)),  # a full-width digit
        ({"moves": "f5" * 400_000}, ("body", "moves")),  # under the body limit
        ({"row": 2, "col": 3}, ("body", "board")),
        ({"moves": "f5", "color": "X"}, ("body", "color")),
    ],
)
def test_moves_that_cannot_be_read_are_a_validation_error(
    client: TestClient, body: dict[str, Any], where: tuple[Any, ...]
) -> None:
    assert_validation_error(client.post("/v1/reversi/apply-move", json=body), *where)
