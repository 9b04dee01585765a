"""Which store a URL names: a Redis Cluster by its seed nodes, one Redis, or memory; a malformed
cluster URL is a bad setting (one line, exit 2 from the command), never a store half-made."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.settings import Settings
from app.stores.redis.cluster import is_cluster, seed_nodes


@pytest.mark.parametrize(
    ("url", "seeds"),
    [
        ("redis+cluster://127.0.0.1:7000", [("127.0.0.1", 7000)]),
        ("redis+cluster://10.0.0.1:7000,10.0.0.2:7001/", [("10.0.0.1", 7000), ("10.0.0.2", 7001)]),
        ("redis+cluster://cache.internal:6379", [("cache.internal", 6379)]),
    ],
)
def test_a_cluster_url_names_its_seed_nodes(url: str, seeds: list[tuple[str, int]]) -> None:
    assert Settings(store_url=url).store_url == url
    assert is_cluster(url)
    assert seed_nodes(url) == seeds


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://host:6380", "memory://"])
def test_other_urls_are_no_cluster(url: str) -> None:
    assert Settings(store_url=url).store_url == url
    assert not is_cluster(url)


@pytest.mark.parametrize(
    "url",
    [
        "redis+cluster://",
        "redis+cluster://127.0.0.1",  # no port
        "redis+cluster://127.0.0.1:7000,,127.0.0.1:7001",
        "redis+cluster://127.0.0.1:seven",
        "redis+cluster://127.0.0.1:7000/0",  # a cluster has no databases
        "redis+cluster://127.0.0.1:7000 ,127.0.0.1:7001",
        "redis+cluster://127.0.0.1:7000\n",
        "rediscluster://127.0.0.1:7000",
    ],
)
def test_a_malformed_cluster_url_is_refused(url: str) -> None:
    with pytest.raises(ValidationError):
        Settings(store_url=url)
