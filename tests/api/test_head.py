"""HEAD on every GET route: the GET's status and headers, and no body."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    """One app for the module's tests (conftest's ``module_client``)."""
    return module_client


@pytest.fixture
def finished(client: TestClient) -> str:
    game = client.post("/v1/games", json={"n": 1}).json()
    auth = {"Authorization": f"Bearer {game['tokens']['1']}"}
    assert client.post(f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0},
                       headers=auth).status_code == 201  # fmt: skip
    return f"/v1/games/{game['id']}"


@pytest.mark.parametrize(
    "suffix",
    ["", "/moves", "/moves/1", "/moves/9", "/board", "/legal-moves", "/events", "/nope"],
)
def test_head_answers_as_get_without_a_body(client: TestClient, finished: str, suffix: str) -> None:
    get = client.get(finished + suffix)
    head = client.head(finished + suffix)
    assert (head.status_code, head.content) == (get.status_code, b"")
    for name in ("content-type", "etag", "content-length", "cache-control"):
        assert head.headers.get(name) == get.headers.get(name), name


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/openapi.json", "/", "/docs"])
def test_head_on_operational_routes_and_pages(client: TestClient, path: str) -> None:
    head = client.head(path)
    assert (head.status_code, head.content) == (200, b"")


def test_head_on_the_stream_of_a_live_game_answers_at_once(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3}).json()
    head = client.head(f"/v1/games/{game['id']}/events")
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/event-stream")


def test_head_is_no_way_around_a_method_a_path_does_not_take(client: TestClient) -> None:
    assert client.head("/v1/reversi/check-move").status_code == 405
