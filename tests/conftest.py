"""Shared fixtures: apps built from explicit settings, clients, and the game stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient
from hypothesis.configuration import set_hypothesis_home_dir

from app.main import create_app
from app.settings import Settings
from tests.servers import redis_server

# The suite writes into the checkout only under test-artifacts/ (ignored by git).
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
set_hypothesis_home_dir(str(ARTIFACTS / "hypothesis"))  # its example database and caches


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One redis-server for the whole run (skipped locally if missing; required under CI)."""
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(params=["memory", "redis"])
def store_url(request: pytest.FixtureRequest) -> str:
    """Each session test runs against both stores; Redis starts empty for every test."""
    if request.param == "memory":
        return "memory://"
    url: str = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushdb()
    return url
