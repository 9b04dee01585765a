"""Batch endpoints: answers in request order, equal to the single endpoints; limits; bad items."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient
from pydantic_core import to_json

from app.api.batches import rendered, results
from app.main import create_app
from app.records.steps import completed
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


def random_queries(
    rng: random.Random, rows: int, cols: int, count: int, named: bool
) -> list[tuple[dict[str, object], tuple[int, int, str]]]:
    """Queries about cells of a rows × cols board (each with the cell and colour it asks
    about), some asked again, some by square name (rows counted from the top)."""
    queries: list[tuple[dict[str, object], tuple[int, int, str]]] = []
    for _ in range(count):
        if queries and rng.random() < 0.3:
            queries.append(rng.choice(queries))  # a question asked again
            continue
        row, col, color = rng.randrange(rows), rng.randrange(cols), rng.choice("BW")
        if named and rng.random() < 0.3:
            square = f"{'abcdefghijklmnopqrstuvwxyz'[col]}{row + 1}"
            queries.append(({"square": square, "color": color}, (row, col, color)))
        else:
            queries.append(({"row": row, "col": col, "color": color}, (row, col, color)))
    return queries


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 5), (8, 8), (12, 26), (32, 27), (32, 32)])
def test_check_moves_on_random_positions_answer_as_check_move_and_the_reference(
    client: TestClient, rows: int, cols: int
) -> None:
    rng = random.Random(rows * 100 + cols)
    for weights in [(1, 1, 1), (6, 1, 2)]:
        board = ["".join(rng.choices(".BW", weights, k=cols)) for _ in range(rows)]
        asked = random_queries(rng, rows, cols, 200, named=cols <= 26)
        queries = [query for query, _ in asked]
        response = client.post("/v1/reversi/check-moves", json={"board": board, "queries": queries})
        assert response.status_code == 200, response.text
        results = response.json()["results"]
        assert len(results) == len(queries)
        singles: dict[str, object] = {}
        for (query, (row, col, color)), result in zip(asked, results, strict=True):
            key = json.dumps(query, sort_keys=True)
            if key not in singles:
                single = client.post("/v1/reversi/check-move", json={"board": board, **query})
                singles[key] = single.json()
            assert result == singles[key]
            expected = reversi_flips(board, row, col, color)
            assert result["flips"] == [list(cell) for cell in expected]
            assert result["legal"] == bool(expected)


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


def test_a_batch_answer_is_its_whole_list_rendered_at_once() -> None:
    # Each distinct question answered and rendered once, the array joined from the bytes: the
    # same bytes as rendering every answer in one list.
    asked = [3, 1, 3, 0, 2, 1, 3]
    calls: list[int] = []

    def answer(n: int) -> dict[str, object]:
        calls.append(n)
        return {"n": n, "cells": [[n, n]] * n, "name": None if n % 2 else "é"}

    written = completed(results(asked, rendered(answer)))
    assert written == to_json({"results": [answer(n) for n in asked]})
    assert sorted(calls[:4]) == [0, 1, 2, 3]  # then once more each, for the comparison
