"""Early draw (``"early_draw": true``) through live sessions on every store: random games of
tic-tac-toe (k = n and k < n) and of gomoku freestyle and standard on small boards, each answer
compared with the slow reference of ``tests/rules/test_dead.py`` (every window of the board
counted; its rule checked there against an exhaustive search): a game ends drawn with ``reason``
``dead_position`` exactly when neither player can still complete a line, and not before."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.problems import assert_problem
from tests.rules.test_dead import reference_open, wins

GAMES = [
    ({"n": 3}, 3, 3, False),
    ({"n": 4, "k": 3}, 4, 3, False),
    ({"n": 4}, 4, 4, False),
    ({"n": 5, "k": 4}, 5, 4, False),
    ({"game": "gomoku", "size": 5}, 5, 5, False),
    ({"game": "gomoku", "size": 6}, 6, 5, False),
    ({"game": "gomoku", "rule": "standard", "size": 5}, 5, 5, True),
    ({"game": "gomoku", "rule": "standard", "size": 7}, 7, 5, True),
]


@pytest.fixture(scope="module")
def client(module_store_client: TestClient) -> TestClient:
    return module_store_client


def reference_dead(board: dict[tuple[int, int], int], n: int, k: int, exact: bool,
                   to_move: int) -> bool:  # fmt: skip
    counts = reference_open(board, n, k, exact)
    empty = n * n - len(board)
    left = {to_move: (empty + 1) // 2, 3 - to_move: empty // 2}
    return not any(
        counts[player - 1][m] for player in (1, 2) for m in range(min(left[player], k) + 1)
    )


@pytest.mark.parametrize(("body", "n", "k", "exact"), GAMES)
def test_random_games_end_dead_exactly_when_the_reference_says(
    client: TestClient, body: dict[str, Any], n: int, k: int, exact: bool
) -> None:
    rng = random.Random(f"{body}")
    endings: dict[str, int] = {}
    for _ in range(8):
        created = client.post("/v1/games", json={**body, "early_draw": True})
        assert created.status_code == 201, created.text
        game = created.json()
        assert game["early_draw"] is True
        board: dict[tuple[int, int], int] = {}
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        for index, (row, col) in enumerate(cells):
            player = 1 if index % 2 == 0 else 2
            auth = {"Authorization": f"Bearer {game['tokens'][str(player)]}"}
            answer = client.post(f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
                                 headers=auth)  # fmt: skip
            assert answer.status_code == 201, answer.text
            state = answer.json()["state"]
            board[row, col] = player
            if wins(board, n, k, exact, row, col, player):
                expected = ("won", player, "line")
            elif len(board) == n * n:
                expected = ("draw", 0, "board_full")
            elif reference_dead(board, n, k, exact, 3 - player):
                expected = ("draw", 0, "dead_position")
            else:
                expected = ("in_progress", 0, None)
            assert (state["status"], state["winner"], state["reason"]) == expected, board
            if state["status"] != "in_progress":
                endings[state["reason"]] = endings.get(state["reason"], 0) + 1
                break
        if state["reason"] == "dead_position":  # over: a later move is refused, saying why
            other = next(cell for cell in cells if cell not in board)
            auth = {"Authorization": f"Bearer {game['tokens'][str(3 - player)]}"}
            late = client.post(f"/v1/games/{game['id']}/moves",
                               json={"row": other[0], "col": other[1]}, headers=auth)  # fmt: skip
            problem = assert_problem(late, 409, "game_over")
            assert problem["reason"] == "dead_position"
            assert "no line could still be completed" in problem["detail"]
            assert client.get(f"/v1/games/{game['id']}/legal-moves").json()["count"] == 0
    assert endings, "no game ended"


def test_every_kind_and_rule_meets_a_dead_position(client: TestClient) -> None:
    """A 3 × 3 game blocked on every line before the board is full: X b2, O a1, X a3, O c1,
    X b1, O b3, X c2, O a2 leaves c3 empty and no line anyone can complete."""
    game = client.post("/v1/games", json={"n": 3, "early_draw": True}).json()
    for index, square in enumerate(["b2", "a1", "a3", "c1", "b1", "b3", "c2", "a2"]):
        player = 1 if index % 2 == 0 else 2
        auth = {"Authorization": f"Bearer {game['tokens'][str(player)]}"}
        answer = client.post(f"/v1/games/{game['id']}/moves", json={"square": square},
                             headers=auth).json()  # fmt: skip
    assert (answer["state"]["status"], answer["state"]["reason"]) == ("draw", "dead_position")
    plain = client.post("/v1/games", json={"n": 3}).json()
    assert "early_draw" not in plain


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"n": 3, "early_draw": "true"}, ["body", "early_draw"]),
        ({"n": 3, "early_draw": 1}, ["body", "early_draw"]),
        ({"n": 3, "early_draw": None}, ["body", "early_draw"]),
        ({"n": 3, "early_draw": 10**30}, ["body", "early_draw"]),
        ({"n": 3, "early_draw": "true\u0000"}, ["body", "early_draw"]),
        ({"n": 3, "early_draw": "\u0661"}, ["body", "early_draw"]),  # an Arabic-Indic 1
        ({"game": "gomoku", "rule": "renju", "early_draw": True}, ["body", "early_draw"]),
        ({"game": "gomoku", "rule": "caro", "early_draw": True}, ["body", "early_draw"]),
        ({"game": "gomoku", "early_draw": [True]}, ["body", "early_draw"]),
        ({"game": "reversi", "early_draw": True}, ["body", "early_draw"]),
    ],
)  # fmt: skip
def test_an_early_draw_that_does_not_hold_is_refused(
    client: TestClient, body: dict[str, Any], where: list[Any]
) -> None:
    problem = assert_problem(client.post("/v1/games", json=body), 422, "validation_error")
    assert problem["errors"][0]["loc"] == where, problem
