"""Malformed requests of every kind get a 4xx problem+json answer, never a 5xx."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rules.reversi import OPENING as OPENING_ROWS
from app.settings import Settings
from tests.api.problems import assert_problem, assert_validation_error
from tests.api.test_hostile_params import live_games
from tests.conftest import shared_settings

OPENING = list(OPENING_ROWS)
JSON = {"content-type": "application/json"}
POST_PATHS = [
    "/v1/reversi/check-move",
    "/v1/reversi/check-moves",
    "/v1/reversi/legal-moves",
    "/v1/reversi/apply-move",
    "/v1/tictactoe/validate",
    "/v1/tictactoe/validate-batch",
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app (memory store) for the module's cases, each of which reads only what it makes;
    one per case took most of the module's time."""
    with TestClient(create_app(shared_settings()), raise_server_exceptions=False) as shared:
        yield shared


MALFORMED_REVERSI = [
    # (body, loc that must be named)
    ({"board": OPENING, "row": "2", "col": 3, "color": "B"}, ("body", "row")),
    ({"board": OPENING, "row": 2.5, "col": 3, "color": "B"}, ("body", "row")),
    ({"board": OPENING, "row": True, "col": 3, "color": "B"}, ("body", "row")),
    ({"board": OPENING, "row": None, "col": 3, "color": "B"}, ("body", "row")),
    ({"board": OPENING, "col": 3, "color": "B"}, ("body", "row")),
    ({"board": OPENING, "row": 2, "col": 3, "color": "b"}, ("body", "color")),
    ({"board": OPENING, "row": 2, "col": 3, "color": "X"}, ("body", "color")),
    ({"board": OPENING, "row": 2, "col": 3, "color": ["B"]}, ("body", "color")),
    ({"board": "........", "row": 0, "col": 0, "color": "B"}, ("body", "board")),
    ({"board": [], "row": 0, "col": 0, "color": "B"}, ("body", "board")),
    ({"board": [""], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": ["...", ".."], "row": 0, "col": 0, "color": "B"}, ("body", "board")),
    ({"board": ["..b"], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": ["..X"], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": [". ."], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": [[".", "BW"]], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": [[".", 1]], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": [[".", None]], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": [{"a": 1}], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": ["." * 33], "row": 0, "col": 0, "color": "B"}, ("body", "board", 0)),
    ({"board": ["."] * 33, "row": 0, "col": 0, "color": "B"}, ("body", "board")),
    ({"board": ["."] * 100_000, "row": 0, "col": 0, "color": "B"}, ("body", "board")),
    ({"board": OPENING, "row": 10**400, "col": 0, "color": "B"}, ("body", "row")),
    ({"board": OPENING, "row": -(10**20), "col": 0, "color": "B"}, ("body", "row")),
]


@pytest.mark.parametrize(("payload", "loc"), MALFORMED_REVERSI)
def test_malformed_reversi_requests_name_the_field(
    client: TestClient, payload: dict[str, object], loc: tuple[str | int, ...]
) -> None:
    response = client.post("/v1/reversi/check-move", json=payload)
    assert_validation_error(response, *loc)


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"not json",
        b"null",
        b"[]",
        b'"board"',
        b"\xff\xfe\x00",
        b'{"board": NaN}',
        b"[" * 100_000,
        b"[" * 50_000 + b"]" * 50_000,
        b'{"board": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        b'{"a":' * 30_000 + b"1" + b"}" * 30_000,
    ],
)
def test_unparsable_or_wrongly_shaped_bodies_are_422(
    client: TestClient, path: str, raw: bytes
) -> None:
    body = assert_problem(client.post(path, content=raw, headers=JSON), 422, "validation_error")
    assert body["errors"]
    assert all(error["loc"][0] == "body" for error in body["errors"])


@pytest.mark.parametrize("path", POST_PATHS)
def test_body_over_the_limit_is_413(client: TestClient, path: str) -> None:
    payload = json.dumps({"board": ["." * 30] * 30, "pad": "x" * (1024 * 1024)})
    assert_problem(client.post(path, content=payload, headers=JSON), 413, "payload_too_large")


def test_body_limit_is_enforced_while_reading_a_chunked_body() -> None:
    limit = 1000
    app = create_app(Settings(max_body_bytes=limit))
    sent = 0

    def chunks():  # no Content-Length: the limit must trip while reading
        nonlocal sent
        for _ in range(10_000):
            sent += 100
            yield b" " * 100

    with TestClient(app) as client:
        response = client.post("/v1/reversi/legal-moves", content=chunks(), headers=JSON)
    assert_problem(response, 413, "payload_too_large")


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "GZIP", "identity, gzip"])
def test_an_encoded_body_is_415_unread(client: TestClient, path: str, coding: str) -> None:
    headers = {**JSON, "Content-Encoding": coding}
    answer = client.post(path, content=b"\x1f\x8b not even gzip", headers=headers)
    problem = assert_problem(answer, 415, "unsupported_content_encoding")
    assert answer.headers["accept-encoding"] == "identity"
    assert coding in problem["detail"]


@pytest.mark.parametrize(("size", "closes"), [(100, False), (200_000, True)])
def test_an_encoded_body_left_unread_closes_the_connection_if_large(
    client: TestClient, size: int, closes: bool
) -> None:
    # The body is refused unread: the server would read and drop it to keep the connection,
    # which a client must not be able to make cost more than the connection itself.
    headers = {**JSON, "Content-Encoding": "gzip"}
    answer = client.post("/v1/tictactoe/validate", content=b" " * size, headers=headers)
    assert_problem(answer, 415, "unsupported_content_encoding")
    assert (answer.headers.get("connection") == "close") is closes


def test_an_encoded_body_creates_nothing(client: TestClient) -> None:
    headers = {**JSON, "Content-Encoding": "gzip"}
    before = live_games(client)
    assert client.post("/v1/games", content=b'{"n": 3}', headers=headers).status_code == 415
    assert live_games(client) == before


@pytest.mark.parametrize("coding", ["identity", "", " Identity "])
def test_no_content_coding_is_no_coding(client: TestClient, coding: str) -> None:
    headers = {**JSON, "Content-Encoding": coding}
    assert (
        client.post(
            "/v1/tictactoe/validate", content=b'{"board": ["X"]}', headers=headers
        ).status_code
        == 200
    )


def test_limit_comes_from_settings() -> None:
    with TestClient(create_app(Settings(max_body_bytes=50))) as client:
        small = client.post("/v1/tictactoe/validate", json={"board": ["X"]})
        large = client.post("/v1/tictactoe/validate", json={"board": ["." * 40] * 40})
    assert small.status_code == 200
    assert_problem(large, 413, "payload_too_large")


def test_unknown_path_is_404_not_found(client: TestClient) -> None:
    assert_problem(client.get("/v1/nothing-here"), 404, "not_found")
    assert_problem(client.post("/v1/reversi/nope", json={}), 404, "not_found")


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_wrong_method_is_405_with_allow(client: TestClient, path: str, method: str) -> None:
    response = client.request(method, path)
    assert_problem(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_the_games_collection_takes_get_and_post(client: TestClient, method: str) -> None:
    """``/v1/games``: POST creates a game, GET lists the open ones; nothing else."""
    response = client.request(method, "/v1/games")
    assert_problem(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "GET, POST"


def test_text_plain_json_is_refused_as_not_an_object(client: TestClient) -> None:
    response = client.post(
        "/v1/tictactoe/validate",
        content=json.dumps({"board": ["X"]}),
        headers={"content-type": "text/plain"},
    )
    assert_validation_error(response, "body")


def test_validation_error_lists_every_failing_field(client: TestClient) -> None:
    response = client.post(
        "/v1/reversi/check-move", json={"board": OPENING, "row": "a", "col": "b", "color": "Q"}
    )
    body = assert_validation_error(response, "body", "row")
    assert {tuple(e["loc"]) for e in body["errors"]} >= {
        ("body", "row"),
        ("body", "col"),
        ("body", "color"),
    }
    assert "body.row" in body["detail"]


def test_problem_types_are_described(client: TestClient) -> None:
    response = client.get("/problems/illegal_move").json()
    # A rule broken in a stateless question (422) and in a session (409): both are described.
    assert (response["code"], response["title"], response["statuses"]) == (
        "illegal_move", "Illegal move", [422, 409])  # fmt: skip
    for text in (response["when"], response["todo"]):
        assert "422: " in text
        assert "409: " in text
    assert_problem(client.get("/problems/no_such_code"), 404, "not_found")


def test_integral_numbers_count_as_integers_like_json_schema_says(client: TestClient) -> None:
    response = client.post(
        "/v1/reversi/check-move", json={"board": OPENING, "row": 2.0, "col": 3.0, "color": "B"}
    )
    assert response.json()["legal"] is True


@pytest.mark.parametrize("path", ["/v1/games/", "/v1/reversi/check-move/", "/healthz/"])
def test_a_trailing_slash_is_no_route_and_no_redirect(client: TestClient, path: str) -> None:
    # A redirect would be built from the request's Host header: a client could make the service
    # point browsers anywhere.
    response = client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert_problem(response, 404, "not_found")
    assert "location" not in response.headers


VALID_BODIES = {
    "/v1/reversi/check-move": {"board": OPENING, "row": 2, "col": 3, "color": "B"},
    "/v1/reversi/check-moves": {"board": OPENING, "queries": [{"row": 2, "col": 3, "color": "B"}]},
    "/v1/reversi/legal-moves": {"board": OPENING, "color": "W"},
    "/v1/reversi/apply-move": {"board": OPENING, "row": 2, "col": 3, "color": "B"},
    "/v1/tictactoe/validate": {"board": ["XO.", "...", "..."]},
    "/v1/tictactoe/validate-batch": {"items": [{"board": ["X..", "...", "..."]}]},
}


@pytest.mark.parametrize("path", sorted(VALID_BODIES))
def test_a_utf8_byte_order_mark_before_a_body_is_ignored(client: TestClient, path: str) -> None:
    # RFC 8259 §8.1: a parser may ignore it; Windows tools (PowerShell, Notepad) write one.
    raw = json.dumps(VALID_BODIES[path]).encode()
    plain = client.post(path, content=raw, headers=JSON)
    marked = client.post(path, content=b"\xef\xbb\xbf" + raw, headers=JSON)
    assert plain.status_code == 200
    assert (marked.status_code, marked.json()) == (plain.status_code, plain.json())


def test_a_game_created_from_a_body_with_a_byte_order_mark(client: TestClient) -> None:
    created = client.post("/v1/games", content=b'\xef\xbb\xbf{"n": 4, "k": 3}', headers=JSON)
    assert created.status_code == 201
    assert (created.json()["n"], created.json()["k"]) == (4, 3)
    token = created.json()["tokens"]["1"]
    moved = client.post(
        f"/v1/games/{created.json()['id']}/moves",
        content=b'\xef\xbb\xbf{"row": 1, "col": 2}',
        headers={**JSON, "Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 201
    assert (moved.json()["move"]["row"], moved.json()["move"]["col"]) == (1, 2)


@pytest.mark.parametrize(
    "raw",
    [b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf{}", b" \xef\xbb\xbf{}", b"\xef\xbb{}"],
    ids=["mark-alone", "two-marks", "mark-after-space", "half-a-mark"],
)
def test_only_one_leading_byte_order_mark_is_ignored(client: TestClient, raw: bytes) -> None:
    assert_problem(client.post("/v1/tictactoe/validate", content=raw, headers=JSON),
                   422, "validation_error")  # fmt: skip


def repeated_clause(text: str) -> str | None:
    """A clause (text between ': ' or '; ') said twice in one message."""
    clauses = [c.strip() for c in re.split(r": |; ", text) if len(c.strip()) > 3]
    twice = [c for c in clauses if clauses.count(c) > 1]
    return twice[0] if twice else None


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize(
    "raw",
    [
        b'{"board": ["..."], "row": 0,}',
        b'{"board": ["..."] "row": 0}',
        b'{"board": [".."',
        b"{\"board\": ['..']}",
        b'{"n": 3, "n": 4, "k": 01}',
        b'{"board": "\\ud800"}',
        b'{"board": ["..."], "color": "B"}  x',
        b"\xef\xbb\xbf{,}",
    ],
)
def test_an_error_message_says_each_thing_once(client: TestClient, path: str, raw: bytes) -> None:
    body = assert_problem(client.post(path, content=raw, headers=JSON), 422, "validation_error")
    for text in [body["detail"], *(error["msg"] for error in body["errors"])]:
        assert repeated_clause(text) is None, text
