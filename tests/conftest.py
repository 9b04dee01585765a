"""Shared fixtures: apps built from explicit settings, clients, and the game stores."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from hypothesis.configuration import set_hypothesis_home_dir

from app.main import create_app
from app.settings import Settings
from tests.servers import postgres_server, redis_cluster, redis_server

# The suite writes into the checkout only under test-artifacts/ (ignored by git).
ROOT = Path(__file__).resolve().parents[1]
# An app a test builds archives nothing unless the test names an archive (tests/archive, and
# the tests of the archive's routes): the default, a SQLite file in the working directory, would
# be written into the checkout by every app, and servers, the tests start.
os.environ.setdefault("ADJUDICATOR_ARCHIVE_URL", "none")
ARTIFACTS = ROOT / "test-artifacts"
set_hypothesis_home_dir(str(ARTIFACTS / "hypothesis"))  # its example database and caches

# The tests that take seconds each (real servers, clusters, browsers, node, builds, mypy), the
# longest first: schema fuzzing alone takes over a minute.
LONG = [
    ROOT / path
    for path in (
        "tests/e2e/test_schema_fuzzing.py",
        "tests/e2e/test_browser.py",
        "tests/e2e/test_cluster.py",
        "tests/e2e/test_typescript_client.py",
        "tests/test_quick_start.py",
        "clients/python/tests",
        "tests/e2e",
        "tests/test_tours.py",
        "tests/sessions/test_stores_agree.py",
        "tests/test_code_quality.py",
        "tests/test_cli.py",
    )
]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In pytest-xdist's workers (the README's command), the long tests start first, longest
    first, and the thousands of short ones follow, so that the workers finish together rather
    than one running a minute-long test alone at the end. That takes ``--dist worksteal``
    (pyproject's addopts): a worker with nothing left takes the far end of another's queue.
    (With ``--dist load`` the head of the queue, all long tests, would go to one worker in one
    block and stay there.) In one process the order is pytest's. A stable sort: the order within
    each module, and so its fixtures' lifetimes, are unchanged."""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: started(item.path))


def started(path: Path) -> int:
    """Where tests of ``path`` start: the place of the first part of LONG it is in, or after."""
    return next((i for i, part in enumerate(LONG) if path.is_relative_to(part)), len(LONG))


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def module_store_client(module_store_url: str) -> Iterator[TestClient]:
    """One app on each store (``module_store_url``, ``shared_settings``) for a module whose
    tests each read only what they make."""
    app = create_app(shared_settings(store_url=module_store_url))
    with TestClient(app, raise_server_exceptions=False) as shared:
        yield shared


@pytest.fixture(scope="module")
def module_client() -> Iterator[TestClient]:
    """One app (memory store, ``shared_settings``) for a module whose tests each read only
    what they make: building an app per test took most of such a module's time."""
    with TestClient(create_app(shared_settings()), raise_server_exceptions=False) as shared:
        yield shared


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


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """One PostgreSQL server for the whole run, its database ``adjudicator`` (skipped locally
    if missing; required under CI): each test that uses it makes a database of its own
    (``archive_url``)."""
    with postgres_server() as url:
        yield url


ARCHIVES = ("sqlite", "postgresql")


@pytest.fixture(params=ARCHIVES)
def archive_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each archive test runs on both databases, empty: a SQLite file of its own, or a
    database of its own on the run's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    server: str = request.getfixturevalue("postgres_url")
    return fresh_database(server)


@pytest.fixture(scope="session")
def redis_flusher(redis_url: str) -> Iterator[redis.Redis]:
    """One connection that empties the run's Redis before each test that asks for it."""
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture(scope="session")
def cluster_flusher(redis_cluster_url: str) -> Iterator[redis.RedisCluster]:
    """One cluster client that empties the run's cluster before each test that asks for it
    (a new one, which first discovers the cluster's nodes and slots, took ~10 ms a test)."""
    host, _, port = redis_cluster_url.removeprefix("redis+cluster://").split(",")[0].rpartition(":")
    client = redis.RedisCluster(host=host, port=int(port))
    yield client
    client.close()


def fresh_database(server: str) -> str:
    """A new, empty database on the PostgreSQL server of ``server`` (a URL of one of its
    databases): its URL."""
    import asyncio
    import uuid

    import asyncpg

    name = f"test_{uuid.uuid4().hex[:16]}"

    async def make() -> None:
        connection = await asyncpg.connect(server, timeout=10)
        try:
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()

    asyncio.run(make())
    return f"{server.rpartition('/')[0]}/{name}"


def empty_store(request: pytest.FixtureRequest, store: str) -> str:
    """The URL of the store named ``store`` (memory, redis, cluster), emptied."""
    if store == "memory":
        return "memory://"
    if store == "cluster":
        cluster: redis.RedisCluster = request.getfixturevalue("cluster_flusher")
        cluster.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
        return str(request.getfixturevalue("redis_cluster_url"))
    request.getfixturevalue("redis_flusher").flushdb()
    return str(request.getfixturevalue("redis_url"))


STORES = ("memory", "redis", "cluster")


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest) -> str:
    """Each session test runs against every store: the memory store, one Redis and a Redis
    Cluster of three primaries; a networked store starts empty for every test."""
    return empty_store(request, request.param)


@pytest.fixture(scope="module", params=STORES)
def module_store_url(request: pytest.FixtureRequest) -> str:
    """``store_url`` for an app that a module's tests share (``shared_settings``): every store,
    a networked one emptied before the module's first test on it. For tests that read only
    the games they make, or compare what they read before and after."""
    return empty_store(request, request.param)


def app_settings(**settings: Any) -> Settings:
    """Settings for an app a test builds on a networked store, whose timeout (unless the test
    sets one) is 10 s: the default second can pass on a machine busy with the suite's other
    workers, and the test would see 503 store_unavailable instead of what it checks (seen on
    the cluster, under two workers and other load). tests/api/test_store_outage.py sets its own
    short ones."""
    return Settings(**{"store_timeout_seconds": 10, **settings})


def shared_settings(**settings: Any) -> Settings:
    """Settings (``app_settings``) for an app that serves many tests of a module, rather than one
    app per test: building an app takes longer than most of those tests. Their requests all come
    from one address and would add up to that client's limits, so the per-client limits are off
    (test_rate_limit.py, test_tokens_first.py, test_history_reads.py and test_games_api.py in
    tests/api check them)."""
    return app_settings(**SHARED_APP_LIMITS, **settings)


SHARED_APP_LIMITS: dict[str, Any] = {
    "create_rate_per_minute": 0, "auth_failures_per_minute": 0, "client_cpu_ms_per_minute": 0,
    "history_moves_per_minute": 0, "client_share": 1, "client_open_games": 1_000_000,
}  # fmt: skip
