"""A request that acts for a player is authenticated before its body is read, and an address that
sends too many wrong tokens is throttled (429 before its token is even looked at); a request
without a token is always 401."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.conftest import app_settings, empty_store
from tests.fakes import FakeClock

JSON = {"content-type": "application/json"}
GARBAGE = b'{"row": ' + b"[" * 100_000  # not JSON, and costly to read were it read


@pytest.fixture(params=["memory", "redis"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    settings = app_settings(
        store_url=empty_store(request, request.param),
        create_rate_per_minute=0,
        auth_failures_per_minute=6,  # one a 10 s
        auth_failures_burst=3,
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def new_game(client: TestClient) -> dict[str, Any]:
    game: dict[str, Any] = client.post("/v1/games", json={"n": 3}).json()
    return game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **JSON}


@pytest.mark.parametrize("action", ["moves", "resign", "draw-offer"])
def test_a_wrong_token_is_401_before_the_body_is_read(client: TestClient, action: str) -> None:
    game = new_game(client)
    answer = client.post(f"/v1/games/{game['id']}/{action}", content=GARBAGE, headers=bearer("x"))
    assert_problem(answer, 401, "unauthorized")
    assert answer.headers["www-authenticate"] == "Bearer"


def test_an_unknown_game_is_404_before_the_body_is_read(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(
        "/v1/games/nosuchgame/moves", content=GARBAGE, headers=bearer(game["tokens"]["1"])
    )
    assert_problem(answer, 404, "game_not_found")


def test_the_right_token_has_its_body_read(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(
        f"/v1/games/{game['id']}/moves", content=GARBAGE, headers=bearer(game["tokens"]["1"])
    )
    assert_problem(answer, 422, "validation_error")


def test_too_many_wrong_tokens_from_one_address_are_throttled(client: TestClient) -> None:
    clock = FakeClock()
    client.app.state.auth_failures.clock = clock  # type: ignore[attr-defined]
    game = new_game(client)
    move = f"/v1/games/{game['id']}/moves"
    right = bearer(game["tokens"]["1"])
    for wrong in ("nope", game["tokens"]["1"][:-1], game["tokens"]["2"] + "x"):
        refused = client.post(move, json={"row": 0, "col": 0}, headers=bearer(wrong))
        assert_problem(refused, 401, "unauthorized")
    # The burst of three is spent: the address is refused before any token is checked; a
    # request without one is still told it needs one.
    for missing in ({}, {"Authorization": "Basic abc"}):
        refused = client.post(move, json={"row": 0, "col": 0}, headers=missing)
        assert_problem(refused, 401, "unauthorized")
    refused = client.post(move, json={"row": 0, "col": 0}, headers=right)
    problem = assert_problem(refused, 429, "rate_limited")
    assert "wrong token" in problem["detail"]
    assert refused.headers["retry-after"] == "10"
    assert_problem(client.delete(f"/v1/games/{game['id']}", headers=right), 429, "rate_limited")
    assert client.get(f"/v1/games/{game['id']}").json()["move_count"] == 0  # reads are free
    clock.now += 10
    assert client.post(move, json={"row": 0, "col": 0}, headers=right).status_code == 201
    assert_problem(
        client.delete(f"/v1/games/{game['id']}", headers=bearer("nope")), 401, "unauthorized"
    )
    assert_problem(client.delete(f"/v1/games/{game['id']}", headers=right), 429, "rate_limited")


def test_the_throttle_is_per_address() -> None:
    settings = Settings(auth_failures_per_minute=6, auth_failures_burst=1)
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        move = f"/v1/games/{game['id']}/moves"
        assert client.post(move, json={"row": 0, "col": 0}, headers=bearer("x")).status_code == 401
        assert client.post(move, json={"row": 0, "col": 0}, headers=bearer("x")).status_code == 429
        with TestClient(client.app, client=("192.0.2.9", 50000)) as other:
            right = bearer(game["tokens"]["1"])
            assert other.post(move, json={"row": 0, "col": 0}, headers=right).status_code == 201


def test_zero_turns_the_throttle_off() -> None:
    settings = Settings(auth_failures_per_minute=0, auth_failures_burst=1)
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        for _ in range(5):
            answer = client.post(
                f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0}, headers=bearer("x")
            )
            assert answer.status_code == 401


def test_a_refusal_before_a_large_body_is_read_closes_the_connection(client: TestClient) -> None:
    # Rather than read and drop a refused megabyte to keep the connection.
    game = new_game(client)
    large = b'{"row": 0, "col": 0, "pad": "' + b" " * 100_000 + b'"}'
    refused = client.post(f"/v1/games/{game['id']}/moves", content=large, headers=bearer("x"))
    assert_problem(refused, 401, "unauthorized")
    assert refused.headers["connection"] == "close"
    small = client.post(
        f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0}, headers=bearer("x")
    )
    assert "connection" not in small.headers  # a few unread bytes: the connection is kept
    read = client.post(
        f"/v1/games/{game['id']}/moves", content=large, headers=bearer(game["tokens"]["1"])
    )
    assert_problem(read, 422, "validation_error")  # read whole, then refused: kept
    assert "connection" not in read.headers


def test_a_token_being_looked_up_counts_as_wrong_until_it_is_found_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings(auth_failures_per_minute=6, auth_failures_burst=1)
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        failures = client.app.state.auth_failures  # type: ignore[attr-defined]
        store = client.app.state.store  # type: ignore[attr-defined]
        look_up = store.seat
        left_meanwhile: list[bool] = []

        async def seat(game_id: str, token: str) -> Any:
            left_meanwhile.append(_fits(failures))
            return await look_up(game_id, token)

        monkeypatch.setattr(store, "seat", seat)
        right = bearer(game["tokens"]["1"])
        assert client.post(f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0},
                           headers=right).status_code == 201  # fmt: skip
        # While it was looked up, a request at once with another token would have been refused;
        # found right, the attempt was given back: a wrong token now is still only a 401.
        assert left_meanwhile == [False]
        wrong = client.post(f"/v1/games/{game['id']}/resign", headers=bearer("x"))
        assert_problem(wrong, 401, "unauthorized")


def _fits(failures: Any) -> bool:
    """Whether one more wrong token would be let in now."""
    try:
        failures.admit("testclient", 1)
    except Exception:
        return False
    return True
