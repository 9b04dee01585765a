"""Probes, and the route class that serves lean endpoints directly."""

from __future__ import annotations

import logging

import pytest
from fastapi import Request, Response
from fastapi.testclient import TestClient

from app.api.routing import DirectRoute, is_direct
from app.kinds import REGISTRY
from app.main import create_app
from app.settings import Settings
from app.stores.memory import MemoryGameStore
from tests.api.problems import assert_problem


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}


def test_readiness_is_503_while_the_store_does_not_answer() -> None:
    class DownStore(MemoryGameStore):
        async def ready(self) -> bool:
            return False

    store = DownStore(REGISTRY, max_games=1, idle_seconds=60)
    with TestClient(create_app(Settings(), store=store)) as client:
        assert_problem(client.get("/readyz"), 503, "store_unavailable")
        assert client.get("/healthz").status_code == 200


def test_only_request_to_response_endpoints_are_served_directly() -> None:
    async def direct(request: Request) -> Response:
        return Response()

    async def with_parameter(request: Request, n: int) -> Response:
        return Response()

    async def returns_data(request: Request) -> dict[str, str]:
        return {}

    def synchronous(request: Request) -> Response:
        return Response()

    assert is_direct(direct)
    assert not is_direct(with_parameter)
    assert not is_direct(returns_data)
    assert not is_direct(synchronous)


def test_every_route_of_the_service_is_either_direct_or_fully_handled(client: TestClient) -> None:
    app = client.app
    routes = [r for r in app.routes if isinstance(r, DirectRoute)]  # type: ignore[attr-defined]
    assert routes
    direct = {r.path for r in routes if is_direct(r.endpoint)}
    assert {"/v1/reversi/check-move", "/v1/games/{game_id}/moves", "/healthz"} <= direct


def test_memory_store_with_several_workers_is_called_out_at_startup(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger="app"),
        TestClient(create_app(Settings(workers=3))),
    ):
        pass
    assert any("memory store lives in one process" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="app"), TestClient(create_app(Settings())):
        pass
    assert not caplog.records
