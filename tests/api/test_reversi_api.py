"""Reversi endpoints, both board forms, against the contract and the reference walk."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from app.kinds.reversi.questions import CLASSIC_BOARD
from app.rules.reversi import OPENING
from tests.api.problems import assert_problem, assert_validation_error
from tests.rules.reference import othello_square, reversi_flips, reversi_moves, reversi_play


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    """One app for the module's tests (conftest's ``module_client``)."""
    return module_client


def test_classic_board_as_lists_of_cells_is_legal(client: TestClient) -> None:
    response = client.post(
        "/v1/reversi/check-move", json={"board": CLASSIC_BOARD, "row": 4, "col": 3, "color": "B"}
    )
    assert response.status_code == 200
    grid = ["".join(row) for row in CLASSIC_BOARD]
    flips = reversi_flips(grid, 4, 3, "B")
    expected = [list(cell) for cell in flips]
    assert response.json() == {
        "legal": True, "reason": None, "flips": expected,
        "flip_squares": [othello_square(*cell) for cell in flips],
    }  # fmt: skip


def test_both_board_forms_give_the_same_answer(client: TestClient) -> None:
    as_strings = ["".join(row) for row in CLASSIC_BOARD]
    for row, col in [(4, 3), (0, 0), (5, 3)]:
        answers = [
            client.post(
                "/v1/reversi/check-move", json={"board": b, "row": row, "col": col, "color": "W"}
            ).json()
            for b in (CLASSIC_BOARD, as_strings)
        ]
        assert answers[0] == answers[1]


@pytest.mark.parametrize(("row", "col", "reason"), [(3, 3, "occupied"), (0, 0, "no_bracket")])
def test_illegal_check_move_says_why(client: TestClient, row: int, col: int, reason: str) -> None:
    body = {"board": list(OPENING), "row": row, "col": col, "color": "B"}
    response = client.post("/v1/reversi/check-move", json=body)
    assert response.json() == {"legal": False, "reason": reason, "flips": [], "flip_squares": []}


def test_legal_moves_match_reference_on_random_positions(client: TestClient) -> None:
    rng = random.Random(3)
    for _ in range(40):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        grid = ["".join(rng.choices(".BW", k=cols)) for _ in range(rows)]
        for color in ("B", "W"):
            response = client.post("/v1/reversi/legal-moves", json={"board": grid, "color": color})
            assert response.status_code == 200
            expected = [
                {"row": r, "col": c, "square": othello_square(r, c), "flips": len(flips)}
                for r, c in reversi_moves(grid, color)
                if (flips := reversi_flips(grid, r, c, color))
            ]
            assert response.json() == {
                "color": color,
                "moves": expected,
                "count": len(expected),
                "must_pass": not expected,
            }


def test_apply_move_returns_board_flips_next_and_score(client: TestClient) -> None:
    response = client.post(
        "/v1/reversi/apply-move", json={"board": list(OPENING), "row": 2, "col": 3, "color": "B"}
    )
    assert response.status_code == 200
    after = reversi_play(list(OPENING), 2, 3, "B")
    assert response.json() == {
        "board": after,
        "flips": [[3, 3]],
        "flip_squares": ["d4"],
        "next": "W",
        "passed": False,
        "game_over": False,
        "score": {"B": 4, "W": 1},
        "winner": None,
        "final_score": None,
    }


def test_apply_move_when_opponent_must_pass(client: TestClient) -> None:
    # After B takes (0, 0): "BBBW." — W brackets nothing, B can still take (0, 4).
    response = client.post(
        "/v1/reversi/apply-move", json={"board": [".WBW."], "row": 0, "col": 0, "color": "B"}
    )
    body = response.json()
    assert body["board"] == ["BBBW."]
    assert (body["next"], body["passed"], body["game_over"], body["winner"]) == (
        "B",
        True,
        False,
        None,
    )


def test_apply_move_that_ends_the_game_names_the_winner(client: TestClient) -> None:
    response = client.post(
        "/v1/reversi/apply-move", json={"board": ["BW."], "row": 0, "col": 2, "color": "B"}
    )
    assert response.json() == {
        "board": ["BBB"],
        "flips": [[0, 1]],
        "flip_squares": ["b1"],
        "next": None,
        "passed": False,
        "game_over": True,
        "score": {"B": 3, "W": 0},
        "winner": "B",
        "final_score": {"B": 3, "W": 0},
    }


def test_a_game_that_ends_with_empty_squares_gives_them_to_the_winner(client: TestClient) -> None:
    # White has no stone left: neither colour can move, and the two empty squares are Black's.
    response = client.post(
        "/v1/reversi/apply-move", json={"board": ["BW..."], "row": 0, "col": 2, "color": "B"}
    )
    body = response.json()
    assert (body["score"], body["winner"]) == ({"B": 3, "W": 0}, "B")
    assert body["final_score"] == {"B": 5, "W": 0}


def test_game_over_on_equal_stones_is_a_draw(client: TestClient) -> None:
    response = client.post(
        "/v1/reversi/apply-move",
        json={"board": [".WBW", "WWBW"], "row": 0, "col": 0, "color": "B"},
    )
    body = response.json()
    assert body["board"] == ["BBBW", "WWBW"]
    assert body["score"] == body["final_score"] == {"B": 4, "W": 4}
    assert (body["next"], body["game_over"], body["winner"]) == (None, True, "draw")


@pytest.mark.parametrize(("row", "col", "reason"), [(3, 4, "occupied"), (0, 0, "no_bracket")])
def test_illegal_apply_move_is_422_illegal_move_with_reason(
    client: TestClient, row: int, col: int, reason: str
) -> None:
    response = client.post(
        "/v1/reversi/apply-move",
        json={"board": list(OPENING), "row": row, "col": col, "color": "W"},
    )
    body = assert_problem(response, 422, "illegal_move")
    assert body["reason"] == reason


@pytest.mark.parametrize(
    ("row", "col", "field"), [(8, 0, "row"), (0, 8, "col"), (-1, 0, "row"), (0, 10**30, "col")]
)
@pytest.mark.parametrize("path", ["check-move", "apply-move"])
def test_coordinate_outside_the_board_is_a_validation_error(
    client: TestClient, path: str, row: int, col: int, field: str
) -> None:
    response = client.post(
        f"/v1/reversi/{path}", json={"board": list(OPENING), "row": row, "col": col, "color": "B"}
    )
    assert_validation_error(response, "body", field)


def test_largest_board_is_accepted(client: TestClient) -> None:
    board = ["." * 32 for _ in range(32)]
    board[15] = "." * 15 + "WB" + "." * 15
    response = client.post("/v1/reversi/legal-moves", json={"board": board, "color": "B"})
    assert response.json()["moves"] == [{"row": 15, "col": 14, "flips": 1}]
