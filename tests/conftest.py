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
from tests.servers import redis_cluster, redis_server

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


@pytest.fixture(scope="session")
def redis_cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One Redis Cluster of three primaries for the whole run (as ``redis_url``)."""
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster.url


def empty_store(request: pytest.FixtureRequest, store: str) -> str:
    """The URL of the store named ``store`` (memory, redis, cluster), emptied."""
    if store == "memory":
        return "memory://"
    if store == "cluster":
        url: str = request.getfixturevalue("redis_cluster_url")
        flush_cluster(url)
        return url
    url = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushdb()
    return url


def flush_cluster(url: str) -> None:
    host, _, port = url.removeprefix("redis+cluster://").split(",")[0].rpartition(":")
    cluster = redis.RedisCluster(host=host, port=int(port))
    cluster.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
    cluster.close()


@pytest.fixture(params=["memory", "redis", "cluster"])
def store_url(request: pytest.FixtureRequest) -> str:
    """Each session test runs against every store: the memory store, one Redis and a Redis
    Cluster of three primaries; a networked store starts empty for every test."""
    return empty_store(request, request.param)
