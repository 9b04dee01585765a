"""Game creation is rate-limited per client address: 429 rate_limited with Retry-After."""

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
