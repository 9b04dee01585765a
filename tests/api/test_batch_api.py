"""Batch endpoints: answers in request order, equal to the single endpoints; limits; bad items."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rules.reversi import OPENING
from app.settings import Settings
from tests.api.problems import assert_validation_error
from tests.rules.reference import reversi_flips


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    """One app for the module's tests (conftest's ``module_client``)."""
    return module_client


def test_check_moves_answers_each_query_in_order_like_check_move(client: TestClient) -> None:
    rng = random.Random(2)
    board = ["".join(rng.choices(".BW", k=9)) for _ in range(7)]
    queries = [
        {"row": rng.randrange(7), "col": rng.randrange(9), "color": rng.choice("BW")}
        for _ in range(300)
    ]
    response = client.post("/v1/reversi/check-moves", json={"board": board, "queries": queries})
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == len(queries)
    for query, result in zip(queries, results, strict=True):
        single = client.post("/v1/reversi/check-move", json={"board": board, **query}).json()
        assert result == single
        expected = reversi_flips(board, query["row"], query["col"], query["color"])
        assert result["flips"] == [list(cell) for cell in expected]


def test_validate_batch_answers_each_item_in_order_like_validate(client: TestClient) -> None:
    items = [
        {"board": ["XOX", "O O", "XOX"]},
        {"board": ["XXX", "OO.", "O.."]},
        {"board": [["X", "X", "X"], ["O", "O", "."], [".", ".", "."]], "k": 2},
        {"board": ["X"]},
        {"board": ["XXXXO", "OO.OO", ".....", "XXXXO", "O...."], "k": 4},
    ]
    response = client.post("/v1/tictactoe/validate-batch", json={"items": items})
    assert response.status_code == 200
    results = response.json()["results"]
    assert results == [client.post("/v1/tictactoe/validate", json=item).json() for item in items]
    assert [r["reason"] for r in results] == [
        None,
        "x_won_but_o_moved",
        "both_won",
        None,
        "play_after_win",
    ]


def test_batches_up_to_the_default_limit_of_1000(client: TestClient) -> None:
    queries = [{"row": 2, "col": 3, "color": "B"}] * 1000
    response = client.post(
        "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": queries}
    )
    assert len(response.json()["results"]) == 1000
    too_many = client.post(
        "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": [*queries, queries[0]]}
    )
    assert_validation_error(too_many, "body", "queries")
    items = [{"board": ["X"]}] * 1001
    assert_validation_error(
        client.post("/v1/tictactoe/validate-batch", json={"items": items}), "body", "items"
    )


def test_batch_limit_comes_from_settings() -> None:
    with TestClient(create_app(Settings(max_batch=3))) as client:
        ok = client.post("/v1/tictactoe/validate-batch", json={"items": [{"board": ["X"]}] * 3})
        refused = client.post(
            "/v1/tictactoe/validate-batch", json={"items": [{"board": ["X"]}] * 4}
        )
    assert ok.status_code == 200
    body = assert_validation_error(refused, "body", "items")
    assert "at most 3" in body["detail"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"row": 8, "col": 0, "color": "B"}, "row"),
        ({"row": 0, "col": 8, "color": "B"}, "col"),
        ({"row": -1, "col": 0, "color": "B"}, "row"),
        ({"row": 0, "col": 0, "color": "x"}, "color"),
        ({"row": "0", "col": 0, "color": "B"}, "row"),
    ],
)
def test_one_bad_query_is_a_422_naming_its_index(
    client: TestClient, query: dict[str, object], field: str
) -> None:
    good = {"row": 2, "col": 3, "color": "B"}
    payload = {"board": list(OPENING), "queries": [good, good, good, query, good]}
    response = client.post("/v1/reversi/check-moves", json=payload)
    assert_validation_error(response, "body", "queries", 3, field)


@pytest.mark.parametrize(
    ("item", "loc"),
    [
        ({"board": ["XO", "O"]}, ("board",)),
        ({"board": ["X.", "x."]}, ("board", 1)),
        ({"board": ["X"], "k": 2}, ("k",)),
        ({"k": 1}, ("board",)),
    ],
)
def test_one_bad_item_is_a_422_naming_its_index(
    client: TestClient, item: dict[str, object], loc: tuple[str | int, ...]
) -> None:
    payload = {"items": [{"board": ["X"]}, item]}
    response = client.post("/v1/tictactoe/validate-batch", json=payload)
    assert_validation_error(response, "body", "items", 1, *loc)


@pytest.mark.parametrize(
    ("path", "payload", "field"),
    [
        ("/v1/reversi/check-moves", {"board": list(OPENING), "queries": []}, "queries"),
        ("/v1/reversi/check-moves", {"board": list(OPENING)}, "queries"),
        ("/v1/reversi/check-moves", {"board": list(OPENING), "queries": {"row": 1}}, "queries"),
        ("/v1/tictactoe/validate-batch", {"items": []}, "items"),
        ("/v1/tictactoe/validate-batch", {"items": "XOX"}, "items"),
    ],
)
def test_empty_or_malformed_batches_are_refused(
    client: TestClient, path: str, payload: dict[str, object], field: str
) -> None:
    assert_validation_error(client.post(path, json=payload), "body", field)
