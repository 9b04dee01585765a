"""The stateless gomoku and renju endpoints (API.md part 2, "Five in a row as its players play
it"): every answer compared with the slow reference of ``tests/rules/gomoku_reference.py`` on
random positions of every rule and on the renju test positions of the public engines
(``tests/data/renju-forbidden.json``); square names from the bottom; bad boards refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.gomoku import DOUBLE_THREE, FIVE
from tests.api.problems import assert_validation_error
from tests.rules.gomoku_reference import (
    board_of,
    renju_black,
    renju_forbidden_points,
    winning_lines,
)

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "renju-forbidden.json").read_text()
)
RULES = ("freestyle", "standard", "renju", "caro")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    return module_client


def square(row: int, col: int, size: int) -> str:
    """A gomoku square name, rows counted from the bottom: written out here."""
    return f"{LETTERS[col]}{size - row}"


def random_board(rng: random.Random, size: int, stones: int) -> list[str]:
    grid = [["."] * size for _ in range(size)]
    cells = rng.sample([(r, c) for r in range(size) for c in range(size)], stones)
    for index, (r, c) in enumerate(cells):
        grid[r][c] = "BW"[index % 2]
    return ["".join(row) for row in grid]


def expected(rows: list[str], row: int, col: int, color: str, rule: str) -> dict[str, Any]:
    """check-move's answer, from the reference."""
    size = len(rows)
    board = board_of(rows)
    if (row, col) in board:
        return {"legal": False, "reason": "occupied", "forbidden": None, "wins": False, "lines": []}
    if rule == "renju" and color == "B":
        forbidden, wins, lines = renju_black(board, (row, col))
    else:
        forbidden, lines = None, winning_lines(board, row, col, color, rule)
        wins = bool(lines)
    return {
        "legal": forbidden is None,
        "reason": None if forbidden is None else "forbidden",
        "forbidden": forbidden,
        "wins": wins,
        "lines": sorted(
            (shape, [list(cell) for cell in cells], [square(*cell, size) for cell in cells])
            for shape, cells in lines
        ),
    }


def answered(body: dict[str, Any]) -> dict[str, Any]:
    lines = sorted((line["shape"], line["cells"], line["squares"]) for line in body["lines"])
    return {**body, "lines": lines}


