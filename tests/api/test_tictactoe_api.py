"""The tic-tac-toe position check over HTTP, against the contract's fields."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from tests.api.problems import assert_validation_error
from tests.rules.reference import reachable_backward


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    """One app for the module's tests (conftest's ``module_client``)."""
    return module_client


def test_classic_board_with_spaces_is_valid_and_x_to_move(client: TestClient) -> None:
    response = client.post("/v1/tictactoe/validate", json={"board": ["XOX", "O O", "XOX"]})
    assert response.status_code == 200
    assert response.json() == {
        "valid": True,
        "reason": None,
        "status": "in_progress",
        "next": "X",
        "winner": None,
        "counts": {"X": 4, "O": 4},
    }


def test_list_of_cells_form_and_dot_for_empty(client: TestClient) -> None:
    board = [["X", "X", "X"], ["O", "O", "."], [".", " ", "."]]
    response = client.post("/v1/tictactoe/validate", json={"board": board})
    assert response.json() == {
        "valid": True,
        "reason": None,
        "status": "x_won",
        "next": None,
        "winner": "X",
        "counts": {"X": 3, "O": 2},
    }


@pytest.mark.parametrize(
    ("board", "reason"),
    [
        (["XX.", "...", "..."], "bad_counts"),
        (["XXX", "OOO", "X.."], "both_won"),
        (["XXX", "OO.", "O.."], "x_won_but_o_moved"),
        (["OOO", "XX.", "X.X"], "o_won_but_x_moved"),
    ],
)
def test_invalid_positions_say_why_and_null_the_rest(
    client: TestClient, board: list[str], reason: str
) -> None:
    body = client.post("/v1/tictactoe/validate", json={"board": board}).json()
    assert (body["valid"], body["reason"]) == (False, reason)
    assert body["status"] is body["next"] is body["winner"] is None


def test_draw_on_a_full_board(client: TestClient) -> None:
    body = client.post("/v1/tictactoe/validate", json={"board": ["XOX", "XOO", "OXX"]}).json()
    assert (body["valid"], body["status"], body["next"], body["winner"]) == (
        True,
        "draw",
        None,
        None,
    )


def test_k_in_a_row_on_a_larger_board(client: TestClient) -> None:
    board = ["XXX..", "OO...", ".....", ".....", "....."]
    won = client.post("/v1/tictactoe/validate", json={"board": board, "k": 3}).json()
    assert (won["status"], won["winner"]) == ("x_won", "X")
    default_k = client.post("/v1/tictactoe/validate", json={"board": board}).json()
    assert (default_k["status"], default_k["next"]) == ("in_progress", "O")


def test_random_4x4_positions_agree_with_backward_search(client: TestClient) -> None:
    rng = random.Random(11)
    memo: dict[tuple[str, ...], bool] = {}
    for _ in range(150):
        k = rng.randint(2, 4)
        board = tuple("".join(rng.choices("XO..", k=4)) for _ in range(4))
        body = client.post("/v1/tictactoe/validate", json={"board": list(board), "k": k}).json()
        assert body["valid"] == reachable_backward(board, k, memo)


def test_largest_board_is_accepted(client: TestClient) -> None:
    board = ["." * 100] * 100
    body = client.post("/v1/tictactoe/validate", json={"board": board, "k": 5}).json()
    assert (body["valid"], body["next"]) == (True, "X")


@pytest.mark.parametrize(
    ("payload", "loc"),
    [
        ({"board": ["XO", "O"]}, ("body", "board")),
        ({"board": ["XO."]}, ("body", "board")),
        ({"board": ["X.", "x."]}, ("body", "board", 1)),
        ({"board": ["." * 101] * 101}, ("body", "board")),
        ({"board": ["X"], "k": 2}, ("body", "k")),
        ({"board": ["X"], "k": 0}, ("body", "k")),
        ({"board": ["X"], "k": "1"}, ("body", "k")),
        ({"board": ["X"], "k": 1.5}, ("body", "k")),
    ],
)
def test_bad_boards_and_k_name_the_field(
    client: TestClient, payload: dict[str, object], loc: tuple[str | int, ...]
) -> None:
    assert_validation_error(client.post("/v1/tictactoe/validate", json=payload), *loc)
