"""A smaller run of bench/load.py: concurrent clients, resent and duplicated moves, against a
real server on each store; afterwards every game holds exactly the moves its client saw accepted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.load import run_load, service
from tests.servers import redis_server


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_nothing_lost_nothing_doubled(store: str, tmp_path: Path) -> None:
    if store == "redis":
        with redis_server(tmp_path) as url, service(url) as base:
            report = asyncio.run(run_load(base, clients=8, games=4, seed=3))
    else:
        with service("memory://") as base:
            report = asyncio.run(run_load(base, clients=8, games=4, seed=3))
    assert report.problems == []
    assert report.games == 32
    assert report.resent > 0
    assert report.duplicated > 0