@pytest.mark.parametrize("rule", RULES)
def test_check_move_answers_as_the_reference_on_random_positions(
    client: TestClient, rule: str
) -> None:
    rng = random.Random(rule)
    for _ in range(12):
        size = 15 if rule == "renju" else rng.choice([5, 9, 15, 19])
        rows = random_board(rng, size, rng.randint(size, size * size * 2 // 3))
        queries = []
        for _ in range(20):
            row, col, color = rng.randrange(size), rng.randrange(size), rng.choice("BW")
            queries.append({"row": row, "col": col, "color": color})
            response = client.post(
                "/v1/gomoku/check-move",
                json={"board": rows, "square": square(row, col, size), "color": color,
                      "rule": rule},
            )  # fmt: skip
            assert response.status_code == 200, response.text
            assert answered(response.json()) == expected(rows, row, col, color, rule)
        batch = client.post(
            "/v1/gomoku/check-moves", json={"board": rows, "rule": rule, "queries": queries}
        )
        assert [answered(r) for r in batch.json()["results"]] == [
            expected(rows, q["row"], q["col"], q["color"], rule) for q in queries
        ]


def test_forbidden_points_of_the_engines_test_positions_are_the_references(
    client: TestClient,
) -> None:
    positions = [p for p in DATA["positions"] if len(p["board"]) == 15]
    assert len(positions) > 50
    for position in positions:
        rows = position["board"]
        response = client.post("/v1/gomoku/forbidden-points", json={"board": rows})
        assert response.status_code == 200, response.text
        reference = renju_forbidden_points(board_of(rows))
        points = response.json()["points"]
        assert [(p["row"], p["col"], p["forbidden"]) for p in points] == reference
        assert [p["square"] for p in points] == [square(r, c, 15) for r, c, _ in reference]
        assert response.json()["count"] == len(reference)


def test_forbidden_points_of_random_renju_positions_are_the_references(
    client: TestClient,
) -> None:
    rng = random.Random(15)
    for _ in range(8):
        rows = random_board(rng, 15, rng.randint(20, 70))
        response = client.post("/v1/gomoku/forbidden-points", json={"board": rows, "rule": "renju"})
        found = [(p["row"], p["col"], p["forbidden"]) for p in response.json()["points"]]
        assert found == renju_forbidden_points(board_of(rows))


def test_the_documented_examples_say_what_they_claim(client: TestClient) -> None:
    five = client.post(
        "/v1/gomoku/check-move", json={"board": FIVE, "square": "h8", "color": "B"}
    ).json()
    assert (five["legal"], five["wins"]) == (True, True)
    renju = client.post(
        "/v1/gomoku/check-move",
        json={"board": DOUBLE_THREE, "square": "h8", "color": "B", "rule": "renju"},
    ).json()
    assert (renju["legal"], renju["forbidden"]) == (False, "double_three")


EMPTY_15 = ["." * 15] * 15


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (
            {"board": ["." * 9] * 9, "square": "e5", "color": "B", "rule": "renju"},
            ("body", "board"),
        ),
        ({"board": ["." * 4] * 4, "row": 0, "col": 0, "color": "B"}, ("body", "board")),
        ({"board": ["." * 15] * 14, "row": 0, "col": 0, "color": "B"}, ("body", "board")),
        ({"board": EMPTY_15, "row": 15, "col": 0, "color": "B"}, ("body", "row")),
        ({"board": EMPTY_15, "square": "p1", "color": "B"}, ("body", "square")),
        ({"board": EMPTY_15, "square": "h8", "row": 1, "color": "B"}, ("body", "square")),
        ({"board": EMPTY_15, "square": "h8", "color": "X"}, ("body", "color")),
        ({"board": EMPTY_15, "square": "h8", "color": "B", "rule": "pro"}, ("body", "rule")),
        ({"board": ["X" * 15] * 15, "square": "h8", "color": "B"}, ("body", "board", 0)),
        ({"board": EMPTY_15, "square": "h\u0668", "color": "B"}, ("body", "square")),  # ٨
        ({"board": EMPTY_15, "square": "h\x008", "color": "B"}, ("body", "square")),
        ({"board": EMPTY_15, "row": 10**40, "col": 0, "color": "B"}, ("body", "row")),
        (
            {
                "board": ["." * 15] * 7 + ["\x07" * 15] + ["." * 15] * 7,
                "square": "h8",
                "color": "B",
            },
            ("body", "board", 7),
        ),
    ],
)
def test_a_bad_check_is_a_validation_error(
    client: TestClient, body: dict[str, Any], where: tuple[str | int, ...]
) -> None:
    assert_validation_error(client.post("/v1/gomoku/check-move", json=body), *where)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"board": EMPTY_15, "rule": "freestyle"}, ("body", "rule")),
        ({"board": ["." * 19] * 19}, ("body", "board")),
    ],
)
def test_forbidden_points_are_renjus_alone(
    client: TestClient, body: dict[str, Any], where: tuple[str | int, ...]
) -> None:
    assert_validation_error(client.post("/v1/gomoku/forbidden-points", json=body), *where)


def test_a_bad_query_of_a_batch_is_named_by_its_index(client: TestClient) -> None:
    queries = [{"square": "h8", "color": "B"}, {"square": "z99", "color": "B"}]
    response = client.post("/v1/gomoku/check-moves", json={"board": EMPTY_15, "queries": queries})
    assert_validation_error(response, "body", "queries", 1, "square")


def test_a_board_wider_than_26_columns_answers_cells_without_names(client: TestClient) -> None:
    rows = ["." * 27] * 27
    rows[13] = "." * 10 + "BBBB" + "." * 13
    response = client.post(
        "/v1/gomoku/check-move", json={"board": rows, "row": 13, "col": 14, "color": "B"}
    )
    (line,) = response.json()["lines"]
    assert line == {"shape": "five", "cells": [[13, col] for col in range(10, 15)]}
