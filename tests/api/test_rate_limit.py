"""Game creation and batch work are rate-limited per client address: 429 rate_limited with
Retry-After."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.api.ratelimit import RateLimiter
from app.main import create_app
from app.settings import Settings
from tests.api.problems import assert_problem


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_burst_then_429_then_refill() -> None:
    clock = FakeClock()
    app = create_app(Settings(create_rate_per_minute=6, create_burst=3))
    app.state.creation_limiter.clock = clock
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post("/v1/games", json={"n": 3}).status_code == 201
        refused = client.post("/v1/games", json={"n": 3})
        assert_problem(refused, 429, "rate_limited")
        assert refused.headers["retry-after"] == "10"  # one game every 10 s
        clock.now += 10
        assert client.post("/v1/games", json={"n": 3}).status_code == 201
        # Other requests are not limited.
        assert client.post("/v1/tictactoe/validate", json={"board": ["X"]}).status_code == 200


def test_zero_rate_disables_the_limit() -> None:
    with TestClient(create_app(Settings(create_rate_per_minute=0, create_burst=1))) as client:
        for _ in range(5):
            assert client.post("/v1/games", json={"n": 3}).status_code == 201


def test_buckets_are_per_client_and_bounded() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate_per_minute=60, burst=1, clock=clock, max_clients=2)
    limiter.take("a")
    limiter.take("b")
    with pytest.raises(Exception, match="too many games"):
        limiter.take("a")
    limiter.take("c")  # a third client evicts the least recently seen ("b")
    assert len(limiter._buckets) == 2


@pytest.mark.parametrize(
    ("path", "item", "items"),
    [
        ("/v1/tictactoe/validate-batch", {"board": ["X"]}, "items"),
        ("/v1/reversi/check-moves", {"row": 0, "col": 0, "color": "B"}, "queries"),
    ],
)
def test_batch_items_are_budgeted_per_client(path: str, item: object, items: str) -> None:
    clock = FakeClock()
    settings = Settings(batch_items_per_minute=60, batch_burst=5, max_batch=5)
    app = create_app(settings)
    app.state.batch_limiter.clock = clock

    def batch(size: int) -> dict[str, object]:
        body: dict[str, object] = {items: [item] * size}
        if items == "queries":
            body["board"] = ["."]
        return body

    with TestClient(app) as client:
        assert client.post(path, json=batch(3)).status_code == 200
        refused = client.post(path, json=batch(3))  # 2 items left of 5
        assert_problem(refused, 429, "rate_limited")
        assert refused.headers["retry-after"] == "1"  # one item a second
        assert client.post(path, json=batch(2)).status_code == 200  # a refusal spends nothing
        assert_problem(client.post(path, json=batch(1)), 429, "rate_limited")
        clock.now += 1
        assert client.post(path, json=batch(1)).status_code == 200


def test_a_full_batch_must_fit_the_burst() -> None:
    with pytest.raises(ValueError, match="batch_burst"):
        Settings(max_batch=100, batch_burst=99)
